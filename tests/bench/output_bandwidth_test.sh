#!/usr/bin/env bash
# bench/output_bandwidth.sh on the host (OpenMP, WaveToy 16^3, 4 iterations): it runs to its end
# and prints each of its figures as a number: the output's bandwidth against the disk's and the
# page cache's, and what an output step costs the run; its folder is gone afterwards. What the
# figures are is for the development machine and the device (bench/RESULTS.md).
# Usage: output_bandwidth_test.sh OPUNTIA OUTPUT_BANDWIDTH_SH
opuntia=$1
script=$2
. "$(dirname "$0")/../check.sh"

number='-?[0-9]+\.[0-9]+'
OMP_NUM_THREADS=1 bash "$script" "$opuntia" 16 4 1 "$work/folder" openmp >"$work/run.out" 2>&1
status=$?
check "runs to its end" test "$status" -eq 0
[ "$status" -eq 0 ] || tail -20 "$work/run.out"
check "the output's bandwidth against the disk's and the page cache's, the initial data's step counted" \
  grep -qE "^output: 5 steps of $number MiB in $number s, $number s a step: $number MiB/s \(files $number MiB\); plain write with fsync: best $number MiB/s before, $number after; without: best $number, $number; output / disk = [0-9]+%, output / page cache = [0-9]+%$" "$work/run.out"
check "what an output step costs the run" \
  grep -qE "^cost: $number s with output against $number s without: an output step costs $number s = $number steps of $number s$" "$work/run.out"
check "its folder removed" test ! -e "$work/folder"
finish
