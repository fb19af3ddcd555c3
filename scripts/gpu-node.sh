#!/usr/bin/env bash
# scripts/gpu-node.sh [checks|tests|sanitize|bench|ab|gemm|potri|lu|mpi|firstrun|staging|pageable|lanes|outofcore|multi|multi2|ab18|all] [bench options | ab variants...]:
# build and run GPUSs on a GPU node that has CUDA, cmake and ninja but no Clang libraries. gemm, potri and lu
# run the checks of examples/gemm, examples/potri or examples/lu on the GPUs, then bench/gemm/run.sh,
# bench/potri/run.sh or bench/lu/run.sh with the options given (--budget, --sizes, ...); SKIP_CHECKS=1 runs the
# benchmark alone.
#
# Translate where Clang is first:
#   cmake --build build --target gpuss-pretranslated && rm -rf .pretranslated && cp -r build/pretranslated .pretranslated
# and bring .pretranslated/ (and, where GoogleTest is not installed, a copy of
# /usr/src/googletest in .device/googletest) to the node. Results go to
# $OUT (or ./gpu-node-out): the logs and trace summaries of mode M in one file, M.log (a GPU node gives back
# few files), plus the benchmark's CSV and plots beside it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what="${1:-all}"
shift || true
final="${OUT:-$root/gpu-node-out}"
out="$(mktemp -d)"
mkdir -p "$final"
pack() {
  # At most a few files come back from a GPU node: the logs and trace summaries of this mode go into one,
  # <mode>.log, beside the benchmark's CSV and plots. Traces (large) stay behind.
  for f in "$out"/*.log "$out"/*.txt; do [[ -f $f ]] && { echo "#### ${f##*/}"; cat "$f"; }; done >"$final/$what.log" 2>/dev/null
  cp "$out"/bench/results.csv "$out"/bench/*.png "$final/" 2>/dev/null || true
  for b in gemm potri lu; do
    [[ -f "$out/bench-$b/results.csv" ]] && cp "$out/bench-$b/results.csv" "$final/$b-results.csv"
    cp "$out/bench-$b"/*.png "$final/" 2>/dev/null || true
  done
  return 0
}
trap pack EXIT
trap 'exit 143' TERM INT
build="${GPUSS_NODE_BUILD:-/tmp/gpuss-node-build}"
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH

gtest=()
[[ -d "$root/.device/googletest" ]] && gtest=(-DGPUSS_GTEST_SOURCE_DIR="$root/.device/googletest")
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSS_WITH_TRANSLATOR=OFF \
  -DGPUSS_PRETRANSLATED_DIR="$root/.pretranslated" -DGPUSS_NVCC_FLAGS=-arch=sm_90 "${gtest[@]}" >"$out/cmake.log" 2>&1 ||
  { tail -40 "$out/cmake.log"; exit 1; }
cmake --build "$build" >"$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | sed -n 1,40p; exit 1; }
nvidia-smi -L | tee "$out/gpus.txt"
gpus=$(grep -c '^GPU' "$out/gpus.txt")

if [[ $what == checks || $what == all ]]; then
  echo "== correctness: the Cholesky example under each policy and GPU count"
  for g in $(seq 1 "$gpus"); do
    for policy in nocache wt wb; do
      CSS_NUM_GPUS=$g CSS_CACHE_POLICY=$policy CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 -p d --check 2>&1 |
        tee -a "$out/checks.log" | grep -E "^cholesky|css-stats" | cut -c1-250
    done
    # Data larger than the cache: 16384^2 doubles (1 GiB lower triangle) through 256 MiB caches.
    CSS_NUM_GPUS=$g CSS_GPU_MEMORY=256M CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 -p d --check 2>&1 |
      tee -a "$out/checks.log" | grep -E "^cholesky|css-stats" | cut -c1-250
  done
  CSS_STATS=1 "$build/bin/cholesky" -n 8192 -t 1024 -p s --check 2>&1 | tee -a "$out/checks.log" | grep -E "^cholesky"
  # The panel by inverse (--inverse-trsm), in both precisions, on every GPU and through small caches.
  for prec in d s; do
    CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 -p $prec --check --gpu-potrf --inverse-trsm 2>&1 |
      tee -a "$out/checks.log" | grep -E "^cholesky"
  done
  CSS_GPU_MEMORY=256M CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 -p d --check --inverse-trsm 2>&1 |
    tee -a "$out/checks.log" | grep -E "^cholesky|css-stats" | cut -c1-250
  CSS_TRACE="$out/trace-wb.json" "$build/bin/cholesky" -n 16384 -t 1024 -p d --gpu-potrf | grep -E "^cholesky"
  # With fewer than four GPUs, the multi-GPU paths (peer copies, coherence across caches, owner waiting and
  # stealing) on partitions of GPU 0 (CSS_GPU_PARTITIONS): correctness only, they share one GPU.
  if ((gpus < 4)); then
    for p in 2 4; do
      for policy in nocache wt wb; do
        CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_CACHE_POLICY=$policy CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 \
          -p d --check --gpu-potrf 2>&1 | tee -a "$out/checks.log" | grep -E "^cholesky|css-stats" | cut -c1-250
      done
      CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_GPU_MEMORY=256M CSS_STATS=1 "$build/bin/cholesky" -n 16384 -t 1024 -p d \
        --check --inverse-trsm 2>&1 | tee -a "$out/checks.log" | grep -E "^cholesky|css-stats" | cut -c1-250
    done
    CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=4 CSS_STATS=1 "$build/bin/cholesky" -n 8192 -t 1024 -p s --check --gpu-potrf \
      --inverse-trsm 2>&1 | tee -a "$out/checks.log" | grep -E "^cholesky"
  fi
fi
if [[ $what == tests || $what == all ]]; then
  echo "== GPU tests"
  (cd "$build" && ctest -L gpu --output-on-failure 2>&1 | tee "$out/ctest-gpu.log" | tail -8)
  "$build/bin/host_pinning" 8 256 | tee -a "$out/host_pinning.log"
  "$build/bin/unlocked_copies" 8 32 | tee -a "$out/unlocked_copies.log"
  for cpus in 1 2 4; do "$build/bin/task_overhead" --cpus $cpus | tee -a "$out/task_overhead.log"; done
fi
if [[ $what == sanitize ]]; then
  # The GPU tests under compute-sanitizer's memcheck with guard zones around
  # every replica: the pool is an NVTX sub-allocator heap (CudaDevice.cpp), so
  # a kernel that reaches outside its task's data, into a guard zone or free
  # pool memory, is reported. SANITIZE_FILTER narrows the cases.
  echo "== GPU tests under compute-sanitizer --tool memcheck --nvtx=yes, CSS_DEVICE_GUARD=64K"
  filter="${SANITIZE_FILTER:-*/1gpu_*:GpuPolicies.*:GpuRenaming.*:GpuEarlyRelease.*}"
  for p in 1 2; do
    CSS_GPU_PARTITIONS=$p CSS_DEVICE_GUARD=64K compute-sanitizer --tool memcheck --nvtx=yes --error-exitcode=99 \
      "$build/bin/gpuss_gpu_tests" --gtest_filter="${filter//1gpu/${p}gpu}" 2>&1 |
      tee "$out/sanitize-p$p.log" | grep -E "ERROR SUMMARY|Invalid|PASSED|FAILED|SKIPPED \]" | sed -n 1,20p
  done
  echo "== the control: a kernel writing past its replica must be reported"
  CSS_DEVICE_GUARD=64K compute-sanitizer --tool memcheck --nvtx=yes "$build/bin/gpuss_gpu_tests" \
    --gtest_also_run_disabled_tests --gtest_filter=GpuGuard.* 2>&1 | tee "$out/sanitize-control.log" |
    grep -E "ERROR SUMMARY|Invalid __global__" | sort | uniq -c | sed -n 1,5p
