#!/usr/bin/env bash
# examples/cholesky/run-demo.sh <build-dir>: the main demonstration of GPUSs.
#
# Runs the blocked Cholesky factorisation of the paper with its check, sized
# to take about a minute:
#   - with GPUs (nvidia-smi -L lists some): on every GPU, n=32768, tile 1024;
#   - without: on the host workers, then on two simulated devices (the same
#     cache and coherence machinery as GPUs), n=8192, tile 256 (10-30 s each
#     on two cores with OpenBLAS).
# Each run ends with the line
#   cholesky n=.. ts=.. prec=.. gpus=.. policy=.. seconds=.. gflops=.. check=PASS|FAIL|skipped
# and the script fails if any check fails.
set -euo pipefail
build="$(cd "${1:?usage: run-demo.sh <build-dir>}" && pwd)"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
# The CUDA build needs GPUs; cholesky_host runs every task on the host.
if [[ "$gpus" -gt 0 ]]; then program="$build/bin/cholesky"; else program="$build/bin/cholesky_host"; fi
sequential=0
if [[ ! -x "$program" ]]; then
  echo "run-demo.sh: $program is not built (it needs the GPUSs translator or pre-translated sources);" >&2
  echo "run-demo.sh: running the sequential build cholesky_seq instead" >&2
  program="$build/bin/cholesky_seq"
  sequential=1
  [[ -x "$program" ]] || { echo "run-demo.sh: $program is not built either" >&2; exit 1; }
fi

run() { # [VAR=value...] program args...
  echo "+ $*"
  env "$@"
}

if [[ "$gpus" -gt 0 ]]; then
  run "$program" -n 32768 -t 1024 -p d --check
else
  # Host workers share the cores; one BLAS thread each avoids oversubscription.
  run OPENBLAS_NUM_THREADS=1 "$program" -n 8192 -t 256 -p d --check
  # The sequential fallback has no devices to simulate.
  ((sequential)) || run OPENBLAS_NUM_THREADS=1 CSS_SIM_DEVICES=2 "$program" -n 8192 -t 256 -p d --check
fi
