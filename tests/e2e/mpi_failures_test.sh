#!/usr/bin/env bash
# A failing rank ends the whole run under mpirun, never a hang: an exception on one rank of three
# is printed once with its rank and ends every rank; so is a parameter error that a routine finds
# on one rank only; a parameter error every rank finds is printed once, by rank 0, without a
# rank. Each run is bounded by `timeout 60`: reaching it fails the check.
# Usage: mpi_failures_test.sh OPUNTIA OPUNTIA_WITH_TEST_THORNS MPIEXEC
# (OPUNTIA_WITH_TEST_THORNS: the program with tests/thorns/RankFailure, whose routine fails on a
# chosen rank.)
set -uo pipefail
opuntia=$(realpath "$1")
opuntia_test_thorns=$(realpath "$2")
mpiexec=$3
. "$(dirname "$0")/under_mpirun.sh"

# run PROGRAM NAME [LINES...]: HeatEquation on 3 ranks for 4 iterations with LINES added, from
# $work; its output in $work/NAME.out and its exit status in $status (124: the run hung).
run() {
  local program=$1 name=$2
  shift 2
  {
    printf 'ActiveThorns = "HeatEquation"\nCaKernel::backend = "openmp"\nCactus::cctk_itlast = 4\n'
    printf 'Cactus::cctk_timer_output = "off"\nTime::timestep = 0.0005\n'
    printf '%s\n' "$@"
  } >"$work/$name.par"
  (cd "$work" && timeout 60 "$mpiexec" --oversubscribe -np 3 "$program" "$name.par" >"$name.out" 2>&1)
  status=$?
}
failed_without_hanging() { [ "$status" -ne 0 ] && [ "$status" -ne 124 ]; }
has_line() { grep -qxF -- "$2" "$work/$1.out"; }
count() { grep -c -- "$2" "$work/$1.out"; }
# contains NAME TEXT: TEXT, lines and all, is somewhere in $work/NAME.out.
contains() { [[ "$(<"$work/$1.out")" == *"$2"* ]]; }

run "$opuntia_test_thorns" thrown 'ActiveThorns = "RankFailure"' 'RankFailure::fail_on_rank = 1'
check "an exception on rank 1 of 3 ends the run with a failure, without hanging" failed_without_hanging
check "... naming the rank and the error" has_line thrown \
  'opuntia: error on rank 1 of 3: RankFailure_Fail: rank 1 fails at iteration 1'
check "... once" test "$(count thrown 'opuntia: error')" -eq 1

run "$opuntia_test_thorns" one_rank_parameter 'ActiveThorns = "RankFailure"' 'RankFailure::fail_on_rank = 1' \
  'RankFailure::failure = "parameter"'
check "a parameter error found on rank 1 alone ends the run with a failure, without hanging" failed_without_hanging
check "... naming the rank, then the diagnostic at the parameter's line" contains one_rank_parameter \
  "$(printf '%s\n' 'opuntia: error on rank 1 of 3:' \
    'one_rank_parameter.par:7:29: error: RankFailure::fail_on_rank = 1: this rank refuses it' \
    'RankFailure::fail_on_rank = 1' '                            ^')"
check "... once" test "$(count one_rank_parameter ': error: ')" -eq 1

run "$opuntia" unknown_value 'Driver::processor_topology = "diagonal"'
check "a parameter value every rank finds unknown fails, without hanging" failed_without_hanging
check "... with the diagnostic" has_line unknown_value \
  "unknown_value.par:6:30: error: value 'diagonal' of 'Driver::processor_topology' is not one of its values: \"automatic\" :: \"as cubic as possible, x split last\"; \"manual\" :: \"processor_topology_3d_x/y/z; a 0 there is chosen as automatic does\"; \"no_x_split\" :: \"x kept whole (coalesced rows on a GPU), y and z as cubic as possible\""
check "... printed once, by one rank" test "$(count unknown_value ': error: ')" -eq 1
check "... naming no rank" test "$(count unknown_value 'on rank')" -eq 0

run "$opuntia" late_parameter 'IO::out_digest_vars = "heatequation::nosuch"'
check "a parameter every rank finds wrong in a routine fails, without hanging" failed_without_hanging
check "... with the diagnostic" has_line late_parameter \
  "late_parameter.par:6:24: error: IO::out_digest_vars: unknown grid function or group 'heatequation::nosuch' in thorn IO; did you mean 'heatequation::u'?"
check "... printed once, naming no rank" test "$(count late_parameter ': error: ')" -eq 1 -a \
  "$(count late_parameter 'on rank')" -eq 0

run "$opuntia" too_many_ranks 'Driver::global_nx = 2' 'Driver::global_ny = 2' 'Driver::global_nz = 2'
check "more ranks along an axis than its points fails, without hanging" failed_without_hanging
check "... at the grid size's line" has_line too_many_ranks \
  'too_many_ranks.par:8:21: error: 3 ranks along z (topology 1x1x3, processor_topology = "automatic") but only 2 points to split there: use fewer ranks or another topology'
check "... printed once, naming no rank" test "$(count too_many_ranks ': error: ')" -eq 1 -a \
  "$(count too_many_ranks 'on rank')" -eq 0

# --parameter-level strict on 3 ranks: a parameter that only rank 0 reads (cctk_timer_output, for
# its timer report) is read; one no rank reads is reported once, and every rank ends with 1.
printf 'ActiveThorns = "HeatEquation"\nCaKernel::backend = "openmp"\nCactus::cctk_itlast = 2\nCactus::cctk_timer_output = "off"\nCactus::cctk_show_banners = no\n' >"$work/strict.par"
(cd "$work" && timeout 60 "$mpiexec" --oversubscribe -np 3 "$opuntia" --parameter-level strict strict.par >strict.out 2>&1)
status=$?
check "strict on 3 ranks fails for a parameter no rank reads, without hanging" failed_without_hanging
check "... naming it once" test "$(count strict 'is set but never read')" -eq 1
check "... and not one that rank 0 reads" test "$(count strict 'cctk_timer_output')" -eq 0
check "... at its place" has_line strict "strict.par:5:1: error: parameter 'Cactus::cctk_show_banners' is set but never read"

finish
