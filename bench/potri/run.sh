#!/usr/bin/env bash
# bench/potri/run.sh: the SPD inverse benchmark of GPUSs against cuSOLVER, in
# one command, on a GPU node.
#
#   bench/potri/run.sh <build-dir> [out-dir] [--target N] [--sizes "N ..."] [--budget SECONDS] [--dry-run]
#
# A^-1 of an SPD matrix (potrf, then potri) on one GPU, at the target size of
# issue 21 (--target, default 49152) and, for the curve, at --sizes (default
# 32768 65536). Measures, in order of importance (so that a tight budget
# drops the least useful runs):
#   1. GPUSs (examples/potri), double, tile 2048, diagonal tiles on the GPU
#      (--gpu-diag), first run: the phases overlapping (dataflow), then with a
#      barrier between them (--barriers)
#   2. cusolverDn potrf + potri with the matrix on the GPU (dn), double
#   3. GPUSs with the diagonal tiles on the host (LAPACKE), with tile 1024;
#      cusolverDn from pageable host memory (h2h)
#   4. the other sizes: GPUSs dataflow and barriers, cusolverDn dn
#   5. single precision at the target: GPUSs dataflow and barriers, cusolverDn dn
#   6. GPUSs second run (--prelocked) at the target
# Each GPUSs run is one process, so each is a first run; cusolverDn reports
# the best of 2 after a warm-up. GPUSs checks its result (--check) up to
# n = 49152. Sizes that do not fit host or GPU memory are skipped, and so is a
# run whose estimated time would overrun the budget (default 540 s);
# --dry-run runs nothing and prints the plan with the estimates.
#
# Writes <out-dir>/results.csv (default: <build-dir>/bench-potri), one row
# per run, and the output of every run under <out-dir>/logs/. Plot with
#   python3 bench/potri/plot.py <out-dir>/results.csv
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

build=""
out=""
target=49152
sizes="32768 65536"
budget=540
dry_run=0
planned=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --target) target="${2:?--target needs a size}"; shift ;;
    --sizes) sizes="${2?--sizes needs a list}"; shift ;;
    --budget) budget="${2:?--budget needs seconds}"; shift ;;
    --dry-run) dry_run=1 ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *) if [[ -z "$build" ]]; then build="$1"; elif [[ -z "$out" ]]; then out="$1"; else usage; fi ;;
  esac
  shift
done
[[ -n "$build" ]] || usage
build="$(cd "$build" && pwd)"
out="${out:-$build/bench-potri}"
check_max=49152

potri="$build/bin/potri"
vendor="$build/bin/vendor_potri"
[[ -x "$potri" ]] || { echo "run.sh: $potri not built (GPUSs program of examples/potri)" >&2; exit 1; }
gpus_present=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [[ "$gpus_present" -eq 0 && $dry_run -eq 0 ]]; then
  echo "run.sh: no GPU listed by nvidia-smi; this benchmark needs a GPU node" >&2
  exit 1
fi
host_mem=$(($(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) * 1024))
gpu_mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | sort -n | head -1 || true)
gpu_mem=$((${gpu_mem:-0} * 1048576))
if ((gpu_mem == 0)); then # --dry-run where there is no GPU: plan for an H200
  gpu_mem=$((143771 * 1048576)) host_mem=$((120 << 30))
  echo "run.sh: no GPU here: planning for an H200 node (141 GiB GPU, 120 GiB host memory free)"
fi

mkdir -p "$out/logs"
csv="$out/results.csv"
echo "impl,n,ts,prec,gpus,policy,diag,phases,memory,seconds,gflops,check,bytes_h2d,bytes_d2h,renamed,tasks,potrf_seconds,potri_seconds,status,reason" >"$csv"
start=$SECONDS
echo "run.sh: $gpus_present GPUs ($((gpu_mem >> 30)) GiB), $((host_mem >> 30)) GiB host memory free, target $target," \
  "sizes $sizes, budget ${budget}s; results in $csv"

