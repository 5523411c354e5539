#!/usr/bin/env bash
# Installs the Debian packages Opuntia builds with, and nothing when all are present.
# Used by `make run` and `make test`; safe to run repeatedly.
set -euo pipefail

required_packages=(
  build-essential cmake ninja-build pkg-config python3
  tao-pegtl-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev libomp-14-dev
  libopenmpi-dev openmpi-bin
  # HDF5 output (thorns/IOHDF5): the parallel library, which an MPI build prefers, and the serial one.
  libhdf5-openmpi-dev libhdf5-dev
  # The output tests read the files back (tests/e2e/output_test.sh): h5py, and ParaView's pvpython.
  python3-h5py paraview python3-paraview
  # tools/plot_ldc.py (and its test, tests/tools/plot_ldc_test.sh) draws with matplotlib.
  python3-matplotlib
  # bench/ldc_torch.py's numpy reference (tests/bench/ldc_torch_test.sh).
  python3-numpy
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
)

missing=()
for package in "${required_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null; then
  sudo_cmd=(sudo)
else
  echo "error: packages missing (${missing[*]}) and neither root nor sudo is available" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
