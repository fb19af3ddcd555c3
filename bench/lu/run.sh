#!/usr/bin/env bash
# bench/lu/run.sh: the LU benchmark of GPUSs against cuSOLVER, in one
# command, on a GPU node.
#
#   bench/lu/run.sh <build-dir> [out-dir] [--target N] [--sizes "N ..."] [--budget SECONDS] [--dry-run]
#
# LU with partial pivoting on one GPU, at the target size of issue 21
# (--target, default 49152) and, for the curve, at --sizes (default 32768).
# Measures, in order of importance (so that a tight budget drops the least
# useful runs):
#   1. GPUSs (examples/lu), double, tile 3072 (2048 where n is not a
#      multiple of 3072), panels on the GPU (--gpu-panel), swaps in groups
#      of tiles (the default), first run
#   2. cusolverDn getrf with the matrix on the GPU (dn), double: the anchor
#   3. cusolverDn getrf from pageable host memory, copies timed (h2h)
#   4. GPUSs variants at the target: tile 2048 (the benchmark's tile until
#      2026-11-29); the swaps as one task per lower tile (--swaps tiles, the
#      default until 2026-11-29) and per block column (--swaps columns); the
#      panels on the host (LAPACKE)
#   5. the other sizes: GPUSs (as 1), cusolverDn dn and h2h
#   6. single precision at the target: GPUSs, cusolverDn dn
#   7. GPUSs second run (--prelocked) at the target
# Each GPUSs run is one process, so each is a first run; cusolverDn reports
# the best of 2 after a warm-up. GPUSs checks its result (--check: PAx = LUx
# at every size). Sizes that do not fit host or GPU memory are skipped, and
# so is a run whose estimated time would overrun the budget (default 540 s);
# --dry-run runs nothing and prints the plan with the estimates.
#
# Writes <out-dir>/results.csv (default: <build-dir>/bench-lu), one row per
# run, and the output of every run under <out-dir>/logs/. Plot with
#   python3 bench/lu/plot.py <out-dir>/results.csv
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

build=""
out=""
target=49152
sizes="32768"
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
out="${out:-$build/bench-lu}"

lu="$build/bin/lu"
vendor="$build/bin/vendor_lu"
[[ -x "$lu" ]] || { echo "run.sh: $lu not built (GPUSs program of examples/lu)" >&2; exit 1; }
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
echo "impl,n,ts,prec,gpus,policy,panel,swaps,memory,seconds,gflops,check,bytes_h2d,bytes_d2h,evictions,tasks,status,reason" >"$csv"
start=$SECONDS
echo "run.sh: $gpus_present GPUs ($((gpu_mem >> 30)) GiB), $((host_mem >> 30)) GiB host memory free, target $target," \
  "sizes $sizes, budget ${budget}s; results in $csv"

kv() { awk -v key="$2" '{ for (i = 1; i <= NF; i++) { p = index($i, "="); if (p && substr($i, 1, p - 1) == key) { print substr($i, p + 1); exit } } }' <<<"$1"; }
row() { local IFS=,; echo "$*" >>"$csv"; }
over_budget() { ((SECONDS - start + planned + $1 <= budget)) || echo budget; }

# Seconds a run takes, all included, pessimistically. GPUSs: writing the
# matrix, (2/3) n^3 flops at 10 TFLOP/s, and the trailing matrix through
# PCIe once per step at 20 GB/s, both ways (a device copy of a tile spans ts
# whole columns of the matrix, so the GPU's cache holds few tiles at these
# sizes: docs/lu.md), the check, the exit. cuSOLVER: a warm-up and two runs.
estimate() { # kind n elem ts
  awk -v kind="$1" -v n="$2" -v elem="$3" -v ts="$4" 'BEGIN {
    bytes = n * n * elem; flops = 2 * n ^ 3 / 3
    if (kind == "gpuss") t = 4 + bytes / 4e9 + flops / 10e12 + 2 * (n ^ 3 / (3 * ts)) * elem / 20e9
    if (kind == "check") t = 3 * bytes / 4e9
    if (kind == "dn") t = 3 + 3 * flops / 20e12
    if (kind == "h2h") t = 3 + 3 * (flops / 20e12 + 2 * bytes / 8e9)
    printf "%.0f\n", t + 1 }'
}

