#!/usr/bin/env bash
# bench/ldc_benchmark.py on the host (OpenMP, no torch, a small grid): it runs the thorn twice,
# finds every kernel's row and the evolution line, and prints the table for bench/RESULTS.md with
# a figure in each cell, and autotuning's choices where the run tunes; a --precision the build
# does not have is refused, naming both; a failing run is an error with its exit status.
# Usage: ldc_benchmark_test.sh OPUNTIA LDC_BENCHMARK_PY
opuntia=$1
script=$2
. "$(dirname "$0")/../check.sh"

. "$(dirname "$0")/bench_setup.sh"
bench() { OMP_NUM_THREADS=1 "$python" "$script" "$opuntia" --backend openmp --peer no --n 8 --steps 3 "$@"; }

run_in_build_precision
check "runs in $precision" test "$status" -eq 0
for row in CAKERNEL_Launch_LDC_Momentum LDC_PredictedWalls CAKERNEL_Launch_LDC_Divergence \
           CAKERNEL_Launch_LDC_Pressure CAKERNEL_Launch_LDC_Correction LDC_CorrectedWalls; do
  check "$row: a table row with a figure in each cell" \
    grep -qE "^\| $row \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+% \|$" "$work/run.out"
done
check "the pressure sweep runs 20 times a step" grep -qE '^\| CAKERNEL_Launch_LDC_Pressure \| 20 \|' "$work/run.out"
check "the step against its floors" grep -qE '^\| step \| 1 \| [0-9.]+ \| \| \| floors [0-9.]+% of the step \|$' "$work/run.out"
check "untuned: no autotuning line" test "$(grep -c '^autotune:' "$work/run.out")" -eq 0
# Autotuned, each kernel's choice is printed with the figures it is of.
bench --precision "$precision" --parameter 'CaKernel::autotune = "always"' >"$work/tuned.out" 2>&1
check "autotuned: the choice of every 3D kernel printed" \
  test "$(grep -cE '^autotune: LidDrivenCavity::LDC_(Momentum|Divergence|Pressure|Correction) on 10x10x10 points: ' "$work/tuned.out")" -eq 4
check_common_lines ldc_benchmark 'ldc_bench_11\.par' --backend openmp --peer no --n 8 --steps 1
finish
