#!/usr/bin/env bash
# On the GPU machine: the benchmarks of this tree against a baseline tree, in one run on one
# device, so that a refactoring can be shown to cost nothing. Each benchmark runs twice per
# tree, interleaved (baseline, this, baseline, this), so that drift shows as noise.
#   git archive REV | (mkdir -p .baseline && tar -x -C .baseline)   # here, before the run
#   scripts/device_compare_bench.sh .baseline [n_gpu=512] [n_cpu=256]  # there, carry .deps and .baseline
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
baseline=$1
n_gpu=${2:-512}
n_cpu=${3:-256}
nvidia-smi -L
targets="gpu_stencil_bench stencil_bench"
configure build/device -DOPUNTIA_BUILD_TESTS=OFF || exit 1
build_targets build/device build $targets || exit 1
build_baseline "$baseline" $targets || exit 1
for round in 1 2; do
  for tree in "$baseline" .; do
    echo "== round $round, $tree: gpu_stencil_bench $n_gpu"
    "$tree/build/device/bench/gpu_stencil_bench" "$n_gpu" 10
    echo "== round $round, $tree: stencil_bench $n_cpu"
    OMP_PROC_BIND=close OMP_PLACES=cores "$tree/build/device/bench/stencil_bench" "$n_cpu" 20
  done
done
