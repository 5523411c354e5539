#!/usr/bin/env bash
# bench/step_benchmark.py on the host (OpenMP, small grids): a line and a table row for each thorn
# and size with a figure in each cell, the step's kernels named, autotuning's choice before it
# where the run tunes, the copy measured on the host; a --precision the build does not have is
# refused, naming both; a failing run is an error with its exit status.
# Usage: step_benchmark_test.sh OPUNTIA STEP_BENCHMARK_PY
opuntia=$1
script=$2
. "$(dirname "$0")/../check.sh"

. "$(dirname "$0")/bench_setup.sh"
bench() { OMP_NUM_THREADS=1 "$python" "$script" "$opuntia" --backend openmp --n 12 --n 17 --steps 3 "$@"; }

run_in_build_precision
check "runs in $precision" test "$status" -eq 0
for thorn in HeatEquation WaveToy; do
  for n in 12 17; do
    check "$thorn $n^3: a table row with a figure in each cell" \
      grep -qE "^\| $thorn $precision \| $n \| [0-9.]+ \| [0-9.]+ \| [-+][0-9.]+% \| [0-9.]+% \| [0-9.]+ \|$" "$work/run.out"
  done
done
check "HeatEquation's kernel is its step's" grep -qE '^HeatEquation 12\^3 .*\(CAKERNEL_Launch_Heat_Update [0-9.]+\)' "$work/run.out"
# The kernels in the timer report's order, the larger time first: the boundary's as a rule, but a
# busy machine may hold up an Evolve launch long enough to turn them round.
check "WaveToy's two kernels, one launch each a step" \
  grep -qE '^WaveToy 17\^3 .*\(CAKERNEL_Launch_WaveToy_(Boundary [0-9.]+, CAKERNEL_Launch_WaveToy_Evolve|Evolve [0-9.]+, CAKERNEL_Launch_WaveToy_Boundary) [0-9.]+\).*\(2 a step\)$' "$work/run.out"
check "untuned: no autotuning line" test "$(grep -c '^autotune:' "$work/run.out")" -eq 0
bench --precision "$precision" --thorn HeatEquation --parameter 'CaKernel::autotune = "always"' >"$work/tuned.out" 2>&1
check "autotuned: the choice printed before each size's line" \
  test "$(grep -A1 '^autotune: HeatEquation::Heat_Update on ' "$work/tuned.out" | grep -cE '^HeatEquation (12|17)\^3 ')" -eq 2
check_common_lines step_benchmark 'WaveToy_8\.par' --backend openmp --thorn WaveToy --n 8 --steps 1
finish
