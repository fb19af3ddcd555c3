#!/usr/bin/env bash
# scripts/gpu-node.sh [checks|tests|sanitize|bench|ab|gemm|potri|lu|mpi|all] [bench options | ab variants...]:
# build and run GPUSs on a GPU node that has CUDA, cmake and ninja but no Clang libraries. gemm, potri and lu
# run the checks of examples/gemm, examples/potri or examples/lu on the GPUs, then bench/gemm/run.sh,
# bench/potri/run.sh or bench/lu/run.sh with the options given (--budget, --sizes, ...); SKIP_CHECKS=1 runs the
# benchmark alone.
#
# Translate where Clang is first:
#   cmake --build build --target gpuss-pretranslated && rm -rf .pretranslated && cp -r build/pretranslated .pretranslated
# and bring .pretranslated/ (and, where GoogleTest is not installed, a copy of
# /usr/src/googletest in .device/googletest) to the node. Results go to
# $OUT (or ./gpu-node-out): everything in results.tgz, plus the benchmark's
# CSV and plots beside it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what="${1:-all}"
shift || true
final="${OUT:-$root/gpu-node-out}"
out="$(mktemp -d)"
mkdir -p "$final"
pack() {
  tar czf "$final/results-$what.tgz" -C "$out" .
  cp "$out"/bench/results.csv "$out"/bench/*.png "$final/" 2>/dev/null || true
  for b in gemm potri lu; do
    [[ -f "$out/bench-$b/results.csv" ]] && cp "$out/bench-$b/results.csv" "$final/$b-results.csv"
    cp "$out/bench-$b"/*.png "$final/" 2>/dev/null || true
  done
}
trap pack EXIT
build="${GPUSS_NODE_BUILD:-/tmp/gpuss-node-build}"
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH

gtest=()
[[ -d "$root/.device/googletest" ]] && gtest=(-DGPUSS_GTEST_SOURCE_DIR="$root/.device/googletest")
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSS_WITH_TRANSLATOR=OFF \
  -DGPUSS_PRETRANSLATED_DIR="$root/.pretranslated" -DGPUSS_NVCC_FLAGS=-arch=sm_90 "${gtest[@]}" >"$out/cmake.log" 2>&1 ||
  { tail -40 "$out/cmake.log"; exit 1; }
cmake --build "$build" >"$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -40; exit 1; }
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
      tee "$out/sanitize-p$p.log" | grep -E "ERROR SUMMARY|Invalid|PASSED|FAILED|SKIPPED \]" | head -20
  done
  echo "== the control: a kernel writing past its replica must be reported"
  CSS_DEVICE_GUARD=64K compute-sanitizer --tool memcheck --nvtx=yes "$build/bin/gpuss_gpu_tests" \
    --gtest_also_run_disabled_tests --gtest_filter=GpuGuard.* 2>&1 | tee "$out/sanitize-control.log" |
    grep -E "ERROR SUMMARY|Invalid __global__" | sort | uniq -c | head -5
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
  # the swaps per block column, a cache smaller than the data (a tile's device copy spans its 1024 columns of
  # the matrix, 128 MiB here: docs/lu.md), single precision, a leading dimension that is not n, the second
  # run, and 2 and 4 partitions of GPU 0 under each policy and with 128 MiB caches (correctness only).
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
  lu_check CSS_NUM_GPUS=1 CSS_GPU_MEMORY=1G -- -n 16384 -t 1024 -p d --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p s --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --lda 16411
  lu_check CSS_NUM_GPUS=1 -- -n 16384 -t 1024 -p d --gpu-panel --prelocked
  lu_check CSS_NUM_GPUS=1 -- -n 2048 -t 256 -p d --gpu-panel
  lu_check CSS_NUM_GPUS=1 -- -n 2048 -t 256 -p s --gpu-panel --swaps columns
  for p in 2 4; do
    for policy in nocache wt wb; do
      lu_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_CACHE_POLICY=$policy -- -n 16384 -t 1024 -p d --gpu-panel
    done
    lu_check CSS_NUM_GPUS=1 CSS_GPU_PARTITIONS=$p CSS_GPU_MEMORY=128M -- -n 8192 -t 512 -p s --gpu-panel
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
  (cd "$build" && ctest -L mpi --output-on-failure 2>&1 | tee "$out/ctest-mpi.log" | tail -8)
fi
if [[ $what == firstrun ]]; then
  # Issue 19: what a user's first run gets. Each GPUSs run is a fresh process that writes the matrix with
  # plain loops and factors it once, so the runtime page-locks it inside the timed run (memory=first-run);
  # --prelocked times a second factorization; CSS_PIN_THREADS=0 turns the pinning service off (each GPU
  # worker locks as it copies). cusolverDn with the matrix already on the GPU in the same call.
  # FIRSTRUN_SIZES picks the sizes (default "49152 65536").
  echo "== first runs: Cholesky, double, tile 2048, --gpu-potrf --inverse-trsm"
  fr() { # label env... -- options...
    local label=$1; shift
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -t 2048 --gpu-potrf --inverse-trsm "$@" 2>&1 |
      tee -a "$out/firstrun.log" | grep -E "^cholesky|^page-lock|css-stats" |
      sed -E 's/.*(pinned_bytes=[0-9]+).*(pin_s=[0-9.]+).*/   \1 \2/' | sed "s/^/$label /"
  }
  for n in ${FIRSTRUN_SIZES:-49152 65536}; do
    "$build/bin/vendor_cholesky" --mode dn -n "$n" | tee -a "$out/firstrun.log"
    fr first-run -- -n "$n" -p d
    fr first-run -- -n "$n" -p d
    fr pin-threads-0 CSS_PIN_THREADS=0 -- -n "$n" -p d
    fr prelocked -- -n "$n" -p d --prelocked
  done
  "$build/bin/vendor_cholesky" --mode dn -n 49152 --prec s | tee -a "$out/firstrun.log"
  fr first-run-single -- -n 49152 -p s
  fr first-run-trace CSS_TRACE="$out/trace-firstrun-49152.json" -- -n 49152 -p d
  python3 "$root/scripts/trace-summary.py" "$out/trace-firstrun-49152.json" --window 50 2>&1 | head -40