kv() { awk -v key="$2" '{ for (i = 1; i <= NF; i++) { p = index($i, "="); if (p && substr($i, 1, p - 1) == key) { print substr($i, p + 1); exit } } }' <<<"$1"; }
row() { local IFS=,; echo "$*" >>"$csv"; }
over_budget() { ((SECONDS - start + planned + $1 <= budget)) || echo budget; }

# Seconds a run takes, all included, pessimistically: writing the matrix,
# n^3 flops at 15 TFLOP/s (GPUSs, double) or 10 (cuSOLVER's potri), the copies,
# the check, the process's exit.
estimate() { # kind n elem
  awk -v kind="$1" -v n="$2" -v elem="$3" 'BEGIN {
    lower = n * n / 2 * elem; flops = n ^ 3
    if (kind == "gpuss") t = 4 + lower / 4e9 + flops / (elem == 8 ? 15e12 : 20e12) + 2 * lower / 10e9
    if (kind == "check") t = 2 * lower / 2e9
    if (kind == "dn") t = 3 + 3 * flops / 10e12
    if (kind == "h2h") t = 3 + 3 * (flops / 10e12 + 4 * lower / 8e9)
    printf "%.0f\n", t + 1 }'
}

run_gpuss() { # n ts prec diag(gpu|host) phases(dataflow|barriers) memory(first-run|prelocked)
  local n=$1 ts=$2 prec=$3 diag=$4 phases=$5 memory=$6
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local nt=$((n / ts))
  local lower=$((nt * (nt + 1) / 2 * ts * ts * elem))
  local check=$((n <= check_max ? 1 : 0))
  local name="gpuss_n${n}_t${ts}_${prec}_${diag}_${phases}_${memory}"
  local reason="" est=0
  if ((lower > host_mem * 8 / 10)); then reason=host_memory
  elif ((lower > gpu_mem * 7 / 10)); then reason=gpu_memory # the in-cache regime, with room for renamed tiles
  else
    est=$(estimate gpuss "$n" "$elem")
    [[ $memory == prelocked ]] && est=$((2 * est))
    ((check)) && est=$((est + $(estimate check "$n" "$elem")))
    reason=$(over_budget "$est")
  fi
  if [[ -n "$reason" ]]; then
    echo "  skip  $name ($reason)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$diag" "$phases" "$memory" "" "" "" "" "" "" "" "" "" skipped "$reason"
    return
  fi
  if ((dry_run)); then
    echo "  plan  $name (~${est} s)"
    planned=$((planned + est))
    row gpuss "$n" "$ts" "$prec" 1 wb "$diag" "$phases" "$memory" "" "" "" "" "" "" "" "" "" dry_run ""
    return
  fi
  local args=(-n "$n" -t "$ts" -p "$prec")
  ((check)) && args+=(--check)
  [[ $diag == gpu ]] && args+=(--gpu-diag)
  [[ $phases == barriers ]] && args+=(--barriers)
  [[ $memory == prelocked ]] && args+=(--prelocked)
  local rc=0
  CSS_NUM_GPUS=1 CSS_STATS=1 timeout $((budget - (SECONDS - start) + 60)) "$potri" "${args[@]}" \
    >"$out/logs/$name.log" 2>&1 || rc=$?
  local summary stats
  summary=$(grep '^potri ' "$out/logs/$name.log" | tail -1 || true)
  stats=$(grep -o 'css-stats:.*' "$out/logs/$name.log" | tail -1 || true)
  if [[ -z "$summary" ]]; then
    echo "  FAIL  $name (exit $rc, see logs/$name.log)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$diag" "$phases" "$memory" "" "" "" "" "" "" "" "" "" failed "exit_$rc"
    return
  fi
  printf '  %-5s %-48s %8.3f s %10.1f GFLOP/s  check=%s\n' ok "$name" "$(kv "$summary" seconds)" \
    "$(kv "$summary" gflops)" "$(kv "$summary" check)"
  row gpuss "$n" "$ts" "$prec" "$(kv "$summary" gpus)" "$(kv "$summary" policy)" "$diag" "$phases" "$memory" \
    "$(kv "$summary" seconds)" "$(kv "$summary" gflops)" "$(kv "$summary" check)" "$(kv "$stats" bytes_h2d)" \
    "$(kv "$stats" bytes_d2h)" "$(kv "$stats" renamed)" "$(kv "$stats" tasks)" "" "" \
    "$([[ $rc -eq 0 ]] && echo ok || echo "exit_$rc")" ""
}

