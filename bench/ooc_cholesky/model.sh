#!/usr/bin/env bash
# bench/ooc_cholesky/model.sh PROGRAM: the issue-20 out-of-core runs on one
# modelled H200 (CSS_SIM_MODEL; the costs and links of bench/cholesky/model.sh):
# Cholesky n = 65536 in core and through CSS_GPU_MEMORY=12G, n = 131072
# through 24G, under CSS_EVICTION=lru and next-use. PROGRAM is ooc_cholesky
# (bench/ooc_cholesky; no translator needed). Real time: keep the machine idle.
set -euo pipefail
program="${1:?usage: model.sh path/to/ooc_cholesky}"
costs="chol_dgemm=318us,chol_dsyrk=186us,chol_dpotrf=1.3ms,chol_dtrsm=1128us,chol_dtrtri=1164us,chol_dtrmm=217us,css_copy_back=20us"
links="h2d=53G,d2h=53G,host_h2d=167G,host_d2h=167G,p2p=150G,memory=130G"
run() { # n memory eviction
  env CSS_SIM_MODEL="$costs,$links" CSS_NUM_CPUS=0 CSS_SIM_DEVICES=1 CSS_STATS=1 ${2:+CSS_GPU_MEMORY=$2} \
    CSS_EVICTION="$3" "$program" -n "$1" -t 2048 2>&1 | tr ' \n' '\n\n' |
    grep -E '^(n|tflops|bytes_h2d|bytes_d2h|evictions_clean|evictions_dirty|h2d_per_data)=' | tr '\n' ' '
  echo "memory=${2:-90%} eviction=$3"
}
run 65536 "" next-use
for eviction in lru next-use; do
  run 65536 12G $eviction
  run 131072 24G $eviction
done
