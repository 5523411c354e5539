#!/usr/bin/env bash
# On the GPU machine: how deep the kernels' loads should run on this GPU. CUDA's radius-4 ring
# (3dblock_ring) copies its planes AHEAD planes beyond the windows' newest (3 in fp32, 2 in fp64,
# fitted on an H100); since a54fb84 the launcher also runs it one plane deeper where a shape asks
# (GPU_BENCH_SHAPES="0_0_0:9": the own slab, the deepest ring), and autotuning measures both
# (GPU_BENCH_TUNE). The 7-point star's windows load 1 plane ahead from global memory; since
# 213b571 the launcher also runs them 2 ahead where a shape asks (the same "0_0_0:9"), and
# autotuning measures both. The H200 moves 1.4 times the H100's bytes with as many SMs and its
# stars stay further from its copy (the ring at 66-72%): this is the question it asks. Builds
# gpu_stencil_bench in fp64 and float and prints each case's rows (% of the copy timed in the
# same run) on the driver's padded rows, in alternating rounds; nothing is kept or chosen.
#   bash scripts/device_ring_depth.sh [sizes="256 512"] [rounds=2]   # there, carry .deps
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
sizes=${1:-256 512}
rounds=${2:-2}
nvidia-smi -L
build_precisions build/ring-depth gpu_stencil_bench
for round in $(seq 1 "$rounds"); do
  for n in $sizes; do
    for pair in fp64:double fp32:float; do
      precision=${pair%%:*} dir=build/ring-depth/${pair#*:}
      echo "== round $round, ${n}^3, $precision: the ring at its own depth and one plane deeper"
      GPU_BENCH_SHAPES="0_0_0:9" GPU_BENCH_ONLY="Star25 cuda/3dblock_ring" GPU_BENCH_LAYOUTS=rows \
        "$dir/bench/gpu_stencil_bench" "$n" 10 2>&1 | grep -E "\| copy|3dblock_ring|DIFFERS"
      echo "== round $round, ${n}^3, $precision: the 7-point star's windows 1 and 2 planes ahead, own lanes"
      GPU_BENCH_SHAPES="0_0_0:9" GPU_BENCH_ONLY="Star7 cuda/" GPU_BENCH_LAYOUTS=rows \
        "$dir/bench/gpu_stencil_bench" "$n" 10 2>&1 | grep -E "\| copy|Star7.*own|DIFFERS"
    done
  done
done
for pair in fp64:double fp32:float; do
  echo "== 256^3, ${pair%%:*}: the ring tuned (autotuning measures the depth too)"
  tuned_ring_rows "build/ring-depth/${pair#*:}"
done
