#!/usr/bin/env bash
# Runs HeatEquation and WaveToy on OpenMP and on another backend with the same parameter file
# and checks that their errors against the exact solutions agree to TOLERANCE relative (default
# 1e-12 where CCTK_REAL is double: every backend compiles the bodies without fused multiply-adds,
# in the same order; 1e-3 where it is float, whose sin and cos differ by an ulp or two between the
# host's library and the GPU's: WaveToy's error differed by 5.1e-5 relative on an H100, 2026-11-26).
# Usage: backend_agreement.sh OPUNTIA BACKEND [TOLERANCE]
set -euo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
backend=$2
tolerance=${3:-}
for application in heat wavetoy; do
  for b in openmp "$backend"; do
    if [ $application = heat ]; then
      printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_final_time = 0.005\nTime::timestep = 0.005 / 64\n'
    else
      printf 'ActiveThorns = "WaveToy"\nCactus::cctk_final_time = 0.25\nTime::dtfac = 0.25\nWaveToy::wave_number_y = 0.5\n'
    fi >"$work/$application-$b.par"
    printf 'Cactus::terminate = "time"\nCactus::progress_every = 0\nDriver::global_nx = 41\nDriver::global_ny = 35\nDriver::global_nz = 29\n' >>"$work/$application-$b.par"
    printf 'CaKernel::backend = "%s"\nIO::out_dir = "%s"\n' "$b" "$work/$application-$b" >>"$work/$application-$b.par"
    "$opuntia" "$work/$application-$b.par" >"$work/$application-$b.log" 2>&1 || { cat "$work/$application-$b.log"; exit 1; }
    grep -q "backend $b" "$work/$application-$b.log" || { echo "did not run on $b"; exit 1; }
  done
  if [ -z "$tolerance" ]; then
    tolerance=1e-12
    grep -q "CCTK_REAL float" "$work/$application-openmp.log" && tolerance=1e-3
  fi
  file=$([ $application = heat ] && echo heat_error.txt || echo wavetoy_error.txt)
  a=$(awk '!/^#/ {print $3}' "$work/$application-openmp/$file")
  c=$(awk '!/^#/ {print $3}' "$work/$application-$backend/$file")
  echo "$application: max error openmp $a, $backend $c"
  check "$application: openmp and $backend agree to $tolerance" \
    awk -v a="$a" -v c="$c" -v t="$tolerance" 'BEGIN { d = a - c; if (d < 0) d = -d; exit !(d <= t * a) }'
done
finish
