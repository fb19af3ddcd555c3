#!/bin/sh
# run-configs.sh EXPECTED PROGRAM [ARGS...]: run PROGRAM under several runtime
# configurations (read by the real runtime; a sequential one ignores them)
# and compare each output with EXPECTED.
set -e
expected=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for config in "" "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=nocache CSS_GPU_MEMORY=64K" \
              "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wt CSS_GPU_MEMORY=64K" \
              "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wb CSS_GPU_MEMORY=64K"; do
  env $config "$@" > "$out"
  if ! cmp -s "$expected" "$out"; then
    echo "output differs under '$config':"
    diff "$expected" "$out" | head -20
    exit 1
  fi
done
