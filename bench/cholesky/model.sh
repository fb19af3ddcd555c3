#!/usr/bin/env bash
# bench/cholesky/model.sh [build-dir]: the issue-5 Cholesky targets replayed
# on modelled H200s (CSS_SIM_MODEL, docs/environment.md), on any machine.
#
# The model's costs are the 2026-11-22 measurements on H200s
# (docs/performance.md): per 2048 block, dgemm 318 us, dsyrk 186 us, cusolverDn
# dpotrf 1.3 ms, cuBLAS dtrsm 1128 us as one call; links 53 GB/s per GPU each
# way, 167 GB/s for all GPUs together, 150 GB/s peer to peer. The panel by
# inverse (--inverse-trsm) takes the 2026-11-23 block_kernels times: the
# inverse 1164 us, each multiply 217 us; a copy-back in device memory (32 MB
# read and written) 20 us. Modelled devices run no task bodies;
# the runtime above them (dependencies, directory, caches, scheduling,
# barrier) is real. The model runs in real time: keep the machine otherwise idle.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
program="$build/bin/cholesky_host"
[[ -x $program ]] || { echo "model.sh: $program not built" >&2; exit 1; }

links="h2d=53G,d2h=53G,host_h2d=167G,host_d2h=167G,p2p=150G,memory=130G"
costs="chol_dgemm=318us,chol_dsyrk=186us,chol_dpotrf=1.3ms,chol_dtrsm=1128us,chol_dtrtri=1164us,chol_dtrmm=217us,css_copy_back=20us"
before="CSS_EARLY_WRITE_BACK=0 CSS_FAN_OUT_FIRST=0 CSS_SCHEDULER=locality-nowait CSS_CRITICAL_PATH=0 CSS_PREFETCH_DEPTH=2 CSS_LOAD_AHEAD=0"

run() { # gpus n panel(trsm|inverse) env...
  local g=$1 n=$2 panel=$3; shift 3
  local options=(); [[ $panel == inverse ]] && options=(--inverse-trsm)
  env "$@" CSS_SIM_MODEL="$costs,$links" CSS_NUM_CPUS=0 CSS_SIM_DEVICES="$g" CSS_STATS=1 \
    OPENBLAS_NUM_THREADS=1 "$program" -n "$n" -t 2048 -p d "${options[@]}" 2>&1 | tr '\n' ' '
}
field() { grep -oE "$1=[0-9.]+" <<<"$2" | head -1 | cut -d= -f2; }

echo "| runtime | panel | GPUs | n | seconds | TFLOP/s | peer GB |"
echo "|---|---|---|---|---|---|---|"
for panel in trsm inverse; do
  for variant in before default no-early-write-back no-fan-out-first locality-nowait no-critical-path prefetch-2 no-load-ahead; do
    case $variant in
      before) envs=($before) ;;
      default) envs=() ;;
      no-early-write-back) envs=(CSS_EARLY_WRITE_BACK=0) ;;
      no-fan-out-first) envs=(CSS_FAN_OUT_FIRST=0) ;;
      locality-nowait) envs=(CSS_SCHEDULER=locality-nowait) ;;
      no-critical-path) envs=(CSS_CRITICAL_PATH=0) ;;
      prefetch-2) envs=(CSS_PREFETCH_DEPTH=2) ;;
      no-load-ahead) envs=(CSS_LOAD_AHEAD=0) ;;
    esac
    for gn in "1 49152" "1 65536" "2 65536" "4 65536"; do
      read -r g n <<<"$gn"
      out=$(run "$g" "$n" "$panel" "${envs[@]}")
      printf "| %s | %s | %s | %s | %s | %.1f | %.1f |\n" "$variant" "$panel" "$g" "$n" "$(field seconds "$out")" \
        "$(awk -v g="$(field gflops "$out")" 'BEGIN { print g / 1000 }')" \
        "$(awk -v b="$(field bytes_p2p "$out")" 'BEGIN { print b / 1e9 }')"
    done
  done
done
