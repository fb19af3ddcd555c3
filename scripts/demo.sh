#!/usr/bin/env bash
# scripts/demo.sh: the main job. Installs what is missing, builds GPUSs and
# runs the Cholesky demo of the paper with its check: on every GPU when there
# are GPUs, otherwise on the host workers and on simulated devices.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GPUSS_BUILD_DIR:-$root/build}"
source "$root/scripts/setup.sh"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build"
exec "$root/examples/cholesky/run-demo.sh" "$build"
