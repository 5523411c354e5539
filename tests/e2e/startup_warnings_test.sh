#!/usr/bin/env bash
# Runs that go on but are told, in one line on stderr, what is likely a mistake: no application
# thorn active, nothing scheduled in CCTK_EVOL, more OpenMP threads than free cores; and the
# thread count chosen where OMP_NUM_THREADS is not set.
# Usage: startup_warnings_test.sh OPUNTIA OPUNTIA_TEST_THORNS MPIEXEC|-
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
test_thorns=$(realpath "$2")
mpiexec=$3
host=$(hostname)
export OMP_NUM_THREADS=1  # no thread warning but where a check asks for one

# run NAME PROGRAM LINES...: LINES in $work/NAME.par run by PROGRAM from $work; stdout in
# $work/NAME.out, stderr in $work/NAME.err, the exit status in $status.
run() {
  local name=$1 program=$2
  shift 2
  printf '%s\n' "$@" >"$work/$name.par"
  (cd "$work" && "$program" "$name.par" >"$name.out" 2>"$name.err")
  status=$?
}
stderr_is() { [ "$(cat "$work/$1.err")" = "$2" ]; }
stderr_matches() { [ "$(wc -l <"$work/$1.err")" -eq 1 ] && grep -qxE -- "$2" "$work/$1.err"; }
ran_iterations() { grep -q "^  evolution: $2 iterations in" "$work/$1.out"; }
application_thorns="HeatEquation, WaveToy, LidDrivenCavity"

run no_active_thorns "$opuntia" 'Cactus::cctk_itlast = 2'
check "a run of the infrastructure alone goes on" test $status -eq 0
check "... to its end" ran_iterations no_active_thorns 2
check "... saying that nothing computes" stderr_is no_active_thorns \
  "opuntia: warning: no active thorn declares a grid function, so the run computes nothing: the parameter file has no ActiveThorns line; the thorns of this build that do: $application_thorns"

run no_application "$opuntia" 'ActiveThorns = "IOASCII NaNChecker"' 'Cactus::cctk_itlast = 2' 'Cactus::progress_every = 1'
check "a run of output and checking thorns alone goes on" test $status -eq 0
check "... naming what ActiveThorns named" stderr_is no_application \
  "opuntia: warning: no active thorn declares a grid function, so the run computes nothing: ActiveThorns names IOASCII, NaNChecker; the thorns of this build that do: $application_thorns"
check "... and its progress lines show no rate of lattice updates" \
  grep -qE '^it +2  time [0-9.e-]+ +- GLUP/s  left' "$work/no_application.out"

# PlantNaN has a grid function and schedules nothing in CCTK_EVOL.
run empty_evolution "$test_thorns" 'ActiveThorns = "PlantNaN"' 'Cactus::cctk_itlast = 2'
check "a run with nothing in CCTK_EVOL goes on" test $status -eq 0
check "... to its end" ran_iterations empty_evolution 2
check "... saying that its iterations evolve nothing" stderr_is empty_evolution \
  "opuntia: warning: nothing is scheduled in CCTK_EVOL, so the evolution's iterations evolve nothing (opuntia --show-schedule empty_evolution.par shows what runs when)"
run initial_data_only "$test_thorns" 'ActiveThorns = "PlantNaN"' 'Cactus::cctk_itlast = 0'
check "a run with no iteration needs nothing in CCTK_EVOL" stderr_is initial_data_only ""

run heat "$opuntia" 'ActiveThorns = "HeatEquation"' 'Cactus::cctk_itlast = 2'
check "a run that evolves its thorn, on one thread, warns of nothing" stderr_is heat ""
check "... and its progress lines show its rate" grep -qE '^it +2  time [0-9.e-]+ +[0-9]+\.[0-9]{4} GLUP/s  left' "$work/heat.out"

# Three threads on one core: too many, whatever the load. How many of the cores are free depends
# on what else the machine runs (/proc/loadavg), so those figures are matched, not fixed.
load='( \(load average [0-9]+\.[0-9]{2}, [0-9]+ other tasks? running now\))?'
(cd "$work" && OMP_NUM_THREADS=3 taskset -c 0 "$opuntia" heat.par >threads.out 2>threads.err)
check "a run with more threads than cores goes on" test $? -eq 0
check "... and names its threads in the header" grep -q "^  rank 0 on $host: .*; openmp: 3 threads$" "$work/threads.out"
check "... and warns of them" stderr_matches threads \
  "opuntia: warning: 3 OpenMP threads on 1 core of $host, about [01] free$load: threads beyond the free cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1"

if [ "$mpiexec" != "-" ]; then
  # Two ranks of two threads, both on one core: the launcher leaves them where taskset put it.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  (cd "$work" && OMP_NUM_THREADS=2 taskset -c 0 "$mpiexec" --oversubscribe --bind-to none -x OMP_NUM_THREADS -np 2 \
    "$opuntia" heat.par >ranks.out 2>ranks.err)
  check "two ranks with too many threads go on" test $? -eq 0
  check "... and one line counts the threads of both" stderr_matches ranks \
    "opuntia: warning: 2 ranks run 4 OpenMP threads on 1 core of $host, about [01] free$load: threads beyond the free cores wait for each other at every parallel loop; set OMP_NUM_THREADS=1"

  # Without OMP_NUM_THREADS, three ranks free to run on two cores take one thread each, and a
  # note after the ranks' lines says why; nothing on stderr.
  if [ "$(nproc)" -ge 2 ]; then
    (cd "$work" && env -u OMP_NUM_THREADS taskset -c 0,1 "$mpiexec" --oversubscribe --bind-to none -np 3 \
      "$opuntia" heat.par >shared.out 2>shared.err)
    check "three ranks on two cores, no OMP_NUM_THREADS: they run" test $? -eq 0
    check "... one thread each" test "$(grep -c "^  rank [0-2] on $host: .*; openmp: 1 thread$" "$work/shared.out")" -eq 3
    check "... and a note says why" grep -qE \
      "^  note: 3 ranks share 2 cores of $host, about [0-2] free$load: 1 OpenMP thread each \(OMP_NUM_THREADS sets another count\)$" \
      "$work/shared.out"
    check "... with no warning" stderr_is shared ""
  fi
fi

finish
