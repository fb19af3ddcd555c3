#!/usr/bin/env bash
# scripts/setup.sh: installs what GPUSs needs to build and test on Debian 12,
# when it is missing. Sourced by demo.sh and test.sh; safe to run again.
#
# The CUDA Toolkit is not a Debian package: it is used when it is found at
# /usr/local/cuda (or CUDAToolkit_ROOT), and everything else builds without it.
# Open MPI (libopenmpi-dev, openmpi-bin) gives libgpuss its MPI layer and the
# tests under mpiexec (docs/mpi.md); without it they are left out.
set -euo pipefail

GPUSS_PACKAGES=(
  cmake ninja-build g++ python3
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools libclang-rt-19-dev
  libopenblas-dev liblapacke-dev
  googletest libgtest-dev
  libopenmpi-dev openmpi-bin
)

gpuss_install_missing() {
  local missing=()
  for package in "${GPUSS_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    local sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

gpuss_install_missing
