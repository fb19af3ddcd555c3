#!/usr/bin/env bash
# bench/cholesky/run.sh: the Cholesky benchmark of GPUSs against the vendor
# libraries, in one command, on a GPU node.
#
#   bench/cholesky/run.sh <build-dir> [out-dir] [--quick | --full] [--budget SECONDS] [--dry-run]
#
# Measures, in order of importance (so that a tight budget drops the least useful runs):
#   1. GPUSs, write-back, double, potrf on the GPU, panel by inverse (--inverse-trsm),
#      tile 1024 and 2048, on 1, 2, 4 GPUs
#   2. the vendors: cusolverDn (device-resident, and host-to-host), cusolverMg on 1, 2, 4 GPUs,
#      OpenBLAS dpotrf on the host
#   3. GPUSs with the paper's panel (one trsm per block), tile 2048
#   4. GPUSs write-through, 5. no cache, 6. the paper's algorithm and placement (potrf on
#      the host, trsm), 7. single precision
# over n in {16384, 32768, 49152, 65536} (--quick, the default: about 8 minutes on 4 H200)
# or {16384, ..., 98304} and every combination (--full: much longer).
# GPU counts above what nvidia-smi lists, and sizes that do not fit host or GPU
# memory, are skipped. Before each run the time it would take is estimated; a
# run that would overrun the budget (default 540 s quick, 3600 s full) is
# recorded as skipped (reason=budget) instead. --dry-run runs nothing and
# prints the plan with the estimates.
#
# Writes <out-dir>/results.csv (default: <build-dir>/bench-cholesky), one row
# per run, and the output of every run under <out-dir>/logs/. Plot with
#   python3 bench/cholesky/plot.py <out-dir>/results.csv
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

build=""
out=""
grid=quick
budget=""
dry_run=0
planned=0 # --dry-run: the estimated seconds of the runs that would be made
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) grid=quick ;;
    --full) grid=full ;;
    --dry-run) dry_run=1 ;;
    --budget) budget="${2:?--budget needs seconds}"; shift ;;
    -h | --help) usage ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *) if [[ -z "$build" ]]; then build="$1"; elif [[ -z "$out" ]]; then out="$1"; else usage; fi ;;
  esac
  shift
done
[[ -n "$build" ]] || usage
build="$(cd "$build" && pwd)"
out="${out:-$build/bench-cholesky}"
[[ -n "$budget" ]] || budget=$([[ $grid == quick ]] && echo 540 || echo 3600)

cholesky="$build/bin/cholesky"
vendor="$build/bin/vendor_cholesky"
host="$build/bin/host_cholesky"
[[ -x "$cholesky" ]] || { echo "run.sh: $cholesky not built (GPUSs program of examples/cholesky)" >&2; exit 1; }

gpus_present=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [[ "$gpus_present" -eq 0 ]]; then
  echo "run.sh: no GPU listed by nvidia-smi; this benchmark needs a GPU node" >&2
  exit 1
fi
# The smallest GPU decides what fits; MiB to bytes.
gpu_mem=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | sort -n | head -1)
gpu_mem=$((gpu_mem * 1048576))
host_mem=$(($(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) * 1024))

gpu_counts=()
for g in 1 2 4; do ((g <= gpus_present)) && gpu_counts+=("$g"); done
max_gpus=${gpu_counts[-1]}
if [[ $grid == quick ]]; then
  sizes=(16384 32768 49152 65536)
  wt_max=49152 nocache_max=32768 check_max=32768 h2h_max=49152
  host_sizes=(16384)
  single_sizes=(16384 32768 49152) single_ts=(1024)
  single_gpus=(1)
  ((max_gpus > 1)) && single_gpus+=("$max_gpus")
  host_potrf_sizes=(16384 32768)
else
  sizes=(16384 32768 49152 65536 98304)
  wt_max=98304 nocache_max=98304 check_max=49152 h2h_max=98304
  host_sizes=(16384 32768)
  single_sizes=("${sizes[@]}") single_gpus=("${gpu_counts[@]}") single_ts=(1024 2048)
  host_potrf_sizes=(16384 32768 49152)
fi
tile_sizes=(1024 2048)

mkdir -p "$out/logs"
csv="$out/results.csv"
echo "impl,n,ts,prec,gpus,policy,potrf,trsm,seconds,gflops,check,bytes_h2d,bytes_d2h,bytes_p2p,tasks,cache_hits,cache_misses,evictions,status,reason" >"$csv"
start=$SECONDS
echo "run.sh: $gpus_present GPUs ($((gpu_mem >> 30)) GiB each), $((host_mem >> 30)) GiB host memory free," \
  "grid $grid, budget ${budget}s; results in $csv"

# The value of key=value in a line of words ("" when absent).
kv() { awk -v key="$2" '{ for (i = 1; i <= NF; i++) { p = index($i, "="); if (p && substr($i, 1, p - 1) == key) { print substr($i, p + 1); exit } } }' <<<"$1"; }

