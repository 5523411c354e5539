#!/usr/bin/env bash
# On the GPU machine after scripts/device_check.sh: HeatEquation and WaveToy at 256^3 on every
# CUDA variant and on OpenMP, timing the kernel launches (timer report).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
echo "== gpu_stencil_bench 512"
build/device/bench/gpu_stencil_bench 512 10
cd build/device && mkdir -p bench && cd bench
for thorn in HeatEquation WaveToy; do
  # Both applications ask for TYPE=*/3dblock: the CUDA 3dblock_columns variant needs it in their TYPE.
  for setting in "openmp 3dblock" "cuda 3dblock"; do
    set -- $setting
    printf 'ActiveThorns = "%s"\nCactus::cctk_itlast = 100\nCactus::progress_every = 0\nDriver::global_nx = 256\nDriver::global_ny = 256\nDriver::global_nz = 256\nTime::dtfac = 0.0005\nCaKernel::backend = "%s"\nCaKernel::variant = "%s"\n' "$thorn" "$1" "$2" > run.par
    echo "== $thorn $1 $2"
    ../opuntia run.par 2>&1 | grep -E "CAKERNEL_Launch|INFO"
  done
done
