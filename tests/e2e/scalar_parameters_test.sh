#!/usr/bin/env bash
# Grid scalars as kernel parameters (tests/thorns/ScalarParameterCheck): before each of the 3
# sweeps of a WHILE loop in each of 2 iterations a host routine sets the grid scalars colour
# and weight, and the kernel that follows sees the values of that sweep at every point (the
# thorn compares them after each launch and stops the run at the first difference), on 1 and 3
# ranks and every BACKEND. The sum the kernel accumulates is that of the 6 weights set,
# 0.25 + 0.5 + ... + 1.5 = 5.25: a launch that saw a stale weight would change it. A kernel sees
# the global grid sizes (params.cagh_gni, _gnj, _gnk) and tells the upper x wall from the global
# index on every rank: 11 x 9 = 99 wall points, however the grid is split.
# Usage: scalar_parameters_test.sh OPUNTIA_WITH_TEST_THORNS MPIEXEC BACKEND...
set -uo pipefail
opuntia=$(realpath "$1")
mpiexec=$2
shift 2
backends=("$@")
. "$(dirname "$0")/under_mpirun.sh"

# run NAME BACKEND RANKS [LINES...]: ScalarParameterCheck on a 13x11x9 grid for 2 iterations,
# split along x; output in $work/NAME.out, exit status in $status.
run() {
  local name=$1 backend=$2 ranks=$3
  shift 3
  run_parfile "$name" "$ranks" 'ActiveThorns = "ScalarParameterCheck"' "CaKernel::backend = \"$backend\"" \
    'Cactus::cctk_itlast = 2' 'Cactus::progress_every = 0' 'Driver::global_nx = 13' 'Driver::global_ny = 11' \
    'Driver::global_nz = 9' 'Driver::processor_topology = "manual"' "Driver::processor_topology_3d_x = $ranks" \
    "IO::out_dir = \"$name\"" "$@"
  [ "$status" -eq 0 ] || { echo "run $name failed:"; tail -5 "$work/$name.out"; }
}
has_line() { grep -qxF -- "$2" "$work/$1.out"; }

for backend in "${backends[@]}"; do
  for ranks in 1 3; do
    name=sweeps_${backend}_$ranks
    run "$name" "$backend" "$ranks"
    check "$name: every launch saw the scalars set before it, status 0" test "$status" -eq 0
    check "$name: ... and the kernel's sum is that of the 6 weights set" has_line "$name" \
      "INFO (ScalarParameterCheck): 6 sweeps saw the colour and weight set before them; weight_total from 5.25 to 5.25, the sum of the weights set 5.25"
    check "$name: the kernel saw the global sizes and the upper x wall" has_line "$name" \
      "INFO (ScalarParameterCheck): the kernel saw a global grid of 13x11x9 points, 99 of them on the upper x wall"
  done
done
finish
