#!/usr/bin/env bash
# bench/cholesky/model-mpi.sh [build-dir] [slowdown]: Cholesky on several
# nodes of modelled H200s, replayed on this machine (docs/performance.md,
# "GPUSs over MPI on paper").
#
# Every rank is one node with four modelled H200s (CSS_SIM_DEVICES=4,
# CSS_SIM_MODEL: the costs of model.sh, measured on H200s on 2026-11-22);
# the ranks talk through a modelled network (CSS_MPI_NET): each node one
# 200 Gb/s link each way (25 GB/s), 2 us latency. The blocks are 2-D
# block-cyclic over the ranks (cholesky --mpi: a 2 x 2 grid on four ranks),
# and every message goes through host memory (written back from the GPU,
# sent, received, fetched into the GPU), as without CUDA-aware MPI.
#
# The model runs in real time, and here four ranks share two cores. So that
# the runtime's own work (four masters, helpers and progress threads on two
# cores, where each real node has dozens) does not stretch the modelled
# time, everything modelled runs `slowdown` times slower (durations times
# it, rates divided by it) and the seconds are divided by it again: a
# dilation of time, which the model's arithmetic does not notice. Default
# 16; the printed seconds converge as it grows (performance.md gives 4, 8, 16).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build}"
slowdown="${2:-16}"
program="$build/bin/cholesky_host"
[[ -x $program ]] || { echo "model-mpi.sh: $program not built" >&2; exit 1; }
command -v mpiexec >/dev/null || { echo "model-mpi.sh: mpiexec not found (Debian: openmpi-bin)" >&2; exit 1; }

links="h2d=53G,d2h=53G,host_h2d=167G,host_d2h=167G,p2p=150G,memory=130G"
costs="chol_dgemm=318us,chol_dsyrk=186us,chol_dpotrf=1.3ms,chol_dtrsm=1128us,chol_dtrtri=1164us,chol_dtrmm=217us,css_copy_back=20us"

# "key=318us,key=53G,..." with durations times $slowdown and rates divided by it.
dilate() {
  awk -v k="$slowdown" -v spec="$1" 'BEGIN {
    n = split(spec, items, ",")
    for (i = 1; i <= n; i++) {
      split(items[i], kv, "=")
      match(kv[2], /^[0-9.]+/)
      number = substr(kv[2], 1, RLENGTH); unit = substr(kv[2], RLENGTH + 1)
      if (kv[1] == "memory") value = kv[2]
      else if (kv[1] ~ /(h2d|d2h|p2p|bandwidth)$/) value = sprintf("%.6g%s", number / k, unit)
      else value = sprintf("%.6g%s", number * k, unit)
      printf "%s%s=%s", (i > 1 ? "," : ""), kv[1], value
    }
  }'
}

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

run() { # ranks n bandwidth
  local ranks=$1 n=$2 bandwidth=$3
  mpiexec -n "$ranks" env CSS_SIM_MODEL="$(dilate "$costs,$links")" \
    CSS_MPI_NET="$(dilate "latency=2us,bandwidth=$bandwidth")" CSS_NUM_CPUS=0 CSS_SIM_DEVICES=4 CSS_STATS=1 \
    CSS_SPIN=100 OPENBLAS_NUM_THREADS=1 "$program" -n "$n" -t 2048 -p d --mpi 2>&1
}

echo "slowdown $slowdown"
echo "| nodes x GPUs | n | link | seconds | TFLOP/s | per rank: messages sent, GB sent, GB received |"
echo "|---|---|---|---|---|---|"
for case in "1 65536 25G" "1 131072 25G" "4 131072 25G" "4 131072 50G"; do
  read -r ranks n bandwidth <<<"$case"
  out=$(run "$ranks" "$n" "$bandwidth")
  seconds=$(grep -oE "seconds=[0-9.]+" <<<"$out" | head -1 | cut -d= -f2)
  per_rank=$(grep -oE "css-mpi: rank=[0-9]+/[0-9]+ .* bytes_received=[0-9]+" <<<"$out" | sort | awk '{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      printf "%s%s: %d, %.1f, %.1f", (NR > 1 ? "; " : ""), v["rank"], v["sends"], v["bytes_sent"] / 1e9, v["bytes_received"] / 1e9
    }')
  awk -v r="$ranks" -v n="$n" -v b="$bandwidth" -v s="$seconds" -v k="$slowdown" -v p="$per_rank" 'BEGIN {
    t = s / k; printf "| %d x 4 | %d | %s | %.3f | %.1f | %s |\n", r, n, b, t, n * n * n / 3 / t / 1e12, p
  }'
done
