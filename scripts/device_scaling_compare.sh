#!/usr/bin/env bash
# On a GPU machine with two or more GPUs: bench/halo_scaling.sh with this tree's halo_bench and
# a baseline tree's, in one run on one machine, interleaved (baseline, this, baseline, this) so
# that drift shows as noise; then, where asked, this tree's GPU tests in the time left.
#   git archive REV | (mkdir -p .baseline && tar -x -C .baseline)   # here, before the run
#   scripts/device_scaling_compare.sh .baseline [rounds=2] [tests=no|yes]  # there, carry .deps and .baseline
# The scaling settings pass on to bench/halo_scaling.sh (SCALING_GPUS, SCALING_RADII,
# SCALING_GHOST_FACTORS, ...; defaults here: 1 and 2 GPUs, strong 512^3, no_x_split, ghosts of
# the radius, 0.25 s a row). Each row set lands in $OUT/<tree>_<round>.csv with what autotuning
# chose beside it. DEVICE_SECONDS (default 570) bounds the whole run.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
baseline=$1
rounds=${2:-2}
tests=${3:-no}
start=$(date +%s)
nvidia-smi -L
configure build/device || exit 1
build_baseline "$baseline" halo_bench || exit 1
targets="halo_bench"
[ "$tests" = yes ] && targets=all
build_targets build/device build $targets || exit 1
echo "built in $(( $(date +%s) - start )) s"
export SCALING_GPUS=${SCALING_GPUS:-1 2} SCALING_STRONG_N=${SCALING_STRONG_N:-512}
export SCALING_TOPOLOGIES=${SCALING_TOPOLOGIES:-no_x_split} SCALING_GHOST_FACTORS=${SCALING_GHOST_FACTORS:-1}
export SCALING_SECONDS=${SCALING_SECONDS:-0.25}
for round in $(seq "$rounds"); do
  for tree in "$baseline" .; do
    name=$( [ "$tree" = . ] && echo this || echo baseline )
    echo "== round $round, $name ($(( $(date +%s) - start )) s)"
    SCALING_CSV=$OUT/${name}_$round.csv bash bench/halo_scaling.sh "$tree/build/device/bench/halo_bench" | grep -v "^rows:"
  done
done
if [ "$tests" = yes ]; then
  left=$(( ${DEVICE_SECONDS:-570} - ($(date +%s) - start) ))
  echo "== ctest -L gpu, $left s left"
  timeout "$left" ctest --test-dir build/device -L gpu --output-on-failure 2>&1 |
    grep -E "Test +#|tests passed|Failure|Expected|failed"
fi
