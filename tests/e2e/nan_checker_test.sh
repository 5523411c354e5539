#!/usr/bin/env bash
# NaNChecker finds what tests/thorns/PlantNaN plants and does what NaNChecker::action_if_found
# says, with the report naming the first NaN or infinite point in global index order (indices,
# coordinates at the variable's centering, rank) and the count, word for word, the same on 1 and
# 3 ranks (split along x, so that global order is not rank order) and on every BACKEND:
#   - "just warn" on PlantNaN's cell-centred w, planted at iteration 2 and checked from
#     check_after = 3 on: a warning each checked iteration, the run goes on and exits 0;
#   - "terminate" on HeatEquation's u (named by its group), planted at iteration 2 and checked
#     at iteration 3 (check_every = 3), after the kernel spread the NaN to its 7-point stencil on
#     the device: the run ends after iteration 3, TERMINATE runs, the timer report is printed, and
#     the exit status is 1;
#   - "abort" (check_vars = "all"): stops at once, no TERMINATE, no timer report, the error printed
#     once, exit status 1;
#   - check_every = 0 never checks; an unknown name in check_vars is a diagnostic at its line.
# Each run is bounded by `timeout 120`: reaching it fails the check.
# Usage: nan_checker_test.sh OPUNTIA_WITH_TEST_THORNS MPIEXEC BACKEND...
set -uo pipefail
opuntia=$(realpath "$1")
mpiexec=$2
shift 2
backends=("$@")
. "$(dirname "$0")/under_mpirun.sh"

# run NAME BACKEND RANKS [LINES...]: HeatEquation and PlantNaN on a 9^3 grid (dx = 0.125) for
# 6 iterations with LINES added; output in $work/NAME.out, exit status in $status.
run() {
  local name=$1 backend=$2 ranks=$3
  shift 3
  run_parfile "$name" "$ranks" 'ActiveThorns = "HeatEquation PlantNaN NaNChecker"' "CaKernel::backend = \"$backend\"" \
    'Cactus::cctk_itlast = 6' 'Time::timestep = 0.0005' 'Driver::global_nx = 9' 'Driver::global_ny = 9' \
    'Driver::global_nz = 9' 'Driver::processor_topology = "manual"' "Driver::processor_topology_3d_x = $ranks" \
    "IO::out_dir = \"$name\"" 'PlantNaN::at_iteration = 2' "$@"
}
has_line() { grep -qxF -- "$2" "$work/$1.out"; }
count() { grep -c -- "$2" "$work/$1.out"; }
ended_with() { [ "$status" -eq "$1" ]; }

