#!/usr/bin/env bash
# Ghost zones wider than the stencils let SYNC skip exchanges (flesh/runtime/ghost_depths.hpp):
# with ghost zones k times the radius the exchange runs on every k-th SYNC, the fields keep the
# bits of ghost zones of one radius, a host routine that READS a variable everywhere gets every
# SYNC exchanged, and a schedule whose SYNC is missing stops at the schedule item that reads the
# stale ghosts, on every rank alike, printed once.
# Usage: ghost_depths_test.sh OPUNTIA_TEST_THORNS MPIEXEC
# (OPUNTIA_TEST_THORNS: the program with tests/thorns/GhostCheck.)
set -uo pipefail
program=$(realpath "$1")
mpiexec=$2
source_dir=$(realpath "$(dirname "$0")/../..")
. "$(dirname "$0")/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run tests as root
export OMP_NUM_THREADS=1

# run NAME RANKS THORN [LINES...]: THORN for 6 iterations (12 for WaveToy) on a 13x11x9 grid,
# from $work; its output in $work/NAME.out and its exit status in $status.
run() {
  local name=$1 ranks=$2 thorn=$3
  shift 3
  {
    printf 'ActiveThorns = "%s"\nCaKernel::backend = "openmp"\nCactus::progress_every = 0\n' "$thorn"
    printf 'Driver::global_nx = 13\nDriver::global_ny = 11\nDriver::global_nz = 9\nIO::out_dir = "%s"\n' "$name"
    case $thorn in
      GhostCheck) printf 'Cactus::cctk_itlast = 6\nIO::out_digest_vars = "ghostcheck::u"\n' ;;
      WaveToy) printf 'Cactus::cctk_itlast = 12\nTime::dtfac = 0.25\nIO::out_digest_vars = "wavetoy::phi"\n' ;;
    esac
    printf '%s\n' "$@"
  } >"$work/$name.par"
  (cd "$work" && timeout 120 "$mpiexec" --oversubscribe -np "$ranks" "$program" "$name.par" >"$name.out" 2>&1)
  status=$?
}
# calls NAME ROW: the calls column of the timer report's row ROW (0 when there is none); its first
# section, the whole run's (the steady-state one after it repeats the row for the later iterations).
calls() {
  local n
  n=$(grep -F "  $2 " "$work/$1.out" | head -n 1 | awk '{print $(NF-2)}')
  echo "${n:-0}"
}
exchanges_and_skips() {  # NAME EXCHANGES SKIPPED
  [ "$(calls "$1" 'SYNC: pack (and stage to host)')" = "$2" ] &&
    [ "$(calls "$1" 'SYNC: none needed, ghost zones still current')" = "$3" ]
}
digest() { grep '^INFO (IO): digest of ' "$work/$1.out"; }
same_digest() { [ -n "$(digest "$1")" ] && [ "$(digest "$1")" = "$(digest "$2")" ]; }

for ghosts in 1 2 3; do
  run "ghosts_$ghosts" 2 GhostCheck "Driver::ghost_size = $ghosts"
  check "ghost zones $ghosts wide: the run ends" test "$status" -eq 0
done
check "ghost zones of the radius: all 6 SYNCs exchange" exchanges_and_skips ghosts_1 6 0
check "twice the radius: every 2nd SYNC exchanges" exchanges_and_skips ghosts_2 3 3
check "three times the radius: every 3rd SYNC exchanges" exchanges_and_skips ghosts_3 2 4
check "twice the radius: the fields of ghost zones of the radius" same_digest ghosts_1 ghosts_2
check "three times the radius: the same fields" same_digest ghosts_1 ghosts_3

run x_only 2 GhostCheck "Driver::ghost_size_x = 2" "Driver::ghost_size_y = 1" "Driver::ghost_size_z = 1"
check "2 wide along x, the split axis, 1 along the others: every 2nd SYNC exchanges" exchanges_and_skips x_only 3 3
run y_wide 2 GhostCheck "Driver::ghost_size_y = 3" "Driver::periodic_y = yes"
check "3 wide along y (periodic) but 1 along x (split): every SYNC exchanges" exchanges_and_skips y_wide 6 0
# Across a periodic face a ghost point's coordinates are a period away from its image's: what a
# kernel computes there does not count, so a periodic direction exchanges on every SYNC.
run periodic_wide 2 GhostCheck "Driver::ghost_size = 2" "Driver::periodic_x = yes"
check "2 wide, x split and periodic: every SYNC exchanges" exchanges_and_skips periodic_wide 6 0

run reads_everywhere 2 GhostCheck "Driver::ghost_size = 2" "GhostCheck::read_ghosts = 1"
check "a host routine that READS u(everywhere): every SYNC exchanges" exchanges_and_skips reads_everywhere 6 0
check "... and the fields are the same" same_digest ghosts_1 reads_everywhere