fi
if [[ $what == ab ]]; then
  # The issue-5 target sizes, with each of the 2026-11-23 changes switched off
  # in turn and the example's panel variants (defaults first), and a trace of
  # the default on every GPU.
  echo "== A/B: trsm split and inverse, compute streams, early write-back, fan-out first, locality waiting, critical path, prefetch depth"
  ab() { # label gpus n [env...] -- [cholesky options...]
    local label=$1 g=$2 n=$3; shift 3
    local envs=(); while [[ $# -gt 0 && $1 != -- ]]; do envs+=("$1"); shift; done; shift || true
    local line
    line=$(env CSS_NUM_GPUS="$g" CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -n "$n" -t 2048 -p d --gpu-potrf "$@" 2>&1 |
      grep -E "^cholesky|css-stats" | tr '\n' ' ')
    echo "$label g=$g n=$n | $line" | tee -a "$out/ab.log" | grep -oE "^[^|]*|seconds=[0-9.]+|gflops=[0-9.]+|bytes_h2d=[0-9]+|bytes_p2p=[0-9]+|loads_ahead=[0-9]+" | tr '\n' ' '
    echo
  }
  # Each variant: a name, then its environment, then -- and its options.
  variants=(
    "trsm-leaf-512 -- --trsm-leaf 512"
    "trsm-leaf-256 -- --trsm-leaf 256"
    "inverse-trsm -- --inverse-trsm"
    "streams-1 CSS_GPU_STREAMS=1"
    "streams-2 CSS_GPU_STREAMS=2"
    "fan-out-off CSS_FAN_OUT_FIRST=0"
    "early-write-back-off CSS_EARLY_WRITE_BACK=0"
    "critical-path-off CSS_CRITICAL_PATH=0"
    "prefetch-2 CSS_PREFETCH_DEPTH=2"
    "before CSS_EARLY_WRITE_BACK=0 CSS_FAN_OUT_FIRST=0 CSS_SCHEDULER=locality-nowait CSS_CRITICAL_PATH=0 CSS_PREFETCH_DEPTH=2 CSS_GPU_STREAMS=1"
    "locality-nowait CSS_SCHEDULER=locality-nowait"
    "load-ahead-off CSS_LOAD_AHEAD=0"
    "inverse-load-ahead-off CSS_LOAD_AHEAD=0 -- --inverse-trsm"
  )
  # `ab NAME...` runs only the default and the variants named.
  if [[ $# -gt 0 ]]; then
    wanted=" $* "; kept=()
    for v in "${variants[@]}"; do [[ $wanted == *" ${v%% *} "* ]] && kept+=("$v"); done
    variants=("${kept[@]}")
  fi
  runs=("1 49152"); [[ $gpus -ge 2 ]] && runs+=("$gpus 65536") # the two targets
  # AB_SIZES="1 49152,1 65536" replaces them: GPU count and order, comma-separated.
  [[ ${AB_SIZES:-} ]] && IFS=, read -ra runs <<<"$AB_SIZES"
  for run in "${runs[@]}"; do
    read -r g n <<<"$run"
    {
      for rep in 1 2; do
        ab default "$g" "$n"
        for v in "${variants[@]}"; do
          read -ra words <<<"$v"
          ab "${words[0]}" "$g" "$n" "${words[@]:1}"
        done
      done
      ab trace "$g" "$n" CSS_TRACE="$out/trace-g$g-n$n.json"
    }
  done
  "$build/bin/vendor_cholesky" --mode dn -n 49152 2>&1 | grep "^vendor=" | tee -a "$out/ab.log" || true
  [[ $gpus -ge 2 ]] && { "$build/bin/vendor_cholesky" --mode mg -n 65536 --gpus "$gpus" 2>&1 | grep "^vendor=" | tee -a "$out/ab.log" || true; }
fi
if [[ $what == gemm ]]; then
  # C += A B from host memory (examples/gemm): every policy, a cache smaller than the data (three 2 GiB
  # matrices through 1 GiB), single precision, the second run, and 2 and 4 partitions of GPU 0 (correctness
  # only: they share one GPU).
  echo "== GEMM: checks"
  [[ ${SKIP_CHECKS:-0} == 1 ]] && echo "(skipped: SKIP_CHECKS=1)"
  gemm_check() { # environment... -- options...
    [[ ${SKIP_CHECKS:-0} == 1 ]] && return
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    # A failed check is reported and the rest still runs.
    env CSS_STATS=1 "${envs[@]}" "$build/bin/gemm" --check "$@" 2>&1 | tee -a "$out/gemm-checks.log" |
      grep -E "^gemm|css-stats" | cut -c1-250 || echo "  FAILED: gemm --check $* (see gemm-checks.log)"
  }
  for policy in nocache wt wb; do gemm_check CSS_NUM_GPUS=1 CSS_CACHE_POLICY=$policy -- -n 16384 -t 2048 -p d; done
  gemm_check CSS_NUM_GPUS=1 CSS_GPU_MEMORY=1G -- -n 16384 -t 2048 -p d
  gemm_check CSS_NUM_GPUS=1 -- -n 16384 -t 2048 -p s
  gemm_check CSS_NUM_GPUS=1 -- -n 16384 -t 2048 -p d --prelocked
  for p in 2 4; do
    for policy in nocache wt wb; do
      gemm_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_CACHE_POLICY=$policy -- -n 8192 -t 1024 -p d
    done
    gemm_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_GPU_MEMORY=128M -- -n 8192 -t 1024 -p s
  done
  echo "== GEMM: benchmark"
  "$root/bench/gemm/run.sh" "$build" "$out/bench-gemm" "$@" 2>&1 | tail -40
  python3 "$root/bench/gemm/plot.py" "$out/bench-gemm/results.csv" 2>&1 | tail -30 || true
fi
if [[ $what == potri ]]; then
  # The SPD inverse (examples/potri): every policy with the diagonal tiles on the GPU and on the host, a
  # cache smaller than the data, barriers between the phases, single precision, the second run, and 2 and 4
  # partitions of GPU 0 (correctness only).
  echo "== SPD inverse: checks"
  [[ ${SKIP_CHECKS:-0} == 1 ]] && echo "(skipped: SKIP_CHECKS=1)"
  potri_check() { # environment... -- options...
    [[ ${SKIP_CHECKS:-0} == 1 ]] && return
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    # A failed check is reported and the rest still runs.
    env CSS_STATS=1 "${envs[@]}" "$build/bin/potri" --check "$@" 2>&1 | tee -a "$out/potri-checks.log" |
      grep -E "^potri|css-stats" | cut -c1-250 || echo "  FAILED: potri --check $* (see potri-checks.log)"
  }
  for policy in nocache wt wb; do
    potri_check CSS_NUM_GPUS=1 CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-diag
    potri_check CSS_NUM_GPUS=1 CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d
  done
  potri_check CSS_NUM_GPUS=1 CSS_GPU_MEMORY=256M -- -n 16384 -t 1024 -p d --gpu-diag
  potri_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-diag --barriers
  potri_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p s --gpu-diag
  potri_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-diag --prelocked
  for p in 2 4; do
    for policy in nocache wt wb; do
      potri_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-diag
    done
    potri_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_GPU_MEMORY=128M -- -n 8192 -t 512 -p s --gpu-diag
  done
  echo "== SPD inverse: benchmark"
  "$root/bench/potri/run.sh" "$build" "$out/bench-potri" "$@" 2>&1 | tail -40
  python3 "$root/bench/potri/plot.py" "$out/bench-potri/results.csv" 2>&1 | tail -30 || true
fi
if [[ $what == lu ]]; then
  # LU with partial pivoting (examples/lu): every policy with the panels on the GPU, the panels on the host,
  # the swaps per lower tile and per block column, a cache smaller than the data (a tile's device copy spans
  # its 1024 columns of the matrix, 128 MiB here: docs/lu.md; with the tile swaps, as a group of swaps needs
  # nine such copies at once; and 2 GiB with the groups), single precision, a leading dimension that is not n,
  # the second run, and 2 and 4 partitions of GPU 0 under each policy and with 128 MiB caches (tile swaps;
  # correctness only).
  echo "== LU: checks"
  [[ ${SKIP_CHECKS:-0} == 1 ]] && echo "(skipped: SKIP_CHECKS=1)"
  lu_check() { # environment... -- options...
    [[ ${SKIP_CHECKS:-0} == 1 ]] && return
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    # A failed check is reported and the rest still runs.
    env CSS_STATS=1 "${envs[@]}" "$build/bin/lu" --check "$@" 2>&1 | tee -a "$out/lu-checks.log" |
      grep -E "^lu|^check|css-stats" | cut -c1-250 || echo "  FAILED: lu --check $* (see lu-checks.log)"
  }
  for policy in nocache wt wb; do
    lu_check CSS_NUM_GPUS=1 CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-panel
  done
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --swaps columns
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --swaps tiles
  lu_check CSS_NUM_GPUS=1 CSS_GPU_MEMORY=1G -- -n 16384 -t 1024 -p d --gpu-panel --swaps tiles
  lu_check CSS_NUM_GPUS=1 CSS_GPU_MEMORY=2G -- -n 16384 -t 1024 -p d --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p s --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --lda 16411
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --prelocked
  lu_check CSS_NUM_GPUS=1 -- -n 2048 -t 256 -p d --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 2048 -t 256 -p s --gpu-panel --swaps columns
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --left-swaps end
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --order right
  lu_check CSS_NUM_GPUS=1 CSS_PROGRAM_ORDER=1 -- -n 16384 -t 1024 -p d --gpu-panel --order staggered
  lu_check CSS_NUM_GPUS=1 -- -n 24576 -t 3072 -p d --gpu-panel # the benchmark's tile
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --inverse-trsm
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p s --inverse-trsm --left-swaps end
  for p in 2 4; do
    for policy in nocache wt wb; do
      lu_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-panel
    done
    lu_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_GPU_MEMORY=128M -- -n 8192 -t 512 -p s --gpu-panel --swaps tiles
    lu_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p -- -n 8192 -t 512 -p d --swaps columns
  done
  echo "== LU: benchmark"
  "$root/bench/lu/run.sh" "$build" "$out/bench-lu" "$@" 2>&1 | tail -40
  python3 "$root/bench/lu/plot.py" "$out/bench-lu/results.csv" 2>&1 | tail -30 || true
fi
if [[ $what == mpi ]]; then
  # GPUSs over MPI (docs/mpi.md) on this node: two ranks share GPU 0, each seeing it as two partitions
  # (CSS_GPU_PARTITIONS=2) with 16 GiB each; the Cholesky example with its check on rank 0, every policy,
  # the panel by inverse, single precision. Correctness only: the ranks share one GPU. Then the host-side
  # MPI tests (ctest -L mpi).
  echo "== MPI: two ranks on GPU 0"
  grep -q "MPI support ON" "$out/cmake.log" || { echo "libgpuss was built without MPI (install Open MPI's development files)"; exit 1; }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  mpi_check() { # environment... -- options...
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    mpiexec -n 2 env CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=2 CSS_GPU_MEMORY=16G CSS_STATS=1 "${envs[@]}" \
      "$build/bin/cholesky" --mpi --check "$@" 2>&1 | tee -a "$out/mpi-checks.log" |
      grep -E "^cholesky|css-mpi" | cut -c1-250 || echo "  FAILED: cholesky --mpi --check $* (see mpi-checks.log)"
  }
  for policy in nocache wt wb; do mpi_check CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-potrf; done
  mpi_check CSS_GPU_MEMORY=256M -- -n 16384 -t 1024 -p d
  mpi_check -- -n 16384 -t 1024 -p d --inverse-trsm
  mpi_check -- -n 8192 -t 1024 -p s --gpu-potrf
  mpiexec -n 2 env CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=2 CSS_GPU_MEMORY=16G CSS_TRACE="$out/mpi-trace.json" \
    "$build/bin/cholesky" --mpi -n 16384 -t 1024 -p d | grep -E "^cholesky"
  python3 "$root/scripts/mpi-trace-merge.py" "$out/mpi-trace.json" | tail -3
  (cd "$build" && ctest -L mpi -R "${MPI_TESTS:-.}" --output-on-failure 2>&1 | tee "$out/ctest-mpi.log" | tail -8)
fi
# One Cholesky run of the first-run modes: a label, its environment, -- and its options; the summary line and
# what locking and staging cost.
fr() {
  local label=$1; shift
  local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
  env CSS_NUM_GPUS="${FIRSTRUN_GPUS:-1}" CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -t 2048 --gpu-potrf --inverse-trsm "$@" 2>&1 |
    tee -a "$out/$what.log" | grep -E "^cholesky|^page-lock|css-stats" |
    sed -E 's/.*(pinned_bytes=[0-9]+).*(pin_s=[0-9.]+).*(staging_threads=[0-9]+).*(staged_bytes=[0-9]+).*(stage_s=[0-9.]+).*(staging_alloc_s=[0-9.]+).*/   \1 \2 \3 \4 \5 \6/' |
    sed "s/^/$label /"
}
if [[ $what == staging ]]; then
  # Issue 19: copies of memory not locked yet through staging buffers (CSS_STAGING_THREADS=8, 16) against
  # locking it as the worker copies it (CSS_STAGING_THREADS=0) and the default (auto), alternating, fresh processes, with
  # cusolverDn (matrix on the GPU) in the same call. STAGING_SIZES (default 49152), STAGING_ROUNDS (2),
  # STAGING_THREADS (the staged variants, default "8 16"), FIRSTRUN_GPUS (1), STAGING_EXTRAS=0 (no single
  # precision run, no trace), STAGING_LU=0 (no LU first runs, locked as copied against staged, at LU_N).
  echo "== staged first runs: Cholesky, double, tile 2048, --gpu-potrf --inverse-trsm"
  for n in ${STAGING_SIZES:-49152}; do
    "$build/bin/vendor_cholesky" --mode dn -n "$n" | tee -a "$out/staging.log"
    for round in $(seq 1 "${STAGING_ROUNDS:-2}"); do
      fr "lock-as-copied r$round" CSS_STAGING_THREADS=0 -- -n "$n" -p d
      fr "auto r$round" -- -n "$n" -p d
      for threads in ${STAGING_THREADS-8 16}; do
        fr "staged-$threads r$round" CSS_STAGING_THREADS="$threads" -- -n "$n" -p d
      done
    done
    fr prelocked -- -n "$n" -p d --prelocked
  done
  if [[ ${STAGING_LU:-1} == 1 ]]; then
    # LU's strided tiles are locked before their first copy (a pageable copy would take one call a row);
    # staging packs their rows on the copy threads instead. Not measured before 2026-11-28 (third session).
    echo "== staged first runs: LU n=${LU_N:-49152}, --gpu-panel"
    "$build/bin/vendor_lu" --mode dn -n "${LU_N:-49152}" 2>&1 | grep -E "^vendor" | tee -a "$out/staging.log"
    for round in $(seq 1 "${STAGING_ROUNDS:-2}"); do
      for threads in 0 ${STAGING_THREADS-8 16}; do
        CSS_NUM_GPUS=1 CSS_STATS=1 CSS_STAGING_THREADS=$threads "$build/bin/lu" -n "${LU_N:-49152}" -t 2048 -p d \
          --gpu-panel 2>&1 | tee -a "$out/staging.log" |
          grep -oE "^lu .*memory=[a-z-]+|seconds=[0-9.]+|gflops=[0-9.]+|staged_bytes=[0-9]+|pinned_bytes=[0-9]+" |
          tr '\n' ' ' | sed "s/^/lu staging-threads=$threads r$round /"; echo
      done
    done
  fi
  if [[ ${STAGING_EXTRAS:-1} == 1 ]]; then
    fr staged-single CSS_STAGING_THREADS=16 -- -n 49152 -p s
    fr staged-trace CSS_STAGING_THREADS=16 CSS_TRACE="$out/trace-staged-49152.json" -- -n 49152 -p d
    python3 "$root/scripts/trace-summary.py" "$out/trace-staged-49152.json" --window 50 2>&1 | tee "$out/trace-staged.txt" |
      sed -n 1,30p
  fi
fi
if [[ $what == lanes ]]; then
  # What 2026-11-28 (second session) left for a GPU: CSS_GPU_PRIORITY_LANE (opt-in, never run on a GPU).
  # Its GPU test, then A/B in alternating rounds, one process a run, memory locked before the clock:
  # Cholesky n = 49152 and LU n = 49152 on one GPU, Cholesky n = 65536 on every GPU; LU's check with the lane.
  echo "== the priority lane's GPU test"
  "$build/bin/gpuss_gpu_tests" --gtest_filter='GpuPriorityLane*' 2>&1 | tee "$out/lanes-tests.log" |
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |error" | sed -n 1,10p
  lane_run() { # label lane program gpus options...
    local label=$1 lane=$2 prog=$3 g=$4; shift 4
    CSS_NUM_GPUS=$g CSS_STATS=1 CSS_GPU_PRIORITY_LANE=$lane "$build/bin/$prog" "$@" 2>&1 | tee -a "$out/lanes.log" |
      grep -oE "^$prog .*|priority_lane_tasks=[0-9]+" | tr '\n' ' ' | sed "s/^/$label lane=$lane /"; echo
  }
  lane_run lu-check 1 lu 1 -n 16384 -t 1024 -p d --gpu-panel --check
  for round in 1 2; do
    for lane in 0 1; do
      lane_run "cholesky r$round" $lane cholesky 1 -n 49152 -t 2048 -p d --gpu-potrf --inverse-trsm --prelocked
      lane_run "lu r$round" $lane lu 1 -n 49152 -t 2048 -p d --gpu-panel --prelocked
      if ((gpus > 1)); then
        lane_run "cholesky-all r$round" $lane cholesky "$gpus" -n 65536 -t 2048 -p d --gpu-potrf --inverse-trsm --prelocked
      fi
    done
  done
fi
if [[ $what == pageable ]]; then
  # Issues 19 and 21, left for a GPU on 2026-11-28: (1) the GPU cases that copy memory not locked yet as it
  # is (CSS_UNLOCKED_COPIES=pageable; their first version failed on two H100s where blocks share pages),
  # on real GPUs and on partitions; (2) first runs on every GPU, lock against auto (pageable from two
  # GPUs), alternating; (3) LU, whose strided tiles are now copied by runs of rows per lock
  # (PageLocks::row_pieces): first run and pre-locked at LU_N (default 49152), cusolverDn getrf in the
  # same call, and a trace summary of the copy engines.
  echo "== the Pageable GPU cases"
  "$build/bin/gpuss_gpu_tests" --gtest_filter='Pageable/*' 2>&1 | tee "$out/pageable-tests.log" |
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |error" | sed -n 1,20p
  for p in 2 4; do
    CSS_GPU_PARTITIONS=$p "$build/bin/gpuss_gpu_tests" --gtest_filter="Pageable/*${p}gpu*" 2>&1 |
      tee -a "$out/pageable-tests.log" | grep -E "^\[  (PASSED|FAILED) |error" | sed "s/^/partitions=$p /"
  done
  echo "== first runs on $gpus GPUs: lock against auto"
  for round in 1 2; do
    for mode in lock auto; do
      FIRSTRUN_GPUS=$gpus fr "$mode r$round" CSS_UNLOCKED_COPIES=$mode -- -n "${PAGEABLE_N:-65536}" -p d
    done
  done
  FIRSTRUN_GPUS=$gpus fr "auto prelocked" CSS_UNLOCKED_COPIES=auto -- -n "${PAGEABLE_N:-65536}" -p d --prelocked
  echo "== LU, strided copies by runs"
  lun=${LU_N:-49152}
  "$build/bin/vendor_lu" --mode dn -n "$lun" 2>&1 | grep -E "^vendor" | tee -a "$out/pageable.log"
  for memory in "" --prelocked; do
    CSS_NUM_GPUS=1 CSS_STATS=1 "$build/bin/lu" -n "$lun" -t 2048 -p d --gpu-panel $memory 2>&1 | tee -a "$out/pageable.log" |
      grep -oE "^lu .*|bytes_h2d=[0-9]+|bytes_d2h=[0-9]+|pin_s=[0-9.]+"  | tr '\n' ' '; echo
  done
  CSS_NUM_GPUS=1 CSS_TRACE="$out/trace-lu.json" "$build/bin/lu" -n "$lun" -t 2048 -p d --gpu-panel --prelocked |
    grep -E "^lu "
  python3 "$root/scripts/trace-summary.py" "$out/trace-lu.json" --window 1000 2>&1 | tee "$out/trace-lu.txt" | sed -n 1,30p
  rm -f "$out/trace-lu.json"
fi
if [[ $what == firstrun ]]; then
  # Issue 19: what a user's first run gets. Each GPUSs run is a fresh process that writes the matrix with
  # plain loops and factors it once, so the runtime page-locks it inside the timed run (memory=first-run);
  # --prelocked times a second factorization; CSS_PIN_THREADS=2 turns the pinning service on (the default
  # before 2026-11-27; with 0, each GPU worker locks as it copies). cusolverDn with the matrix already on the
  # GPU in the same call. FIRSTRUN_SIZES picks the sizes (default "49152 65536"), FIRSTRUN_GPUS the GPUs (1).
  echo "== first runs: Cholesky, double, tile 2048, --gpu-potrf --inverse-trsm"
  for n in ${FIRSTRUN_SIZES:-49152 65536}; do
    "$build/bin/vendor_cholesky" --mode dn -n "$n" | tee -a "$out/firstrun.log"
    fr first-run -- -n "$n" -p d
    fr first-run -- -n "$n" -p d
    fr pin-threads-2 CSS_PIN_THREADS=2 -- -n "$n" -p d
    fr prelocked -- -n "$n" -p d --prelocked
  done
  "$build/bin/vendor_cholesky" --mode dn -n 49152 --prec s | tee -a "$out/firstrun.log"
  fr first-run-single -- -n 49152 -p s
  fr first-run-trace CSS_TRACE="$out/trace-firstrun-49152.json" -- -n 49152 -p d
  python3 "$root/scripts/trace-summary.py" "$out/trace-firstrun-49152.json" --window 50 2>&1 | sed -n 1,40p
fi
if [[ $what == outofcore ]]; then
  # Issue 20: data larger than the cache, memory page-locked before the clock (--prelocked) so that only
  # out-of-core is measured; in core in the same call. CSS_EVICTION (lru, next-use). OOC_GPUS (1) GPUs;
  # OOC_SMALL=0 skips n = 65536 (in core and through 12G), OOC_LARGE=0 skips n = 131072 through 24G;
  # OOC_EVICTIONS and OOC_LARGE_EVICTIONS pick the policies.
  echo "== out of core: Cholesky, double, tile 2048, --gpu-potrf --inverse-trsm --prelocked"
  ooc() { # label env... -- options...
    local label=$1; shift
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env CSS_NUM_GPUS="${OOC_GPUS:-1}" CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -t 2048 -p d --gpu-potrf --inverse-trsm --prelocked "$@" 2>&1 |
      tee -a "$out/outofcore.log" | grep -E "^cholesky|css-stats" |
      grep -oE "^cholesky.*|seconds=[0-9.]+|gflops=[0-9.]+|bytes_h2d=[0-9]+|bytes_d2h=[0-9]+|evictions[a-z_]*=[0-9]+|h2d_per_data=[0-9.]+" |
      tr '\n' ' ' | sed "s/^/$label /"; echo
  }
  if [[ ${OOC_SMALL:-1} == 1 ]]; then
    ooc in-core -- -n 65536
    for eviction in ${OOC_EVICTIONS:-lru next-use}; do
      ooc "12G-$eviction" CSS_GPU_MEMORY=12G CSS_EVICTION=$eviction -- -n 65536
    done
  fi
  if [[ ${OOC_LARGE:-1} == 1 ]]; then
    for eviction in ${OOC_LARGE_EVICTIONS:-${OOC_EVICTIONS:-lru next-use}}; do
      ooc "24G-$eviction" CSS_GPU_MEMORY=24G CSS_EVICTION=$eviction -- -n 131072
    done
  fi
fi
if [[ $what == ab18 ]]; then
  # Issue 18: the restructured runtime (AB18_NEW, the commit that finished it) against the commit before it
  # (AB18_OLD), each a source tree with its own .pretranslated, built side by side; task_overhead and the
  # one-GPU Cholesky alternate between the two builds, three rounds. Both examples initialise by tasks.
  declare -A tree=([old]="${AB18_OLD:?AB18_OLD names the old tree}" [new]="${AB18_NEW:?AB18_NEW names the new tree}")
  for side in old new; do
    cmake -S "${tree[$side]}" -B "/tmp/gpuss-ab18-$side" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSS_WITH_TRANSLATOR=OFF \
      -DGPUSS_PRETRANSLATED_DIR="${tree[$side]}/.pretranslated" -DGPUSS_NVCC_FLAGS=-arch=sm_90 "${gtest[@]}" \
      >"$out/cmake-ab18-$side.log" 2>&1 || { tail -20 "$out/cmake-ab18-$side.log"; exit 1; }
    cmake --build "/tmp/gpuss-ab18-$side" --target cholesky task_overhead >"$out/build-ab18-$side.log" 2>&1 ||
      { tail -20 "$out/build-ab18-$side.log"; exit 1; }
  done
  echo "== A/B (issue 18): old = $(cat "${tree[old]}/.commit" 2>/dev/null), new = $(cat "${tree[new]}/.commit" 2>/dev/null)"
  for round in 1 2 3; do
    for side in old new; do
      b=/tmp/gpuss-ab18-$side
      line=$(CSS_NUM_GPUS=1 CSS_STATS=1 "$b/bin/cholesky" -n 49152 -t 2048 -p d --gpu-potrf --inverse-trsm 2>&1 | grep -E "^cholesky")
      echo "$side round=$round $line" | tee -a "$out/ab18.log" | grep -oE "^[a-z]+ round=[0-9]|n=[0-9]+|seconds=[0-9.]+|gflops=[0-9.]+" | tr '\n' ' '; echo
      "$b/bin/task_overhead" --cpus 2 2>&1 | tail -4 | sed "s/^/$side round=$round /" | tee -a "$out/ab18.log"
    done
  done
fi
if [[ $what == multi ]]; then
  # Issue 23: Cholesky, double, tile 2048, transfers included, on 1, 2 and 4 GPUs (as many as the node has),
  # first run (one process writes the matrix with plain loops and factors it once: the runtime page-locks it
  # inside the timed run) and pre-locked (a second factorization is timed); cusolverMg on every GPU and
  # cusolverDn on one in the same call; single precision on every GPU; a trace of each run on every GPU,
  # summarised (busy share per GPU and copy engine, bytes moved, idle gaps). MULTI_N (default 65536).
  n=${MULTI_N:-65536}
  echo "== multi-GPU Cholesky n=$n, tile 2048, --gpu-potrf --inverse-trsm"
  mg() { # label gpus env... -- options...
    local label=$1 g=$2; shift 2
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env CSS_NUM_GPUS="$g" CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -n "$n" -t 2048 --gpu-potrf --inverse-trsm "$@" 2>&1 |
      tee -a "$out/multi.log" | grep -E "^cholesky|^page-lock|css-stats" |
      grep -oE "^cholesky|^page-lock.*|gpus=[0-9]+|prec=[sd]|memory=[a-z-]+|seconds=[0-9.]+|gflops=[0-9.]+|bytes_h2d=[0-9]+|bytes_p2p=[0-9]+|pinned_bytes=[0-9]+|pin_s=[0-9.]+" |
      tr '\n' ' ' | sed "s/^/$label g=$g /"; echo
  }
  counts=(1); ((gpus >= 2)) && counts+=(2); ((gpus >= 4)) && counts+=(4)
  steps=" ${MULTI_STEPS:-vendors runs traces single pinning} " # which parts run
  if [[ $steps == *" vendors "* ]]; then
    "$build/bin/vendor_cholesky" --mode dn -n "$n" | tee -a "$out/multi.log"
    ((gpus >= 2)) && "$build/bin/vendor_cholesky" --mode mg -n "$n" --gpus "$gpus" | tee -a "$out/multi.log"
  fi
  if [[ $steps == *" runs "* ]]; then
    for g in "${counts[@]}"; do
      mg first-run "$g" -- -p d
      mg prelocked "$g" -- -p d --prelocked
    done
    mg first-run "$gpus" -- -p d
  fi
  if [[ $steps == *" traces "* ]]; then
    mg first-run-trace "$gpus" CSS_TRACE="$out/trace-multi-first-run.json" -- -p d
    python3 "$root/scripts/trace-summary.py" "$out/trace-multi-first-run.json" --window 100 2>&1 | tee "$out/trace-multi-first-run.txt" | sed -n 1,60p
    mg prelocked-trace "$gpus" CSS_TRACE="$out/trace-multi-prelocked.json" -- -p d --prelocked
    python3 "$root/scripts/trace-summary.py" "$out/trace-multi-prelocked.json" --gaps 2 2>&1 | tee "$out/trace-multi-prelocked.txt" | sed -n 1,40p
  fi
  if [[ $steps == *" single "* ]]; then
    "$build/bin/vendor_cholesky" --mode dn -n "$n" --prec s | tee -a "$out/multi.log"
    mg first-run-single "$gpus" -- -p s
    mg prelocked-single "$gpus" -- -p s --prelocked
    mg first-run-single-trace "$gpus" CSS_TRACE="$out/trace-multi-single.json" -- -p s
    python3 "$root/scripts/trace-summary.py" "$out/trace-multi-single.json" --window 100 2>&1 | tee "$out/trace-multi-single.txt" | sed -n 1,30p
  fi
  if [[ $steps == *" pinning "* ]]; then
    # How a first run reaches the GPUs: copies from pageable memory with no locking at all (CSS_PIN_HOST=0),
    # and the pinning service (CSS_PIN_THREADS), against each worker locking as it copies (the default).
    for g in 1 "$gpus"; do mg first-run-pageable "$g" CSS_PIN_HOST=0 -- -p d; done
    mg first-run-pin-threads-2 "$gpus" CSS_PIN_THREADS=2 -- -p d
    mg first-run-pin-threads-4 "$gpus" CSS_PIN_THREADS=4 -- -p d
  fi
  rm -f "$out"/trace-multi-*.json # the summaries stay; the traces are too big to bring back
fi
if [[ $what == multi2 ]]; then
  # Issue 23, second part: the other tiled examples on every GPU of the node against the multi-GPU vendors
  # (cublasXt for GEMM, cusolverMg for the inverse and LU), first runs, double, tile 2048; then out of core on
  # every GPU (n = 131072, 12 GiB a GPU, memory pre-locked) with a trace summary. EX_N (default 49152) and
  # LU_N (default 32768) size them; EXAMPLES=0 skips them, OOC=0 skips out of core; OOC_N (default 131072)
  # and OOC_VARIANTS (label:VAR=value:..., one word per run) shape out of core.
  exn=${EX_N:-49152}; lun=${LU_N:-32768}
  ex() { # label program gpus env... -- options...
    local label=$1 prog=$2 g=$3; shift 3
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env CSS_NUM_GPUS="$g" CSS_STATS=1 "${envs[@]}" "$build/bin/$prog" "$@" 2>&1 | tee -a "$out/multi2.log" |
      grep -E "^$prog|css-stats|error|FAIL" |
      grep -oE "^$prog|memory=[a-z-]+|seconds=[0-9.]+|gflops=[0-9.]+|check=[A-Za-z]+|bytes_h2d=[0-9]+|bytes_p2p=[0-9]+|h2d_per_data=[0-9.]+|evictions[a-z_]*=[0-9]+|gpu[0-9]+_(busy_s|tasks|bytes_in|bytes_out|bytes_peer|evictions)=[0-9.]+|.*(error|FAIL).*" |
      tr '\n' ' ' | sed "s/^/$label g=$g /"; echo
  }
  if [[ ${EXAMPLES:-1} == 1 ]]; then
  # Issue 23 asks for a trace of each 4-GPU run: the first run of each example is traced and summarised
  # (busy share per GPU, bytes between GPUs, idle gaps); EX_TRACE=0 leaves the traces out.
  extrace() { # label: summarise and drop $out/trace-ex.json
    [[ ${EX_TRACE:-1} == 1 && -f "$out/trace-ex.json" ]] || return 0
    python3 "$root/scripts/trace-summary.py" "$out/trace-ex.json" --gaps 2 2>&1 | tee "$out/trace-$1.txt" | sed -n 1,30p
    rm -f "$out/trace-ex.json"
  }
  trace_env=(); [[ ${EX_TRACE:-1} == 1 ]] && trace_env=(CSS_TRACE="$out/trace-ex.json")
  echo "== GEMM n=$exn on $gpus GPUs"
  ex gemm-first-run gemm "$gpus" "${trace_env[@]}" -- -n "$exn" -t 2048 -p d
  extrace gemm
  ex gemm-prelocked gemm "$gpus" -- -n "$exn" -t 2048 -p d --prelocked
  # cublasXt's own tile (--block) as bench/gemm/run.sh sets it: 8192 (its default, 1024, is far slower).
  for mode in xt xt-pinned; do
    "$build/bin/vendor_gemm" --mode $mode -n "$exn" --gpus "$gpus" --reps 1 --block "${XT_BLOCK:-8192}" 2>&1 |
      grep -E "^vendor" | tee -a "$out/multi2.log"
  done
  echo "== SPD inverse n=$exn on $gpus GPUs"
  ex potri-first-run potri "$gpus" "${trace_env[@]}" -- -n "$exn" -t 2048 -p d --gpu-diag
  extrace potri
  ex potri-prelocked potri "$gpus" -- -n "$exn" -t 2048 -p d --gpu-diag --prelocked
  "$build/bin/vendor_potri" --mode mg -n "$exn" --gpus "$gpus" 2>&1 | grep -E "^vendor" | tee -a "$out/multi2.log"
  echo "== LU n=$lun on $gpus GPUs"
  ex lu-first-run lu "$gpus" "${trace_env[@]}" -- -n "$lun" -t 2048 -p d --gpu-panel
  extrace lu
  ex lu-1gpu lu 1 -- -n "$lun" -t 2048 -p d --gpu-panel
  for b in 1024 512 256; do
    "$build/bin/vendor_lu" --mode mg -n "$lun" --gpus "$gpus" --block $b 2>&1 | tee -a "$out/multi2.log" | grep -E "^vendor" && break
  done
  fi
  if [[ ${OOC:-1} == 1 ]]; then
    echo "== out of core: Cholesky n=131072 on $gpus GPUs, CSS_GPU_MEMORY=12G each, --prelocked"
    # OOC_VARIANTS: a label and its environment per word, label:VAR=value:VAR=value (the default first).
    for variant in ${OOC_VARIANTS:-next-use:CSS_EVICTION=next-use}; do
      IFS=: read -ra parts <<<"$variant"
      ex "ooc-${parts[0]}" cholesky "$gpus" CSS_GPU_MEMORY=12G "${parts[@]:1}" CSS_TRACE="$out/trace-ooc.json" -- \
        -n "${OOC_N:-131072}" -t 2048 -p d --gpu-potrf --inverse-trsm --prelocked
      python3 "$root/scripts/trace-summary.py" "$out/trace-ooc.json" --gaps 2 --window 1000 2>&1 | tee "$out/trace-ooc-${parts[0]}.txt" | sed -n 1,40p
      rm -f "$out/trace-ooc.json"
    done
  fi
fi
if [[ $what == bench || $what == all ]]; then
  echo "== benchmark"
  "$root/bench/cholesky/run.sh" "$build" "$out/bench" "$@" 2>&1 | tail -40
  python3 "$root/bench/cholesky/plot.py" "$out/bench/results.csv" 2>&1 | tail -3 || true
fi