run_gpuss() { # n ts prec panel(gpu|host) swaps(groups|tiles|columns) memory(first-run|prelocked)
  local n=$1 ts=$2 prec=$3 panel=$4 swaps=$5 memory=$6
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local bytes=$((n * n * elem))
  local name="gpuss_n${n}_t${ts}_${prec}_${panel}_${swaps}_${memory}"
  local reason="" est=0
  if ((bytes > host_mem * 8 / 10)); then reason=host_memory
  elif ((3 * ts * n * elem > gpu_mem / 2)); then reason=gpu_memory # three tiles' device copies of ts columns each
  else
    est=$(estimate gpuss "$n" "$elem" "$ts")
    [[ $memory == prelocked ]] && est=$((2 * est))
    est=$((est + $(estimate check "$n" "$elem" "$ts")))
    reason=$(over_budget "$est")
  fi
  if [[ -n "$reason" ]]; then
    echo "  skip  $name ($reason)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$panel" "$swaps" "$memory" "" "" "" "" "" "" "" skipped "$reason"
    return
  fi
  if ((dry_run)); then
    echo "  plan  $name (~${est} s)"
    planned=$((planned + est))
    row gpuss "$n" "$ts" "$prec" 1 wb "$panel" "$swaps" "$memory" "" "" "" "" "" "" "" dry_run ""
    return
  fi
  local args=(-n "$n" -t "$ts" -p "$prec" --check --swaps "$swaps")
  [[ $panel == gpu ]] && args+=(--gpu-panel)
  [[ $memory == prelocked ]] && args+=(--prelocked)
  local rc=0
  CSS_NUM_GPUS=1 CSS_STATS=1 timeout $((budget - (SECONDS - start) + 60)) "$lu" "${args[@]}" \
    >"$out/logs/$name.log" 2>&1 || rc=$?
  local summary stats
  summary=$(grep '^lu ' "$out/logs/$name.log" | tail -1 || true)
  stats=$(grep -o 'css-stats:.*' "$out/logs/$name.log" | tail -1 || true)
  if [[ -z "$summary" ]]; then
    echo "  FAIL  $name (exit $rc, see logs/$name.log)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$panel" "$swaps" "$memory" "" "" "" "" "" "" "" failed "exit_$rc"
    return
  fi
  printf '  %-5s %-50s %8.3f s %10.1f GFLOP/s  check=%s\n' ok "$name" "$(kv "$summary" seconds)" \
    "$(kv "$summary" gflops)" "$(kv "$summary" check)"
  row gpuss "$n" "$ts" "$prec" "$(kv "$summary" gpus)" "$(kv "$summary" policy)" "$panel" "$swaps" "$memory" \
    "$(kv "$summary" seconds)" "$(kv "$summary" gflops)" "$(kv "$summary" check)" "$(kv "$stats" bytes_h2d)" \
    "$(kv "$stats" bytes_d2h)" "$(kv "$stats" evictions)" "$(kv "$stats" tasks)" \
    "$([[ $rc -eq 0 ]] && echo ok || echo "exit_$rc")" ""
}

run_vendor() { # mode(dn|h2h) n prec
  local mode=$1 n=$2 prec=$3
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local bytes=$((n * n * elem))
  local impl=$([[ $mode == dn ]] && echo cusolverDn-getrf || echo cusolverDn-getrf-h2h)
  local memory=$([[ $mode == dn ]] && echo device || echo pageable)
  local est reason="" line
  est=$(estimate "$mode" "$n" "$elem" 0)
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
    "${status:-ok}" "$(kv "$line" reason)"
}

# The tile of the main runs: 3072 where it divides n (one H200, n = 49152,
# first runs: 2.49-2.54 s against 2.60-2.68 with tile 2048, and 2.62 with
# 4096, 4.1-4.3 with 1536; docs/performance.md, fifteenth session), else 2048.
main_tile() { if (($1 % 3072 == 0)); then echo 3072; else echo 2048; fi; }
tile=$(main_tile "$target")

have_vendor=0
[[ -x "$vendor" ]] && have_vendor=1
((have_vendor)) || echo "run.sh: $vendor not built (needs CUDA and cuSOLVER): vendor runs skipped"

echo "== 1. GPUSs at n = $target, double, tile $tile, panels on the GPU, swaps in groups of tiles"
run_gpuss "$target" "$tile" d gpu groups first-run
echo "== 2. cusolverDn getrf, on the GPU (the anchor)"
((have_vendor)) && run_vendor dn "$target" d
echo "== 3. cusolverDn getrf from host memory, copies timed"
((have_vendor)) && run_vendor h2h "$target" d
echo "== 4. GPUSs variants at n = $target: tile 2048, swaps per tile and per block column, panels on the host"
[[ $tile != 2048 ]] && run_gpuss "$target" 2048 d gpu groups first-run
run_gpuss "$target" "$tile" d gpu tiles first-run
run_gpuss "$target" "$tile" d gpu columns first-run
run_gpuss "$target" "$tile" d host groups first-run
echo "== 5. other sizes"
for n in $sizes; do
  run_gpuss "$n" "$(main_tile "$n")" d gpu groups first-run
  ((have_vendor)) && run_vendor dn "$n" d
  ((have_vendor)) && run_vendor h2h "$n" d
done
echo "== 6. single precision at n = $target"
run_gpuss "$target" "$tile" s gpu groups first-run
((have_vendor)) && run_vendor dn "$target" s
echo "== 7. GPUSs second run at n = $target"
run_gpuss "$target" "$tile" d gpu groups prelocked

((dry_run)) && echo "run.sh: dry run: the runs above would take about ${planned} s"
echo "run.sh: done in $((SECONDS - start)) s; $(($(wc -l <"$csv") - 1)) rows in $csv"
