#!/usr/bin/env bash
# End to end: runs an application thorn at three resolutions (dx = 1/16, 1/32, 1/64) and checks
# the measured convergence order of its max error against its exact solution: 2 (+-0.1).
#   heat:    HeatEquation up to t = 0.005 with dt = 0.08 dx^2 (explicit Euler's first-order time
#            error then scales like the second-order space error)
#   wavetoy: WaveToy (leapfrog, exact plane wave on the faces) up to t = 0.25 with dt = dx / 4
# Usage: convergence.sh OPUNTIA heat|wavetoy [BACKEND]
set -euo pipefail
opuntia=$(realpath "$1")
application=$2
backend=${3:-openmp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

parameters() {  # parameters N: the application's lines for dx = 1/N
  local n=$1
  case $application in
    heat)
      printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_final_time = 0.005\nTime::timestep = 0.005 / %d\n' $((n * n / 16)) ;;
    wavetoy)
      printf 'ActiveThorns = "WaveToy"\nCactus::cctk_final_time = 0.25\nTime::dtfac = 0.25\n'
      printf 'WaveToy::wave_number_x = 1\nWaveToy::wave_number_y = 0.5\nWaveToy::wave_number_z = 0.25\n' ;;
    *) echo "unknown application '$application'" >&2; exit 2 ;;
  esac
}
error_file=$([ "$application" = heat ] && echo heat_error.txt || echo wavetoy_error.txt)

errors=()
for n in 16 32 64; do
  {
    parameters $n
    printf 'Cactus::terminate = "time"\nCactus::progress_every = 0\nCactus::cctk_timer_output = "off"\n'
    printf 'Driver::global_nx = %d\nDriver::global_ny = %d\nDriver::global_nz = %d\n' $((n + 1)) $((n + 1)) $((n + 1))
    printf 'CaKernel::backend = "%s"\nIO::out_dir = "%s"\n' "$backend" "$work/run_$n"
  } >"$work/run_$n.par"
  "$opuntia" "$work/run_$n.par" >"$work/run_$n.log" 2>&1 || { cat "$work/run_$n.log"; exit 1; }
  errors+=("$(awk '!/^#/ {print $3}' "$work/run_$n/$error_file")")
  echo "$application dx = 1/$n: iterations $(awk '!/^#/ {print $1}' "$work/run_$n/$error_file"), max error ${errors[-1]}"
done

awk -v e1="${errors[0]}" -v e2="${errors[1]}" -v e3="${errors[2]}" 'BEGIN {
  p1 = log(e1 / e2) / log(2); p2 = log(e2 / e3) / log(2);
  printf "convergence order: %.3f (16->32), %.3f (32->64)\n", p1, p2;
  ok = (p1 > 1.9 && p1 < 2.1 && p2 > 1.9 && p2 < 2.1);
  print ok ? "1 passed, 0 failed" : "0 passed, 1 failed";
  exit ok ? 0 : 1 }'
