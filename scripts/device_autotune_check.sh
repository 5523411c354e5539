#!/usr/bin/env bash
# On the GPU machine: build, then what the autotuning of issue 28 changed there: the GPU-labelled
# tests, the OpenCL and autotuning tests on NVIDIA's OpenCL, the launch shapes bit for bit, then
# the step benchmark with autotuning on CUDA and OpenCL (what it chose is in each run's notes, kept
# under $OUT/steps) and gpu_stencil_bench at 256^3 and 512^3 in the fp64 build.
# Usage: scripts/device_autotune_check.sh [tests|bench|all]; STEP_BACKENDS (default "cuda opencl")
# and STENCIL_SIZES (default "256 512") choose the benchmarks' runs.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
what=${1:-all}
nvidia-smi -L
start=$SECONDS
build build/device || exit 1
echo "built in $((SECONDS - start)) s"
if [ "$what" != bench ]; then
  echo "== GPU tests"
  ctest --test-dir build/device -L gpu -j4 --output-on-failure >$OUT/ctest-gpu.log 2>&1
  grep -E "tests passed|\(Failed\)|Failure|Expected" $OUT/ctest-gpu.log | head -30
  echo "== OpenCL, autotuning and launch shapes (NVIDIA's OpenCL is the default device here)"
  ctest --test-dir build/device -R "opencl|autotune|launch_shape|launch_tuner|sub_box" -j4 --output-on-failure >$OUT/ctest-tune.log 2>&1
  grep -E "tests passed|\(Failed\)|Failure|Expected" $OUT/ctest-tune.log | head -30
fi
if [ "$what" != tests ]; then
  mkdir -p $OUT/steps
  for backend in ${STEP_BACKENDS:-cuda opencl}; do
    echo "== step benchmark, $backend, autotune always"
    python3 bench/step_benchmark.py build/device/opuntia --precision fp64 --backend $backend \
      --n 128 --n 256 --n 512 --work $OUT/steps/$backend --parameter 'CaKernel::autotune = "always"' 2>&1 | tail -14
    grep -rh "autotune:" $OUT/steps/$backend 2>/dev/null | sort -u | head -20
  done
  for n in ${STENCIL_SIZES:-256 512}; do
    echo "== gpu_stencil_bench $n fp64"
    build/device/bench/gpu_stencil_bench $n 10
  done
fi
