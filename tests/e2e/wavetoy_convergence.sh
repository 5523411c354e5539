#!/usr/bin/env bash
# End to end: runs WaveToy (leapfrog on three time levels, exact plane wave on the faces) at
# three resolutions (dx = 1/16, 1/32, 1/64, dt = dx / 4) up to t = 0.25 and checks the measured
# convergence order of the max error against the exact plane wave.
# Usage: wavetoy_convergence.sh OPUNTIA [BACKEND]
set -euo pipefail
opuntia=$1
backend=${2:-openmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

errors=()
for n in 16 32 64; do
  cat >"$work/wave_$n.par" <<PAR
ActiveThorns = "WaveToy"
Cactus::terminate = "time"
Cactus::cctk_final_time = 0.25
Cactus::progress_every = 0
Cactus::cctk_timer_output = "off"
Driver::global_nx = $((n + 1))
Driver::global_ny = $((n + 1))
Driver::global_nz = $((n + 1))
Time::dtfac = 0.25
WaveToy::wave_number_x = 1
WaveToy::wave_number_y = 0.5
WaveToy::wave_number_z = 0.25
CaKernel::backend = "$backend"
IO::out_dir = "$work/wave_$n"
PAR
  "$opuntia" "$work/wave_$n.par" >"$work/wave_$n.log" 2>&1 || { cat "$work/wave_$n.log"; exit 1; }
  errors+=("$(awk '!/^#/ {print $3}' "$work/wave_$n/wavetoy_error.txt")")
  echo "dx = 1/$n: iterations $(awk '!/^#/ {print $1}' "$work/wave_$n/wavetoy_error.txt"), max error ${errors[-1]}"
done

awk -v e1="${errors[0]}" -v e2="${errors[1]}" -v e3="${errors[2]}" 'BEGIN {
  p1 = log(e1 / e2) / log(2); p2 = log(e2 / e3) / log(2);
  printf "convergence order: %.3f (16->32), %.3f (32->64)\n", p1, p2;
  ok = (p1 > 1.9 && p1 < 2.1 && p2 > 1.9 && p2 < 2.1);
  print ok ? "1 passed, 0 failed" : "0 passed, 1 failed";
  exit ok ? 0 : 1 }'