for backend in "${backends[@]}"; do
  for ranks in 1 3; do
    # Rank 1 owns x = 3..5 of 3 ranks: (5, 1, 4) there comes before rank 0's (2, 3, 4) in global
    # order (z, then y, then x), though rank 0 comes first.
    [ "$ranks" -eq 1 ] && owner=0 || owner=1
    name=warn_${backend}_$ranks
    run "$name" "$backend" "$ranks" 'PlantNaN::plant = "2,3,4=nan 5,1,4=-inf"' 'NaNChecker::check_every = 1' \
      'NaNChecker::check_after = 3' 'NaNChecker::check_vars = "plantnan::w"'
    check "$name: just warn goes on to the end, status 0" ended_with 0
    check "$name: ... warning at every iteration checked, naming the first point at w's centering" has_line "$name" \
      "WARNING (NaNChecker): plantnan::w at iteration 3: 2 points are NaN or infinite (1 NaN, 1 infinite); the first is global point (5, 1, 4) at x = 0.6875, y = 0.125, z = 0.5625 (centering cvc) on rank $owner"
    check "$name: ... at iterations 3 to 6 only (check_after)" \
      test "$(count "$name" '^WARNING (NaNChecker): plantnan::w at iteration [3456]: 2 points')" -eq 4 -a \
      "$(count "$name" '^WARNING')" -eq 4

    # The NaN at (4, 4, 4) spread by the heat kernel to its 7-point stencil by iteration 3: the
    # first is (4, 4, 3), found on the device where the kernel left u (OpenCL), on rank 1 of 3.
    [ "$ranks" -eq 1 ] && owner=0 || owner=1
    name=terminate_${backend}_$ranks
    run "$name" "$backend" "$ranks" 'PlantNaN::var = "heatequation::u"' 'PlantNaN::plant = "4,4,4=nan"' \
      'NaNChecker::check_every = 3' 'NaNChecker::check_vars = "heatequation::temperature"' \
      'NaNChecker::action_if_found = "terminate"' 'Cactus::cctk_timer_output = "full"'
    check "$name: terminate ends the run with status 1" ended_with 1
    check "$name: ... with the warning naming the first point" has_line "$name" \
      "WARNING (NaNChecker): heatequation::u at iteration 3: 7 points are NaN or infinite (7 NaN, 0 infinite); the first is global point (4, 4, 3) at x = 0.5, y = 0.5, z = 0.375 (centering vvv) on rank $owner"
    check "$name: ... after iteration 3" has_line "$name" \
      'opuntia: terminated after iteration 3, time 0.0015: NaNChecker asked: heatequation::u is NaN or infinite at 7 points (NaNChecker::action_if_found = "terminate")'
    check "$name: ... TERMINATE ran (heat_error.txt written) and the timer report was printed" \
      test -s "$work/$name/heat_error.txt" -a "$(count "$name" '^timer report (')" -eq 1
    check "$name: ... NaNChecker ran at iterations 0 to 3 only" \
      grep -qE '^  NaNChecker_NaNCheck +NaNChecker +4 ' "$work/$name.out"

    name=abort_${backend}_$ranks
    run "$name" "$backend" "$ranks" 'PlantNaN::var = "heatequation::u"' 'PlantNaN::plant = "4,4,4=nan"' \
      'NaNChecker::check_every = 3' 'NaNChecker::check_vars = "all"' 'NaNChecker::action_if_found = "abort"' \
      'Cactus::cctk_timer_output = "full"'
    check "$name: abort stops with status 1" ended_with 1
    check "$name: ... the error naming the first point, printed once" has_line "$name" \
      "opuntia: error: NaNChecker: heatequation::u at iteration 3: 7 points are NaN or infinite (7 NaN, 0 infinite); the first is global point (4, 4, 3) at x = 0.5, y = 0.5, z = 0.375 (centering vvv) on rank $owner"
    check "$name: ... once, and nothing else as an error" test "$(count "$name" 'error')" -eq 1
    check "$name: ... at once: no TERMINATE, no timer report" \
      test ! -e "$work/$name/heat_error.txt" -a "$(count "$name" 'timer report')" -eq 0
  done
done

backend=${backends[0]}
run never "$backend" 1 'PlantNaN::plant = "4,4,4=nan"' 'NaNChecker::check_vars = "all"' \
  'NaNChecker::action_if_found = "abort"'
check "check_every = 0 (the default) never checks" test "$status" -eq 0 -a "$(count never 'NaN or infinite')" -eq 0

for ranks in 1 3; do
  run "typo_$ranks" "$backend" "$ranks" 'NaNChecker::check_every = 1' \
    'NaNChecker::check_vars = "heatequation::u heatequation::temprature"'
  check "an unknown name in check_vars is a diagnostic at its line, with the nearest name ($ranks ranks)" \
    has_line "typo_$ranks" \
    "typo_$ranks.par:13:43: error: NaNChecker::check_vars: unknown grid function or group 'heatequation::temprature' in thorn NaNChecker; did you mean 'heatequation::temperature'?"
  check "... printed once, status 1" test "$status" -eq 1 -a "$(count "typo_$ranks" 'error')" -eq 1
done

finish
