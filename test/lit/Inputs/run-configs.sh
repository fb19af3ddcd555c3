#!/bin/sh
# run-configs.sh EXPECTED PROGRAM [ARGS...]: run PROGRAM under several runtime
# configurations (read by the real runtime; a sequential one ignores them)
# and compare each output with EXPECTED. The write-through run also checks
# (CSS_CHECK_REGIONS=1): every region against the program's memory, inputs a
# body wrote, and the program's writes behind a device's copy; a correct
# program passes all three.
set -e
expected=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for config in "" "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=nocache CSS_GPU_MEMORY=64K" \
              "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wt CSS_GPU_MEMORY=64K CSS_CHECK_REGIONS=1" \
              "CSS_SIM_DEVICES=2 CSS_CACHE_POLICY=wb CSS_GPU_MEMORY=64K"; do
  env $config "$@" > "$out"
  if ! cmp -s "$expected" "$out"; then
    echo "output differs under '$config':"
    diff "$expected" "$out" | head -20
    exit 1
  fi
done
