#!/usr/bin/env bash
# On a GPU machine with two GPUs (carry .deps and .baseline): the MPI driver's device checks in
# one run. Builds this tree and the baseline's `opuntia`, runs the GPU-labelled tests,
# compute-sanitizer on the halo pack/unpack kernels (1 and 2 ranks, periodic), the single-GPU
# periodic WaveToy before (baseline: whole arrays through the host) and after (device halo),
# then bench/halo_scaling.sh on the GPUs present.
#   git archive REV | (mkdir -p .baseline && tar -x -C .baseline)   # here, before the run
#   scripts/device_mpi_check.sh [checks|tests|scaling|all=all] [weak_n=256] [strong_n=512]
# (tests: checks without the baseline; tests+scaling: both of those; HALO_GHOST_FACTORS passes on
# to bench/halo_scaling.sh.)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
what=${1:-all}
nvidia-smi -L
ompi_info --parsable --all 2>/dev/null | grep -m1 "mpi_built_with_cuda_support:value"
configure build/device || exit 1
baseline=no
case $what in checks | all) baseline=yes ;; esac
targets="opuntia halo_bench backend_conformance_tests sub_box_tests device_reduction_tests"
build_targets build/device build $targets || exit 1
if [ $baseline = yes ]; then
  build_baseline .baseline opuntia || exit 1
fi
if [ "$what" != scaling ]; then  # checks, tests, tests+scaling, all
echo "== GPU tests"
ctest --test-dir build/device -L gpu --output-on-failure 2>&1 | grep -E "Test +#|tests passed|Failure|Expected|failed"
mkdir -p build/device/run && cd build/device/run
wave() {  # wave BACKEND N ITERATIONS: the periodic plane wave
  sed "s/IO::out_dir = \$parfile/CaKernel::backend = \"$1\"/" ../../../parfiles/wavetoy.par
  printf 'Driver::periodic = yes\nDriver::global_nx = %s\nDriver::global_ny = %s\nDriver::global_nz = %s\nCactus::cctk_itlast = %s\nCactus::terminate = "iteration"\nCactus::progress_every = 0\nIO::out_digest_vars = "WaveToy::phi"\n' $2 $2 $2 $3
}
echo "== compute-sanitizer memcheck: device halo, CUDA, periodic, 1 and 2 ranks"
wave cuda 33 8 > small.par
compute-sanitizer --tool memcheck ../opuntia small.par 2>&1 | grep -E "ERROR SUMMARY|digest"
mpirun -np 2 --bind-to none compute-sanitizer --tool memcheck ../opuntia small.par 2>&1 | grep -E "ERROR SUMMARY|digest"
echo "== the same digests on openmp and opencl"
for b in openmp opencl; do wave $b 33 8 > small_$b.par; ../opuntia small_$b.par 2>&1 | grep digest; done
if [ $baseline = yes ]; then
echo "== single-GPU periodic WaveToy 256^3, 400 iterations: before (baseline) and after"
wave cuda 256 400 > wave256.par
for round in 1 2; do
  for tree in ../../../.baseline/build/device/opuntia ../opuntia; do
    echo "-- $tree"
    $tree wave256.par 2>&1 | grep -E "timer report|Evolve|Boundary|SYNC|digest"
  done
done
fi
echo "== single-GPU periodic WaveToy 256^3, 400 iterations, ghost zones 1, 2 and 3 wide"
for ghosts in 1 2 3; do
  { wave cuda 256 400; echo "Driver::ghost_size = $ghosts"; } > wave256_g$ghosts.par
  ../opuntia wave256_g$ghosts.par 2>&1 | grep -E "timer report|Evolve|SYNC|digest"
done
cd ../../..
fi
case $what in checks | tests) exit 0 ;; esac
echo "== scaling on the GPUs present"
SCALING_WEAK_N=${2:-256} SCALING_STRONG_N=${3:-512} SCALING_GHOST_FACTORS=${HALO_GHOST_FACTORS:-1} \
  bash bench/halo_scaling.sh build/device/bench/halo_bench build/device/opuntia
