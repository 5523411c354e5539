#!/usr/bin/env bash
# bench/checkpoint_bandwidth.sh on the host (OpenMP, WaveToy 16^3, 4 checkpoints, one round): it
# runs to its end and prints each of its figures as a number: the checkpoints' bandwidth against
# the disk's, the step, each round's cost, the cost between runs and within them (one figure a
# checkpoint, with quartiles, the run without checkpoints as the control, and the difference),
# and the waited checkpoint's; its folder is gone afterwards. What the figures are is for the device (bench/RESULTS.md).
# Usage: checkpoint_bandwidth_test.sh OPUNTIA CHECKPOINT_BANDWIDTH_SH
opuntia=$1
script=$2
. "$(dirname "$0")/../check.sh"

number='-?[0-9]+\.[0-9]+'
OMP_NUM_THREADS=1 COST_ROUNDS=1 STEADY=50 bash "$script" "$opuntia" 16 4 1 "$work/folder" openmp >"$work/run.out" 2>&1
status=$?
check "runs to its end" test "$status" -eq 0
[ "$status" -eq 0 ] || tail -20 "$work/run.out"
check "the bandwidth against the disk's" \
  grep -qE "^checkpoint: best $number MiB/s, median $number; plain write with fsync: best $number MiB/s before" "$work/run.out"
check "the step" grep -qE "^time step \(50 iterations\): kernels $number ms, the run $number ms" "$work/run.out"
check "a round's cost" grep -qE "^  round: background $number s against $number s without: a checkpoint costs $number s" "$work/run.out"
check "the cost between runs" \
  grep -qE "^  background: a checkpoint costs $number s = $number steps \(median of 1 rounds\)" "$work/run.out"
check "within runs, a figure for each of the 4 checkpoints, and the control's, with quartiles" \
  grep -qE "^  background, within each run: a checkpoint $number s = $number steps \(median of 4 checkpoints, quartiles $number, $number s\); the runs without, at the same iterations: $number s = $number steps \(median of 4, quartiles $number, $number s\)" "$work/run.out"
check "the cost within runs, less the control" \
  grep -qE "^  background, within each run, less the runs without: a checkpoint costs $number s = $number steps" "$work/run.out"
check "the waited checkpoint's cost" grep -qE "^  waited +$number s against $number s without: a checkpoint costs $number s" "$work/run.out"
check "its folder removed" test ! -e "$work/folder"
finish