run wavetoy_1 1 WaveToy
run wavetoy_2 3 WaveToy "Driver::ghost_size = 2"
run wavetoy_3 3 WaveToy "Driver::ghost_size = 3"
# WaveToy reads two levels: the SYNC exchanges when the older one is no longer deep enough either.
# Its boundary kernel writes the physical faces' slabs across the ghost zones too, where the
# neighbour computes the same points.
check "WaveToy, 3 ranks, ghost zones 2 wide: 4 of 12 SYNCs skipped" exchanges_and_skips wavetoy_2 8 4
check "WaveToy, 3 ranks, ghost zones 3 wide: 6 of 12 skipped" exchanges_and_skips wavetoy_3 6 6
check "... with the fields of 1 rank" same_digest wavetoy_1 wavetoy_2
check "... 3 wide too" same_digest wavetoy_1 wavetoy_3
# Thin blocks: 7 ranks leave the last x block 1 point thick, which WaveToy_Boundary rewrites after
# the SYNC though the neighbour holds it as a ghost (this ran on with other fields than 1 rank's);
# 6 ranks leave it 2, as the ghost zone and the boundary's slab need.
run wavetoy_thin 7 WaveToy
check "WaveToy, 7 ranks, a block at the physical face 1 point thick: the run fails" test "$status" -eq 1
check "... at the item that reads, saying why and what would do" grep -qF "/thorns/WaveToy/schedule.ccl:9:1: error: kernel \
WaveToy_Evolve reads wavetoy::phi_p 1 point across the upper x faces between the ranks' blocks, but only 0 of its ghost \
layers there are current since WaveToy_Boundary computed it: the blocks at the physical upper x face are 1 point thick, \
and WaveToy_Boundary rewrites the 1 nearest that face, which the neighbouring blocks hold as ghosts: a SYNC of \
wavetoy::scalarevolve after WaveToy_Boundary, or fewer ranks along x (Driver::processor_topology), would keep them \
current" "$work/wavetoy_thin.out"
check "... once" test "$(grep -c 'error: kernel WaveToy_Evolve' "$work/wavetoy_thin.out")" -eq 1
run wavetoy_6 6 WaveToy
check "WaveToy, 6 ranks, the last block 2 points thick: the fields of 1 rank" same_digest wavetoy_1 wavetoy_6
run wavetoy_periodic_1 1 WaveToy "Driver::periodic = yes"
run wavetoy_periodic_3 3 WaveToy "Driver::periodic = yes" "Driver::ghost_size = 3"
check "WaveToy, periodic, 3 ranks, ghost zones 3 wide: every SYNC exchanges" exchanges_and_skips wavetoy_periodic_3 12 0
check "... with the fields of 1 rank, ghost zones 1 wide" same_digest wavetoy_periodic_1 wavetoy_periodic_3

# GhostCheck's kernel has a 3dstencil variant (its body reads along the axes only): with ghost
# zones one radius wide, SYNC fills the faces only, in one round, with the bits of one rank.
run faces_1 1 GhostCheck "Driver::periodic = yes"
for ranks in 2 4 8; do
  run "faces_$ranks" "$ranks" GhostCheck "Driver::periodic = yes"
  check "faces only, periodic, $ranks ranks: the fields of 1 rank" same_digest faces_1 "faces_$ranks"
done
check "... and the start-up report says so" grep -qxF \
  "  SYNC fills the faces only, one round (every reader stencils along the axes): ghostcheck::u" "$work/faces_4.out"
check "with a host routine that READS u(everywhere), edges and corners too" \
  bash -c '! grep -q "faces only" "$1"' _ "$work/reads_everywhere.out"
run faces_off 4 GhostCheck "Driver::periodic = yes" "Driver::sync_faces_only = no"
check "Driver::sync_faces_only = no: edges and corners, the same fields" same_digest faces_1 faces_off
check "... and no faces-only line" bash -c '! grep -q "faces only" "$1"' _ "$work/faces_off.out"

run missing_sync 2 GhostCheck "GhostCheck::sync = 0"
check "a SYNC missing between two stencil updates: the run fails" test "$status" -eq 1
expected="$source_dir/tests/thorns/GhostCheck/schedule.ccl:20:3: error: kernel GhostCheck_Update reads ghostcheck::u 1 point across the lower x faces between the ranks' blocks, but only 0 of its ghost layers there are current since GhostCheck_Update computed it: a SYNC of ghostcheck::field is missing between them in the schedule
  schedule CAKERNEL_Launch_GhostCheck_Update IN CCTK_EVOL
  ^"
check "... at the schedule item, with the kernel, the variable, the face and the missing SYNC" \
  grep -qxF -- "$(head -1 <<<"$expected")" "$work/missing_sync.out"
check "... and the item's line and caret" bash -c '[[ "$(<"$1")" == *"$2"* ]]' _ "$work/missing_sync.out" "$expected"
check "... once" test "$(grep -c 'error: kernel GhostCheck_Update' "$work/missing_sync.out")" -eq 1
run missing_sync_one_rank 1 GhostCheck "GhostCheck::sync = 0"
check "on one rank without periodic faces nothing is read across a rank face: the run ends" test "$status" -eq 0

finish
