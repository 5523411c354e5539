#!/usr/bin/env bash
# bench/ldc_benchmark.py on the host (OpenMP, no torch, a small grid): it runs the thorn twice,
# finds every kernel's row and the evolution line, and prints the table for bench/RESULTS.md with
# a figure in each cell; a --precision the build does not have is refused, naming both; a failing
# run is an error with its exit status.
# Usage: ldc_benchmark_test.sh OPUNTIA LDC_BENCHMARK_PY
opuntia=$1
script=$2
. "$(dirname "$0")/../check.sh"

find_python_with numpy
if [ -z "$python" ]; then
  echo "FAILED: no python3 with numpy (scripts/install_deps.sh installs python3-numpy)"
  exit 1
fi
bench() { OMP_NUM_THREADS=1 "$python" "$script" "$opuntia" --backend openmp --peer no --n 8 --steps 3 "$@"; }

# The build's CCTK_REAL shows in the run's start-up line: fp64 first, and fp32 where it is float.
bench --precision fp64 >"$work/fp64.out" 2>&1
status=$?
if grep -q "has CCTK_REAL float" "$work/fp64.out"; then
  precision=fp32 other=fp64 own_type=float
  bench --precision fp32 >"$work/run.out" 2>&1
  status=$?
  cp "$work/fp64.out" "$work/refused.out"
else
  precision=fp64 other=fp32 own_type=double
  cp "$work/fp64.out" "$work/run.out"
  bench --precision fp32 >"$work/refused.out" 2>&1
fi
check "runs in $precision" test "$status" -eq 0
for row in CAKERNEL_Launch_LDC_Momentum LDC_PredictedWalls CAKERNEL_Launch_LDC_Divergence \
           CAKERNEL_Launch_LDC_Pressure CAKERNEL_Launch_LDC_Correction LDC_CorrectedWalls; do
  check "$row: a table row with a figure in each cell" \
    grep -qE "^\| $row \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+% \|$" "$work/run.out"
done
check "the pressure sweep runs 20 times a step" grep -qE '^\| CAKERNEL_Launch_LDC_Pressure \| 20 \|' "$work/run.out"
check "the step against its floors" grep -qE '^\| step \| 1 \| [0-9.]+ \| \| \| floors [0-9.]+% of the step \|$' "$work/run.out"
check "the copy bandwidth, measured on the host" grep -qE '^copy bandwidth: [0-9.]+ GB/s \(numpy copy on the host\)$' "$work/run.out"
check "--precision $other against a $precision build: refused, naming both" \
  grep -qF "ldc_benchmark: --precision $other, but $opuntia has CCTK_REAL $own_type" "$work/refused.out"

"$python" "$script" /bin/false --backend openmp --peer no --n 8 --steps 1 >"$work/fails.out" 2>&1
check "a failing run: exit 1" test $? -eq 1
check "... naming the command and its status" grep -qE "^ldc_benchmark: /bin/false .*ldc_bench_11.par failed \(exit 1\)$" "$work/fails.out"
finish
