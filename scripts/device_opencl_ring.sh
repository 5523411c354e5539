#!/usr/bin/env bash
# On the GPU machine: OpenCL's radius-4 ring (3dblock_ring) against CUDA's on the same shape,
# with NVIDIA's OpenCL compiler given more registers. On an H100 at 256^3 in fp32 OpenCL's ring
# ran at 86% of CUDA's with plane loops of the same size (270 SASS instructions against
# 268-273), but at 80 registers ptxas re-reads SR_TID.Y seven times a plane where CUDA's ring,
# at 91, reads no SR_TID.Y there (bench/RESULTS.md, 2026-12-07, cc02981).
# CaKernel::opencl_options (GPU_BENCH_OPENCL_OPTIONS here) passes -cl-nv-maxrregcount=N to the
# compiler. Builds gpu_stencil_bench in fp64 and float and prints each case's rows (% of the
# copy timed in the same run) on the driver's padded rows, each register cap in alternating
# rounds; nothing is kept or chosen.
#   bash scripts/device_opencl_ring.sh [sizes="256 512"] [rounds=2] [caps="0 96 128"]   # carry .deps
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
sizes=${1:-256 512}
rounds=${2:-2}
caps=${3:-0 96 128}
nvidia-smi -L
build_precisions build/opencl-ring gpu_stencil_bench
# The shapes of bench/RESULTS.md's comparison: fp32 32 x 16 x 62, fp64 32 x 8 x 124 (and each own).
declare -A shapes=([fp32]="32_16_62:2" [fp64]="32_8_124:2")
for round in $(seq 1 "$rounds"); do
  for n in $sizes; do
    for pair in fp32:float fp64:double; do
      precision=${pair%%:*} dir=build/opencl-ring/${pair#*:}
      echo "== round $round, ${n}^3, $precision: CUDA's ring"
      GPU_BENCH_SHAPES=${shapes[$precision]} GPU_BENCH_ONLY="Star25 cuda/3dblock_ring" GPU_BENCH_LAYOUTS=rows \
        "$dir/bench/gpu_stencil_bench" "$n" 10 2>&1 | grep -E "\| copy.*$precision|3dblock_ring|DIFFERS"
      for cap in $caps; do
        options=$([ "$cap" -gt 0 ] && echo "-cl-nv-maxrregcount=$cap")
        echo "== round $round, ${n}^3, $precision: OpenCL's ring, options '${options}'"
        GPU_BENCH_OPENCL_OPTIONS=$options GPU_BENCH_SHAPES=${shapes[$precision]} \
          GPU_BENCH_ONLY="Star25 opencl/3dblock_ring" GPU_BENCH_LAYOUTS=rows \
          "$dir/bench/gpu_stencil_bench" "$n" 10 2>&1 | grep -E "\| copy.*$precision|3dblock_ring|DIFFERS"
      done
    done
  done
done