# Seconds a run is expected to take, all included: start-up and matrix set-up,
# the factorisation at a pessimistic rate, the traffic the policy causes, and
# the check. Args: n ts elem gpus policy check.
estimate() {
  awk -v n="$1" -v ts="$2" -v elem="$3" -v g="$4" -v policy="$5" -v check="$6" 'BEGIN {
    nt = n / ts; block = ts * ts * elem; lower = nt * (nt + 1) / 2 * block
    rate = (elem == 8 ? 25e12 : 30e12) * g            # GPUSs, pessimistic
    traffic = 2 * lower                               # wb: in once, out once
    if (policy == "wt") traffic += nt ^ 3 / 6 * block # every result written back
    if (policy == "nocache") traffic = nt ^ 3 / 6 * 4 * block
    t = 4 + lower / 4e9 + n ^ 3 / 3 / rate + traffic / (15e9 * g)
    if (check == 1) t += 3 * lower / 3e9
    printf "%.0f\n", t + 1 }'
}

# Would this run overrun the budget? Prints the reason to skip, or nothing.
over_budget() {
  local estimate=$1
  ((SECONDS - start + planned + estimate <= budget)) || echo budget
}

row() { # impl n ts prec gpus policy potrf trsm seconds gflops check h2d d2h p2p tasks hits misses evictions status reason
  local IFS=,
  echo "$*" >>"$csv"
}

run_gpuss() { # gpus n ts prec policy potrf(gpu|host) trsm(inverse|solve)
  local g=$1 n=$2 ts=$3 prec=$4 policy=$5 potrf=$6 trsm=$7
  local elem=$([[ $prec == d ]] && echo 8 || echo 4)
  local check=$((n <= check_max ? 1 : 0))
  local nt=$((n / ts))
  local lower=$((nt * (nt + 1) / 2 * ts * ts * elem))
  local name="gpuss_g${g}_n${n}_t${ts}_${prec}_${policy}_${potrf}_${trsm}"
  local reason="" est=0
  if ((lower > host_mem * 8 / 10)); then reason=host_memory
  elif ((lower > g * gpu_mem * 85 / 100)); then reason=gpu_memory # measure the in-cache regime only
  else
    est=$(estimate "$n" "$ts" "$elem" "$g" "$policy" "$check")
    reason=$(over_budget "$est")
  fi
  if [[ -n "$reason" ]]; then
    echo "  skip  $name ($reason)"
    row gpuss "$n" "$ts" "$prec" "$g" "$policy" "$potrf" "$trsm" "" "" "" "" "" "" "" "" "" "" skipped "$reason"
    return
  fi
  if ((dry_run)); then
    echo "  plan  $name (~${est} s)"
    planned=$((planned + est))
    row gpuss "$n" "$ts" "$prec" "$g" "$policy" "$potrf" "$trsm" "" "" "" "" "" "" "" "" "" "" dry_run ""
    return
  fi
  local args=(-n "$n" -t "$ts" -p "$prec")
  ((check)) && args+=(--check)
  [[ $potrf == gpu ]] && args+=(--gpu-potrf)
  [[ $trsm == inverse ]] && args+=(--inverse-trsm)
  local limit=$((budget - (SECONDS - start) + 30))
  local rc=0
  CSS_NUM_GPUS=$g CSS_CACHE_POLICY=$policy CSS_STATS=1 timeout "$limit" "$cholesky" "${args[@]}" \
    >"$out/logs/$name.log" 2>&1 || rc=$?
  local summary stats
  summary=$(grep '^cholesky ' "$out/logs/$name.log" | tail -1 || true)
  stats=$(grep -o 'css-stats:.*' "$out/logs/$name.log" | tail -1 || true)
  if [[ -z "$summary" ]]; then
    echo "  FAIL  $name (exit $rc, see logs/$name.log)"
    row gpuss "$n" "$ts" "$prec" "$g" "$policy" "$potrf" "$trsm" "" "" "" "" "" "" "" "" "" "" failed "exit_$rc"
    return
  fi
  printf '  %-5s %-40s %8.3f s %10.1f GFLOP/s  check=%s\n' ok "$name" "$(kv "$summary" seconds)" \
    "$(kv "$summary" gflops)" "$(kv "$summary" check)"
  row gpuss "$n" "$ts" "$prec" "$g" "$policy" "$potrf" "$trsm" "$(kv "$summary" seconds)" "$(kv "$summary" gflops)" \
    "$(kv "$summary" check)" "$(kv "$stats" bytes_h2d)" "$(kv "$stats" bytes_d2h)" "$(kv "$stats" bytes_p2p)" \
    "$(kv "$stats" tasks)" "$(kv "$stats" cache_hits)" "$(kv "$stats" cache_misses)" "$(kv "$stats" evictions)" \
    "$([[ $rc -eq 0 ]] && echo ok || echo "exit_$rc")" ""
}

