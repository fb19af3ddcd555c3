#!/usr/bin/env bash
# bench/gemm/run.sh: the GEMM benchmark of GPUSs against cuBLAS, in one
# command, on a GPU node.
#
#   bench/gemm/run.sh <build-dir> [out-dir] [--sizes "N ..."] [--budget SECONDS] [--dry-run]
#
# C += A B with A, B, C in host memory, n in --sizes (default: the targets of
# issue 21, 32768 65536), on one GPU. Measures, in order of importance (so
# that a tight budget drops the least useful runs):
#   1. GPUSs (examples/gemm), double, tile 2048, first run (memory=first-run)
#   2. the vendors, double: cublas gemm with the matrices already on the GPU
#      (dev), cublasXt from pageable host memory (xt, what the GPUSs first run
#      starts from), cublasXt from pre-pinned memory (xt-pinned), cublasXt
#      pinning by itself (xt-pin)
#   3. GPUSs, double, second run (memory=prelocked), and tile 4096
#   4. single precision: GPUSs first run, cublas dev, cublasXt pageable
# Each GPUSs run is one process, so each is a first run; the vendors report
# the best of 2 after a warm-up. GPUSs checks its result (--check) up to
# n = 32768. Sizes that do not fit host or GPU memory are skipped, and so is
# a run whose estimated time would overrun the budget (default 540 s);
# --dry-run runs nothing and prints the plan with the estimates. XT_BLOCK
# (default 8192) is cublasXt's tile, 0 for cublasXt's default.
#
# Writes <out-dir>/results.csv (default: <build-dir>/bench-gemm), one row per
# run, and the output of every run under <out-dir>/logs/. Plot with
#   python3 bench/gemm/plot.py <out-dir>/results.csv
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

