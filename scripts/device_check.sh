#!/usr/bin/env bash
# On the GPU machine (no apt there): configure against the carried .deps prefix (PEGTL, fmt,
# CLI11, OpenCL headers and ICD loader), build, run the GPU-labelled tests, the whole suite and
# the sanitizers on the conformance suite, the conformance suite and the cavity's digests (CUDA
# against OpenMP) in a float build, then run WaveToy on every backend.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
nvidia-smi -L
build build/device || exit 1
grep "opuntia:" $OUT/configure-device.log
build/device/opuntia --list-devices
echo "== GPU tests"
ctest --test-dir build/device -L gpu --output-on-failure 2>&1 | grep -E "Test +#|tests passed|Failure|Expected"
echo "== OpenCL tests (the NVIDIA platform is the default device here)"
ctest --test-dir build/device -R opencl --output-on-failure 2>&1 | grep -E "Test +#|tests passed|Failure|Expected"
echo "== whole suite"
ctest --test-dir build/device -j8 2>&1 | grep -E "tests passed|\(Failed\)"
echo "== compute-sanitizer on the conformance suite (CUDA)"
t="build/device/tests/thorns/backend_conformance_tests --gtest_filter=*/cuda_*"
compute-sanitizer --tool memcheck $t 2>&1 | tail -1
compute-sanitizer --tool racecheck $t 2>&1 | tail -1
echo "== compute-sanitizer on the sub-box launches (CUDA)"
compute-sanitizer --tool memcheck build/device/tests/thorns/sub_box_tests --gtest_filter='*/sub_box.*/cuda*' 2>&1 | tail -1
echo "== the float build: the conformance suite, the sub-box launches and the cavity's digests on CUDA"
echo "   (fp32: 4 x points a thread, 2 where the cached arrays take more than 8 bytes a point, as"
echo "   VariantCheck's Triple and the cavity's momentum)"
configure build/device-float -DOPUNTIA_REAL_PRECISION=float &&
  build_targets build/device-float build-device-float opuntia backend_conformance_tests sub_box_tests &&
  build/device-float/tests/thorns/backend_conformance_tests --gtest_filter='*/cuda_*' 2>&1 | tail -1 &&
  build/device-float/tests/thorns/sub_box_tests --gtest_filter='*/sub_box.*/cuda*' 2>&1 | tail -1 &&
  bash tests/e2e/lid_driven_cavity_test.sh build/device-float/opuntia digests - openmp cuda 2>&1 | tail -1
echo "== runs"
cd build/device && mkdir -p run && cd run
for b in openmp cuda opencl; do
  sed "s/IO::out_dir = \$parfile/IO::out_dir = \"wave_$b\"\nCaKernel::backend = \"$b\"/" ../../../parfiles/wavetoy.par > wave_$b.par
  echo "-- WaveToy, backend $b"
  ../opuntia wave_$b.par 2>&1 | tail -4
done
