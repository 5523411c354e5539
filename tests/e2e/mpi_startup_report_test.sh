#!/usr/bin/env bash
# The start-up report on 1 and 3 ranks: after the grid line, one line per rank, in rank order and
# printed by rank 0 alone, with the rank's host, the points it owns in global indices, its arrays
# with ghost zones, and what its kernels run on.
# Usage: mpi_startup_report_test.sh OPUNTIA MPIEXEC
set -uo pipefail
opuntia=$(realpath "$1")
mpiexec=$2
. "$(dirname "$0")/under_mpirun.sh"
host=$(hostname)

# run NAME RANKS [LINES...]: HeatEquation on 13x11x9 points; its output in $work/NAME.out, its
# warnings apart in NAME.err (a loaded machine's warning of too few free cores for the threads
# would otherwise come between the report's lines).
run() {
  local name=$1 ranks=$2
  shift 2
  {
    printf 'ActiveThorns = "HeatEquation"\nCaKernel::backend = "openmp"\nCaKernel::autotune = "no"\nCactus::cctk_itlast = 2\n'
    printf 'Cactus::progress_every = 0\nCactus::cctk_timer_output = "off"\nTime::timestep = 0.0005\n'
    printf 'Driver::global_nx = 13\nDriver::global_ny = 11\nDriver::global_nz = 9\n'
    printf '%s\n' "$@"
  } >"$work/$name.par"
  (cd "$work" && "$mpiexec" --oversubscribe -np "$ranks" "$opuntia" "$name.par" >"$name.out" 2>"$name.err")
}
# starts_with NAME: the output of run NAME begins with the lines on stdin.
starts_with() {
  local expected
  expected=$(cat)
  diff <(head -n "$(printf '%s\n' "$expected" | wc -l)" "$work/$1.out") <(printf '%s\n' "$expected")
}

check "1 rank runs" run one 1
check "1 rank: its block and its device, word for word" starts_with one <<END
opuntia: one.par
  grid 13x11x9, CCTK_REAL double, dt 0.0005, backend openmp, driver Cartesian, 1 rank
  rank 0 on $host: x 0..12, y 0..10, z 0..8 (13x11x9 points); openmp: 1 thread
INFO (HeatEquation): t = 0.001: max |u - exact| = 4.457738e-05 (relative 4.592e-05), rms = 1.361181e-05
END

run_on_two_threads() { OMP_NUM_THREADS=2 run "$@"; }
check "1 rank, periodic along x, 2 threads runs" run_on_two_threads periodic 1 'Driver::periodic_x = yes'
check "1 rank, periodic along x: it owns one point less, its arrays hold the images" starts_with periodic <<END
opuntia: periodic.par
  grid 13x11x9, CCTK_REAL double, dt 0.0005, backend openmp, driver Cartesian, 1 rank
  rank 0 on $host: x 0..11, y 0..10, z 0..8 (12x11x9 points, 14x11x9 with ghost zones); openmp: 2 threads
END

check "3 ranks run" run three 3
check "3 ranks: each rank's block, in rank order, word for word" starts_with three <<END
opuntia: three.par
  grid 13x11x9, CCTK_REAL double, dt 0.0005, backend openmp, driver Cartesian, 3 ranks (3x1x1)
  rank 0 on $host: x 0..4, y 0..10, z 0..8 (5x11x9 points, 6x11x9 with ghost zones); openmp: 1 thread
  rank 1 on $host: x 5..8, y 0..10, z 0..8 (4x11x9 points, 6x11x9 with ghost zones); openmp: 1 thread
  rank 2 on $host: x 9..12, y 0..10, z 0..8 (4x11x9 points, 5x11x9 with ghost zones); openmp: 1 thread
INFO (HeatEquation): t = 0.001: max |u - exact| = 4.457738e-05 (relative 4.592e-05), rms = 1.361181e-05
END
check "3 ranks: the report is printed once" test "$(grep -c '^  rank ' "$work/three.out")" -eq 3
check "3 ranks: the host's cores are not a shared device" test "$(grep -c 'note:' "$work/three.out")" -eq 0

check "3 ranks, manual 1x1x3 runs" run manual 3 'Driver::processor_topology = "manual"' 'Driver::processor_topology_3d_z = 3'
check "3 ranks, manual 1x1x3: the blocks split z" starts_with manual <<END
opuntia: manual.par
  grid 13x11x9, CCTK_REAL double, dt 0.0005, backend openmp, driver Cartesian, 3 ranks (1x1x3)
  rank 0 on $host: x 0..12, y 0..10, z 0..2 (13x11x3 points, 13x11x4 with ghost zones); openmp: 1 thread
  rank 1 on $host: x 0..12, y 0..10, z 3..5 (13x11x3 points, 13x11x5 with ghost zones); openmp: 1 thread
  rank 2 on $host: x 0..12, y 0..10, z 6..8 (13x11x3 points, 13x11x4 with ghost zones); openmp: 1 thread
END

finish