run_vendor() { # mode(dn|h2h) n prec
  local mode=$1 n=$2 prec=$3
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local bytes=$((n * n * elem))
  local impl=$([[ $mode == dn ]] && echo cusolverDn-potri || echo cusolverDn-potri-h2h)
  local memory=$([[ $mode == dn ]] && echo device || echo pageable)
  local est reason="" line
  est=$(estimate "$mode" "$n" "$elem")
  if ((bytes > gpu_mem * 9 / 10)); then reason=gpu_memory
  elif [[ $mode == h2h ]] && ((bytes > host_mem * 8 / 10)); then reason=host_memory
  else reason=$(over_budget "$est"); fi
  local label="${impl}_n${n}_${prec}"
  if [[ -n "$reason" ]]; then
    line="vendor=$impl n=$n gpus=1 prec=$prec status=skipped reason=$reason"
  elif ((dry_run)); then
    line="vendor=$impl n=$n gpus=1 prec=$prec status=dry_run (~${est} s)"
    planned=$((planned + est))
  else
    local rc=0
    timeout $((budget - (SECONDS - start) + 60)) "$vendor" --mode "$mode" -n "$n" --prec "$prec" \
      >"$out/logs/$label.log" 2>&1 || rc=$?
    line=$(grep '^vendor=' "$out/logs/$label.log" | tail -1 || true)
    [[ -n "$line" ]] || line="vendor=$impl n=$n gpus=1 prec=$prec status=failed reason=exit_$rc"
  fi
  echo "  $line"
  local status
  status=$(kv "$line" status)
  row "$impl" "$n" "" "$prec" 1 "" "" "" "$memory" "$(kv "$line" seconds)" "$(kv "$line" gflops)" "" "" "" "" "" \
    "$(kv "$line" potrf_seconds)" "$(kv "$line" potri_seconds)" "${status:-ok}" "$(kv "$line" reason)"
}

have_vendor=0
[[ -x "$vendor" ]] && have_vendor=1
((have_vendor)) || echo "run.sh: $vendor not built (needs CUDA and cuSOLVER): vendor runs skipped"

echo "== 1. GPUSs at n = $target, double, diagonal tiles on the GPU: dataflow, then barriers"
run_gpuss "$target" 2048 d gpu dataflow first-run
run_gpuss "$target" 2048 d gpu barriers first-run
echo "== 2. cusolverDn potrf + potri, on the GPU"
((have_vendor)) && run_vendor dn "$target" d
echo "== 3. GPUSs variants at n = $target: diagonal tiles on the host, tile 1024; cusolverDn from host memory"
run_gpuss "$target" 2048 d host dataflow first-run
run_gpuss "$target" 1024 d gpu dataflow first-run
((have_vendor)) && run_vendor h2h "$target" d
echo "== 4. other sizes"
for n in $sizes; do
  run_gpuss "$n" 2048 d gpu dataflow first-run
  run_gpuss "$n" 2048 d gpu barriers first-run
  ((have_vendor)) && run_vendor dn "$n" d
done
echo "== 5. single precision at n = $target"
run_gpuss "$target" 2048 s gpu dataflow first-run
run_gpuss "$target" 2048 s gpu barriers first-run
((have_vendor)) && run_vendor dn "$target" s
echo "== 6. GPUSs second run at n = $target"
run_gpuss "$target" 2048 d gpu dataflow prelocked

((dry_run)) && echo "run.sh: dry run: the runs above would take about ${planned} s"
echo "run.sh: done in $((SECONDS - start)) s; $(($(wc -l <"$csv") - 1)) rows in $csv"