run_vendor() { # impl n gpus prec estimate command...
  local impl=$1 n=$2 g=$3 prec=$4 est=$5
  shift 5
  local label="${impl}_g${g}_n${n}_${prec}" line reason
  reason=$(over_budget "$est")
  if [[ -n "$reason" ]]; then
    line="vendor=$impl n=$n gpus=$g prec=$prec status=skipped reason=$reason"
  elif ((dry_run)); then
    line="vendor=$impl n=$n gpus=$g prec=$prec status=dry_run"
    planned=$((planned + est))
  else
    local rc=0
    timeout $((budget - (SECONDS - start) + 30)) "$@" >"$out/logs/$label.log" 2>&1 || rc=$?
    line=$(grep '^vendor=' "$out/logs/$label.log" | tail -1 || true)
    [[ -n "$line" ]] || line="vendor=$impl n=$n gpus=$g prec=$prec status=failed reason=exit_$rc"
  fi
  echo "  $line"
  local status
  status=$(kv "$line" status)
  row "$impl" "$n" "" "$prec" "$g" "" "" "" "$(kv "$line" seconds)" "$(kv "$line" gflops)" "" "" "" "" "" "" "" "" \
    "${status:-ok}" "$(kv "$line" reason)"
}

vendor_estimate() { # n gpus h2h: generation, two repetitions, copies
  awk -v n="$1" -v g="$2" -v h2h="$3" 'BEGIN { b = n * n * 8
    printf "%.0f\n", 3 + 2 * (n ^ 3 / 3 / (30e12 * g)) + (h2h ? 2 * 3 * b / 6e9 : 0) }'
}

echo "== 1. GPUSs, write-back, double, potrf on the GPU, panel by inverse"
for g in "${gpu_counts[@]}"; do
  for n in "${sizes[@]}"; do
    for ts in "${tile_sizes[@]}"; do run_gpuss "$g" "$n" "$ts" d wb gpu inverse; done
  done
done

echo "== 2. vendor baselines"
if [[ -x "$vendor" ]]; then
  for n in "${sizes[@]}"; do
    run_vendor cusolverDn "$n" 1 d "$(vendor_estimate "$n" 1 0)" "$vendor" --mode dn -n "$n"
  done
  for n in "${sizes[@]}"; do
    ((n <= h2h_max)) || continue
    run_vendor cusolverDn-h2h "$n" 1 d "$(vendor_estimate "$n" 1 1)" "$vendor" --mode h2h -n "$n"
  done
  for g in "${gpu_counts[@]}"; do
    for n in "${sizes[@]}"; do
      run_vendor cusolverMg "$n" "$g" d "$(vendor_estimate "$n" "$g" 0)" "$vendor" --mode mg -n "$n" --gpus "$g"
    done
  done
  for n in "${single_sizes[@]}"; do
    run_vendor cusolverDn "$n" 1 s "$(vendor_estimate "$n" 1 0)" "$vendor" --mode dn -n "$n" --prec s
  done
else
  echo "  vendor_cholesky not built (needs CUDA): skipped"
fi
if [[ -x "$host" ]]; then
  for n in "${host_sizes[@]}"; do
    # About 100 GFLOP/s on 16 cores.
    run_vendor openblas "$n" 0 d "$(awk -v n="$n" 'BEGIN { printf "%.0f\n", 2 + n ^ 3 / 3 / 80e9 }')" "$host" -n "$n"
  done
fi

echo "== 3. GPUSs, the paper's panel (trsm), write-back, potrf on the GPU"
for g in "${gpu_counts[@]}"; do
  for n in "${sizes[@]}"; do run_gpuss "$g" "$n" 2048 d wb gpu solve; done
done

echo "== 4. GPUSs, write-through"
for g in "${gpu_counts[@]}"; do
  for n in "${sizes[@]}"; do
    ((n <= wt_max)) || continue
    for ts in "${tile_sizes[@]}"; do run_gpuss "$g" "$n" "$ts" d wt gpu inverse; done
  done
done

echo "== 5. GPUSs, no cache"
for g in "${gpu_counts[@]}"; do
  for n in "${sizes[@]}"; do
    ((n <= nocache_max)) || continue
    for ts in "${tile_sizes[@]}"; do run_gpuss "$g" "$n" "$ts" d nocache gpu inverse; done
  done
done

echo "== 6. GPUSs, the paper's algorithm and placement (potrf on the host, trsm), write-back"
for g in "${gpu_counts[@]}"; do
  for n in "${host_potrf_sizes[@]}"; do run_gpuss "$g" "$n" 1024 d wb host solve; done
done

echo "== 7. GPUSs, single precision, write-back"
for g in "${single_gpus[@]}"; do
  for n in "${single_sizes[@]}"; do
    for ts in "${single_ts[@]}"; do run_gpuss "$g" "$n" "$ts" s wb gpu inverse; done
  done
done

((dry_run)) && echo "run.sh: dry run: the runs above would take about ${planned} s"
echo "run.sh: done in $((SECONDS - start)) s; $(($(wc -l <"$csv") - 1)) rows in $csv"