fi
if [[ $what == outofcore ]]; then
  # Issue 20: data larger than the cache, memory page-locked before the clock (--prelocked) so that only
  # out-of-core is measured; in core in the same call. CSS_EVICTION (lru, next-use) where the runtime has it.
  echo "== out of core: Cholesky, double, tile 2048, --gpu-potrf --inverse-trsm --prelocked"
  ooc() { # label env... -- options...
    local label=$1; shift
    local envs=(); while [[ $1 != -- ]]; do envs+=("$1"); shift; done; shift
    env CSS_STATS=1 "${envs[@]}" "$build/bin/cholesky" -t 2048 -p d --gpu-potrf --inverse-trsm --prelocked "$@" 2>&1 |
      tee -a "$out/outofcore.log" | grep -E "^cholesky|css-stats" |
      grep -oE "^cholesky.*|seconds=[0-9.]+|gflops=[0-9.]+|bytes_h2d=[0-9]+|bytes_d2h=[0-9]+|evictions[a-z_]*=[0-9]+|h2d_per_data=[0-9.]+" |
      tr '\n' ' ' | sed "s/^/$label /"; echo
  }
  ooc in-core -- -n 65536
  for eviction in ${OOC_EVICTIONS:-lru next-use}; do
    ooc "12G-$eviction" CSS_GPU_MEMORY=12G CSS_EVICTION=$eviction -- -n 65536
  done
  if [[ ${OOC_LARGE:-1} == 1 ]]; then
    for eviction in ${OOC_EVICTIONS:-lru next-use}; do
      ooc "24G-$eviction" CSS_GPU_MEMORY=24G CSS_EVICTION=$eviction -- -n 131072
    done
  fi
fi
if [[ $what == ab18 ]]; then
  # Issue 18: the restructured runtime against the commit before it, in the same call: the previous
  # commit's tree is given as AB18_OLD (a checkout with its own .pretranslated), built beside this one;
  # task_overhead and the one-GPU Cholesky (first run and prelocked) alternate between the two builds.
  old_src="${AB18_OLD:?AB18_OLD names the old tree}"
  old_build=/tmp/gpuss-old-build
  cmake -S "$old_src" -B "$old_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUSS_WITH_TRANSLATOR=OFF \
    -DGPUSS_PRETRANSLATED_DIR="$old_src/.pretranslated" -DGPUSS_NVCC_FLAGS=-arch=sm_90 "${gtest[@]}" >"$out/cmake-old.log" 2>&1 ||
    { tail -20 "$out/cmake-old.log"; exit 1; }
  cmake --build "$old_build" --target cholesky task_overhead >"$out/build-old.log" 2>&1 || { tail -20 "$out/build-old.log"; exit 1; }
  echo "== A/B (issue 18): old = $(cat "$old_src/.commit" 2>/dev/null), new = this tree"
  for round in 1 2 3; do
    for side in old new; do
      b=$([[ $side == old ]] && echo "$old_build" || echo "$build")
      for n in 49152; do
        # The old example has no --prelocked: both run their default (the old one initialises by tasks).
        line=$(CSS_STATS=1 "$b/bin/cholesky" -n $n -t 2048 -p d --gpu-potrf --inverse-trsm 2>&1 | grep -E "^cholesky")
        echo "$side round=$round $line" | tee -a "$out/ab18.log" | grep -oE "^[a-z]+ round=[0-9]|n=[0-9]+|memory=[a-z-]+|gflops=[0-9.]+" | tr '\n' ' '; echo
      done
      "$b/bin/task_overhead" --cpus 2 2>&1 | tail -4 | sed "s/^/$side round=$round /" | tee -a "$out/ab18.log"
    done
  done
fi
if [[ $what == bench || $what == all ]]; then
  echo "== benchmark"
  "$root/bench/cholesky/run.sh" "$build" "$out/bench" "$@" 2>&1 | tail -40
  python3 "$root/bench/cholesky/plot.py" "$out/bench/results.csv" 2>&1 | tail -3 || true
fi