build=""
out=""
sizes="32768 65536"
budget=540
dry_run=0
planned=0
while [[ $# -gt 0 ]]; do
  case "$1" in
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
out="${out:-$build/bench-gemm}"
xt_block="${XT_BLOCK:-8192}"
check_max=32768

gemm="$build/bin/gemm"
vendor="$build/bin/vendor_gemm"
[[ -x "$gemm" ]] || { echo "run.sh: $gemm not built (GPUSs program of examples/gemm)" >&2; exit 1; }
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
echo "impl,n,ts,prec,gpus,policy,memory,block,seconds,gflops,check,bytes_h2d,bytes_d2h,tasks,status,reason" >"$csv"
start=$SECONDS
echo "run.sh: $gpus_present GPUs ($((gpu_mem >> 30)) GiB), $((host_mem >> 30)) GiB host memory free, sizes $sizes," \
  "budget ${budget}s; results in $csv"

kv() { awk -v key="$2" '{ for (i = 1; i <= NF; i++) { p = index($i, "="); if (p && substr($i, 1, p - 1) == key) { print substr($i, p + 1); exit } } }' <<<"$1"; }
row() { local IFS=,; echo "$*" >>"$csv"; }
over_budget() { ((SECONDS - start + planned + $1 <= budget)) || echo budget; }

# Seconds a run takes, all included, pessimistically: writing the matrices
# (about 4 GB/s), the product (GPUSs 30 TFLOP/s in double, cublasXt from
# pageable memory 8 GB/s of traffic), the check, the process's exit.
estimate() { # kind n elem [reps]
  awk -v kind="$1" -v n="$2" -v elem="$3" -v reps="${4:-1}" 'BEGIN {
    bytes = 3 * n * n * elem; flops = 2 * n ^ 3; rate = (elem == 8 ? 30e12 : 40e12)
    t = 3 + bytes / 4e9
    if (kind == "gpuss") t += flops / rate + bytes / 10e9
    if (kind == "check") t += 4 * bytes / 3e9
    if (kind == "dev") t = 3 + 3 * flops / rate
    if (kind == "xt") t += reps * (flops / rate + 2 * n ^ 3 * elem / 8192 / 8e9 + bytes / 8e9) + 2
    if (kind == "xt-pinned") t += bytes / 15e9 + reps * flops / rate + 2
    printf "%.0f\n", t + 1 }'
}

run_gpuss() { # n ts prec memory(first-run|prelocked)
  local n=$1 ts=$2 prec=$3 memory=$4
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local bytes=$((3 * n * n * elem))
  local check=$((n <= check_max ? 1 : 0))
  local name="gpuss_n${n}_t${ts}_${prec}_${memory}"
  local reason="" est=0
  if ((bytes > host_mem * 92 / 100)); then reason=host_memory
  elif ((bytes > gpu_mem * 85 / 100)); then reason=gpu_memory # the in-cache regime only
  else
    est=$(estimate gpuss "$n" "$elem")
    [[ $memory == prelocked ]] && est=$((2 * est))
    ((check)) && est=$((est + $(estimate check "$n" "$elem") - 3))
    reason=$(over_budget "$est")
  fi
  if [[ -n "$reason" ]]; then
    echo "  skip  $name ($reason)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$memory" "" "" "" "" "" "" "" skipped "$reason"
    return
  fi
  if ((dry_run)); then
    echo "  plan  $name (~${est} s)"
    planned=$((planned + est))
    row gpuss "$n" "$ts" "$prec" 1 wb "$memory" "" "" "" "" "" "" "" dry_run ""
    return
  fi
  local args=(-n "$n" -t "$ts" -p "$prec")
  ((check)) && args+=(--check)
  [[ $memory == prelocked ]] && args+=(--prelocked)
  local rc=0
  CSS_NUM_GPUS=1 CSS_STATS=1 timeout $((budget - (SECONDS - start) + 60)) "$gemm" "${args[@]}" \
    >"$out/logs/$name.log" 2>&1 || rc=$?
  local summary stats
  summary=$(grep '^gemm ' "$out/logs/$name.log" | tail -1 || true)
  stats=$(grep -o 'css-stats:.*' "$out/logs/$name.log" | tail -1 || true)
  if [[ -z "$summary" ]]; then
    echo "  FAIL  $name (exit $rc, see logs/$name.log)"
    row gpuss "$n" "$ts" "$prec" 1 wb "$memory" "" "" "" "" "" "" "" failed "exit_$rc"
    return
  fi
  printf '  %-5s %-36s %8.3f s %10.1f GFLOP/s  check=%s\n' ok "$name" "$(kv "$summary" seconds)" \
    "$(kv "$summary" gflops)" "$(kv "$summary" check)"
  row gpuss "$n" "$ts" "$prec" "$(kv "$summary" gpus)" "$(kv "$summary" policy)" "$memory" "" \
    "$(kv "$summary" seconds)" "$(kv "$summary" gflops)" "$(kv "$summary" check)" "$(kv "$stats" bytes_h2d)" \
    "$(kv "$stats" bytes_d2h)" "$(kv "$stats" tasks)" "$([[ $rc -eq 0 ]] && echo ok || echo "exit_$rc")" ""
}

run_vendor() { # mode n prec
  local mode=$1 n=$2 prec=$3
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local bytes=$((3 * n * n * elem))
  local impl memory
  case $mode in
    dev) impl=cublas memory=device ;;
    xt) impl=cublasXt memory=pageable ;;
    xt-pin) impl=cublasXt-pin memory=pageable ;;
    xt-pinned) impl=cublasXt-pinned memory=pinned ;;
  esac
  local kind=$mode
  [[ $mode == xt-pin ]] && kind=xt
  local est reason="" line
  est=$(estimate "$kind" "$n" "$elem" 2)
  if [[ $mode == dev ]] && ((bytes > gpu_mem * 95 / 100)); then reason=gpu_memory
  elif [[ $mode != dev ]] && ((bytes > host_mem * 92 / 100)); then reason=host_memory
  else reason=$(over_budget "$est"); fi
  local label="${impl}_n${n}_${prec}"
  if [[ -n "$reason" ]]; then
    line="vendor=$impl n=$n gpus=1 prec=$prec status=skipped reason=$reason"
  elif ((dry_run)); then
    line="vendor=$impl n=$n gpus=1 prec=$prec status=dry_run (~${est} s)"
    planned=$((planned + est))
  else
    local rc=0 block_args=()
    [[ $mode != dev ]] && block_args=(--block "$xt_block")
    timeout $((budget - (SECONDS - start) + 60)) "$vendor" --mode "$mode" -n "$n" --prec "$prec" "${block_args[@]}" \
      >"$out/logs/$label.log" 2>&1 || rc=$?
    line=$(grep '^vendor=' "$out/logs/$label.log" | tail -1 || true)
    [[ -n "$line" ]] || line="vendor=$impl n=$n gpus=1 prec=$prec status=failed reason=exit_$rc"
  fi
  echo "  $line"
  local status
  status=$(kv "$line" status)
  row "$impl" "$n" "" "$prec" 1 "" "$memory" "$(kv "$line" block)" "$(kv "$line" seconds)" "$(kv "$line" gflops)" \
    "" "" "" "" "${status:-ok}" "$(kv "$line" reason)"
}

have_vendor=0
[[ -x "$vendor" ]] && have_vendor=1
((have_vendor)) || echo "run.sh: $vendor not built (needs CUDA): vendor runs skipped"

echo "== 1. GPUSs, double, first run"
for n in $sizes; do run_gpuss "$n" 2048 d first-run; done
echo "== 2. vendors, double"
if ((have_vendor)); then
  for n in $sizes; do run_vendor dev "$n" d; done
  for n in $sizes; do run_vendor xt "$n" d; done
  for n in $sizes; do run_vendor xt-pinned "$n" d; done
  for n in $sizes; do run_vendor xt-pin "$n" d; done
fi
echo "== 3. GPUSs, double: second run, tile 4096"
for n in $sizes; do run_gpuss "$n" 2048 d prelocked; done
for n in $sizes; do run_gpuss "$n" 4096 d first-run; done
echo "== 4. single precision"
for n in $sizes; do run_gpuss "$n" 2048 s first-run; done
if ((have_vendor)); then
  for n in $sizes; do run_vendor dev "$n" s; done
  for n in $sizes; do run_vendor xt "$n" s; done
fi

((dry_run)) && echo "run.sh: dry run: the runs above would take about ${planned} s"
echo "run.sh: done in $((SECONDS - start)) s; $(($(wc -l <"$csv") - 1)) rows in $csv"
