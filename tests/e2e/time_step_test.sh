#!/usr/bin/env bash
# A routine sets the time step (routine_context::set_dt; tests/thorns/TimeStepCheck): set at
# CCTK_BASEGRID or CCTK_POSTINITIAL, the kernels see it as params.cagh_dt (compared with
# context.dt() at every point of every launch), the time advances by it and the run says so, on
# 1 and 2 ranks. Later bins, a value that is not positive or not finite, are refused naming the
# routine; a time step that no longer moves the time names the routine that set it, not the
# parameters. With checkpoints: a recovered run keeps the checkpoint's dt whatever its BASEGRID
# routine sets, and ends as the run that never stopped; a routine after the recovery may not set it.
# Usage: time_step_test.sh OPUNTIA_WITH_TEST_THORNS MPIEXEC [checkpoints]
set -uo pipefail
opuntia=$(realpath "$1")
mpiexec=$2
checkpoints=${3:-}
. "$(dirname "$0")/under_mpirun.sh"
thorns=TimeStepCheck
[ "$checkpoints" != checkpoints ] || thorns="TimeStepCheck IOHDF5"

# run NAME RANKS [LINES...]: TimeStepCheck on a 9^3 grid for 4 iterations, dt 0.125 set at
# BASEGRID unless LINES say otherwise; output in $work/NAME.out, exit status in $status.
run() {
  local name=$1 ranks=$2
  shift 2
  run_parfile "$name" "$ranks" "ActiveThorns = \"$thorns\"" 'CaKernel::backend = "openmp"' 'Cactus::cctk_itlast = 4' \
    'Cactus::progress_every = 0' 'Driver::global_nx = 9' 'Driver::global_ny = 9' 'Driver::global_nz = 9' \
    'TimeStepCheck::dt = 0.125' "IO::out_dir = \"$name\"" "$@"
}
has_line() { grep -qxF -- "$2" "$work/$1.out"; }
ended_with() { [ "$status" -eq "$1" ]; }
ended_in_4_steps_of_0.125() {
  has_line "$1" "INFO (TimeStepCheck): iteration 4, time 0.5, dt 0.125; 4 launches of SeeDt saw that dt"
}
refused() {  # refused NAME ROUTINE BIN DT REASON
  ended_with 1 && has_line "$1" "opuntia: error: TimeStepCheck::$2 sets dt = $4 at CCTK_$3, but $5: routines set the time step before the evolution, from CCTK_STARTUP to CCTK_POSTINITIAL (as Cactus thorns set cctk_delta_time at CCTK_BASEGRID)"
}

for ranks in 1 2; do
  name=basegrid_$ranks
  run "$name" "$ranks"
  check "$name: status 0" ended_with 0
  check "$name: the start-up report gives Time's dt, then the routine's" has_line "$name" \
    "opuntia: dt 0.125 from now on, set by TimeStepCheck::TimeStepCheck_SetAtBasegrid at CCTK_BASEGRID"
  check "$name: 4 steps of 0.125, every launch saw params.cagh_dt = 0.125" ended_in_4_steps_of_0.125 "$name"
done
run postinitial 1 'TimeStepCheck::set_at = "postinitial"'
check "set at POSTINITIAL: status 0" ended_with 0
check "set at POSTINITIAL: said so" has_line postinitial \
  "opuntia: dt 0.125 from now on, set by TimeStepCheck::TimeStepCheck_SetAtPostinitial at CCTK_POSTINITIAL"
check "set at POSTINITIAL: 4 steps of 0.125, seen by every launch" ended_in_4_steps_of_0.125 postinitial

run cpinitial 2 'TimeStepCheck::set_at = "cpinitial"'
check "set at CPINITIAL: refused, naming the routine, once" refused cpinitial TimeStepCheck_SetAtCpinitial CPINITIAL 0.125 \
  "the initial data is complete"
check "... printed once" test "$(grep -c '^opuntia: error:' "$work/cpinitial.out")" -eq 1
run evol 1 'TimeStepCheck::set_at = "evol"'
check "set at EVOL: refused, naming the routine" refused evol TimeStepCheck_SetAtEvol EVOL 0.125 "the evolution has started"
run negative 1 'TimeStepCheck::dt = -1'
check "dt = -1: refused, naming the routine" has_line negative \
  "opuntia: error: TimeStepCheck::TimeStepCheck_SetAtBasegrid sets dt = -1 at CCTK_BASEGRID: the time step must be a positive normal double (finite, at least 2.22507e-308)"
check "... status 1" ended_with 1
run infinite 1 'TimeStepCheck::infinite = yes'
check "dt = inf: refused, naming the routine" has_line infinite \
  "opuntia: error: TimeStepCheck::TimeStepCheck_SetAtBasegrid sets dt = inf at CCTK_BASEGRID: the time step must be a positive normal double (finite, at least 2.22507e-308)"
check "... status 1" ended_with 1
run no_progress 1 'TimeStepCheck::dt = 1' 'Cactus::cctk_initial_time = 1e20' 'Cactus::terminate = "time"' \
  'Cactus::cctk_final_time = 2e20'
check "a final time out of reach with the routine's dt: warned, naming the routine" has_line no_progress \
  "no_progress.par:13:27: warning: reaching Cactus::cctk_final_time = 2e+20 from time 1e+20 takes about 1e+20 steps of dt = 1 (set by TimeStepCheck::TimeStepCheck_SetAtBasegrid at CCTK_BASEGRID): the run will not get there"
check "a dt that no longer moves the time: an error naming the routine, not Time's parameters, at the initial time's line" has_line no_progress \
  "no_progress.par:11:29: error: the time step dt = 1 (set by TimeStepCheck::TimeStepCheck_SetAtBasegrid at CCTK_BASEGRID) no longer changes the time 1e+20 at iteration 1 (it is below the resolution of a double there): the run would make no progress"

if [ "$checkpoints" = checkpoints ]; then
  run first_half 1 'Cactus::cctk_itlast = 2' 'IO::checkpoint_every = 2'
  check "checkpoint at iteration 2 written with dt 0.125" test "$status" -eq 0 -a -f "$work/first_half/checkpoint.it2.h5"
  run after_recovery 1 'IO::recover = "manual"' 'IO::recover_file = "first_half/checkpoint.it2.h5"' \
    'TimeStepCheck::set_at = "post_recover_variables"'
  check "set after the recovery: refused, naming the routine and the checkpoint" refused after_recovery \
    TimeStepCheck_SetAtPostRecoverVariables POST_RECOVER_VARIABLES 0.125 \
    "this run recovered its time step from checkpoint first_half/checkpoint.it2.h5"
  cp -r "$work/first_half" "$work/second_half"
  run second_half 1 'IO::recover = "auto"' 'TimeStepCheck::dt = 0.5'
  check "recovered while BASEGRID sets dt 0.5: status 0" ended_with 0
  check "... the checkpoint's dt wins, said so" has_line second_half \
    "opuntia: dt 0.125, that of checkpoint second_half/checkpoint.it2.h5, replaces the dt = 0.5 (set by TimeStepCheck::TimeStepCheck_SetAtBasegrid at CCTK_BASEGRID)"
  check "... and the run ends as the one that never stopped" ended_in_4_steps_of_0.125 second_half
fi
finish
