#!/usr/bin/env bash
# On the GPU machine after scripts/device_check.sh: gpu_stencil_bench at 512^3 in the fp64 build
# and in a float build (CCTK_REAL = float), the CUDA conformance suite and memcheck in the float
# build, then HeatEquation and WaveToy at 256^3 on every backend, timing the kernel launches
# (timer report).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
echo "== gpu_stencil_bench 512, CCTK_REAL = double"
build/device/bench/gpu_stencil_bench 512 10
configure build/device-float -DOPUNTIA_REAL_PRECISION=float || exit 1
build_targets build/device-float build-float gpu_stencil_bench backend_conformance_tests || exit 1
echo "== gpu_stencil_bench 512, CCTK_REAL = float (the generated rows are fp32)"
build/device-float/bench/gpu_stencil_bench 512 10
echo "== CUDA conformance suite and memcheck, CCTK_REAL = float"
t="build/device-float/tests/thorns/backend_conformance_tests --gtest_filter=*/cuda_*"
$t 2>&1 | grep -E "PASSED|FAILED|Failure" | head -5
compute-sanitizer --tool memcheck $t 2>&1 | tail -1
cd build/device && mkdir -p bench && cd bench
for thorn in HeatEquation WaveToy; do
  for backend in openmp cuda opencl; do
    printf 'ActiveThorns = "%s"\nCactus::cctk_itlast = 100\nCactus::progress_every = 0\nDriver::global_nx = 256\nDriver::global_ny = 256\nDriver::global_nz = 256\nTime::dtfac = 0.0005\nCaKernel::backend = "%s"\n' "$thorn" "$backend" > run.par
    echo "== $thorn $backend"
    ../opuntia run.par 2>&1 | grep -E "CAKERNEL_Launch|INFO"
  done
done
