#!/usr/bin/env bash
# End to end: runs HeatEquation at three resolutions (dx = 1/16, 1/32, 1/64, dt = 0.08 dx^2 so
# that the first-order time error scales like the second-order space error) up to t = 0.005,
# and checks the measured convergence order of the max error against the analytic solution.
# Usage: heat_equation_convergence.sh OPUNTIA [BACKEND]
set -euo pipefail
opuntia=$1
backend=${2:-openmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

errors=()
for n in 16 32 64; do
  steps=$((n * n / 16))  # t = 0.005 with dt = 0.005 / steps = 0.08 dx^2
  cat >"$work/heat_$n.par" <<PAR
ActiveThorns = "HeatEquation"
Cactus::terminate = "time"
Cactus::cctk_final_time = 0.005
Cactus::progress_every = 0
Cactus::cctk_timer_output = "off"
Driver::global_nx = $((n + 1))
Driver::global_ny = $((n + 1))
Driver::global_nz = $((n + 1))
Time::timestep = 0.005 / $steps
CaKernel::backend = "$backend"
IO::out_dir = "$work/heat_$n"
PAR
  "$opuntia" "$work/heat_$n.par" >"$work/heat_$n.log" 2>&1 || { cat "$work/heat_$n.log"; exit 1; }
  errors+=("$(awk '!/^#/ {print $3}' "$work/heat_$n/heat_error.txt")")
  echo "dx = 1/$n: iterations $(awk '!/^#/ {print $1}' "$work/heat_$n/heat_error.txt"), max error ${errors[-1]}"
done

awk -v e1="${errors[0]}" -v e2="${errors[1]}" -v e3="${errors[2]}" 'BEGIN {
  p1 = log(e1 / e2) / log(2); p2 = log(e2 / e3) / log(2);
  printf "convergence order: %.3f (16->32), %.3f (32->64)\n", p1, p2;
  ok = (p1 > 1.9 && p1 < 2.1 && p2 > 1.9 && p2 < 2.1);
  print ok ? "1 passed, 0 failed" : "0 passed, 1 failed";
  exit ok ? 0 : 1 }'
