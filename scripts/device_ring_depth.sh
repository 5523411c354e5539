#!/usr/bin/env bash
# On the GPU machine: how far ahead CUDA's radius-4 ring (3dblock_ring) should copy its planes on
# this GPU. The ring's depth (CAKERNEL_<K>_3dblock_ring_AHEAD, templates/cuda/3dblock.h.tpl: 3
# planes in fp32, 2 in fp64) was fitted on an H100 and is compiled in; the H200 moves 1.4 times
# the bytes with the same SMs and may want more copies in flight. Builds gpu_stencil_bench four
# times at once (fp64 and float, each with its own depth and one plane deeper) and times
# GpuStencilBench's Star25 ring in each, on the driver's padded rows, in alternating rounds.
#   bash scripts/device_ring_depth.sh [sizes="256 512"] [rounds=2]   # there, carry .deps
# Prints each build's rows (% of the copy timed in the same run); nothing is kept or chosen.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
sizes=${1:-256 512}
rounds=${2:-2}
nvidia-smi -L
declare -A builds=(
  [build/ring-depth/fp64-own]="-DOPUNTIA_REAL_PRECISION=double"
  [build/ring-depth/fp64-deeper]="-DOPUNTIA_REAL_PRECISION=double -DCMAKE_CUDA_FLAGS=-DCAKERNEL_Star25_3dblock_ring_AHEAD=3"
  [build/ring-depth/fp32-own]="-DOPUNTIA_REAL_PRECISION=float"
  [build/ring-depth/fp32-deeper]="-DOPUNTIA_REAL_PRECISION=float -DCMAKE_CUDA_FLAGS=-DCAKERNEL_Star25_3dblock_ring_AHEAD=4"
)
for dir in "${!builds[@]}"; do
  # shellcheck disable=SC2086  # the flags are words
  (configure "$dir" -DOPUNTIA_BUILD_TESTS=OFF ${builds[$dir]} &&
     build_targets "$dir" "build-ring-depth-$(basename "$dir")" gpu_stencil_bench) &
done
wait
for round in $(seq 1 "$rounds"); do
  for n in $sizes; do
    for dir in $(printf '%s\n' "${!builds[@]}" | sort); do
      echo "== round $round, ${n}^3, $(basename "$dir")"
      GPU_BENCH_ONLY="Star25 cuda/3dblock_ring" GPU_BENCH_LAYOUTS=rows "$dir/bench/gpu_stencil_bench" "$n" 10 2>&1 |
        grep -E "copy|3dblock_ring|DIFFERS"
    done
  done
done
