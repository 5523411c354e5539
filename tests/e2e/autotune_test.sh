#!/usr/bin/env bash
# CaKernel::autotune: the lid-driven cavity's kernels have two variants (3dblock, 3dstencil); the
# first launch on a grid measures both, then the tiles of the faster one (and of the other where
# it is within 15%) from the descriptor's TILE (OpenMP's launchers choose their tile at run time),
# and keeps the choice in the cache. The choice never changes the fields; the cache survives two
# processes at once and a damaged entry.
# With `opencl` or `cuda`, the same for that backend's launchers (OpenCL on pocl here, CUDA on a
# GPU): tiles measured, the same fields; on two ranks, the boxes a kernel computes in parts (rim,
# then interior) each measured on its own.
# Usage: autotune_test.sh OPUNTIA MPIEXEC|- [opencl|cuda]
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
mpiexec=$2
export OMP_NUM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run tests as root

# run NAME AUTOTUNE [CACHE]: a 2D cavity of 24^2 cells, 30 iterations, on $backend; stdout in
# $work/NAME.out.
backend=openmp
run() {
  local name=$1 autotune=$2 cache=${3:-cache}
  cat >"$work/$name.par" <<PAR
ActiveThorns = "LidDrivenCavity"
CaKernel::backend = "$backend"
CaKernel::autotune = "$autotune"
CaKernel::cache_dir = "$cache"
Driver::global_nx = 26
Driver::global_ny = 26
Driver::global_nz = 3
Driver::xmin = -0.041666666666666664
Driver::ymin = -0.041666666666666664
Driver::zmin = -0.041666666666666664
Driver::zmax = 0.041666666666666664
LidDrivenCavity::dimensions = 2
LidDrivenCavity::diagnostics_every = 0
Cactus::cctk_itlast = 30
Cactus::progress_every = 0
IO::out_digest_vars = "LidDrivenCavity::vx LidDrivenCavity::p"
PAR
  (cd "$work" && "$opuntia" "$name.par" >"$name.out" 2>&1)
}
digest() { grep '^INFO (IO): digest of ' "$work/$1.out"; }
same_fields() { [ -n "$(digest "$1")" ] && [ "$(digest "$1")" = "$(digest "$2")" ]; }
# The variants measured with the descriptor's TILE, then the tiles of those within 15% of the
# fastest from it.
# (OpenCL's and CUDA's launchers also choose how many planes they load ahead, ", ahead N", and how
# many x points a thread owns, ", lanes N". The variants measured are those of the pressure's TYPE
# that the backend has: OpenCL adds 3dblock_ring, CUDA also its capped and unrolled ones.)
variants_measured="3dstencil [0-9.]+ ms, 3dblock [0-9.]+ ms"
measured() {
  grep -qE "^autotune: LidDrivenCavity::LDC_Pressure on 26x26x3 points: 3d[a-z_]*, tile [0-9]+x[0-9]+x[0-9]+(, ahead [1-4])?(, lanes [1-4])? \(measured: ${variants_measured}; shapes of 3d[a-z_]* from [0-9]+x[0-9]+x[0-9]+( ahead [1-4])?( lanes [1-4])?: .* ms.*\)$" "$work/$1.out"
}
cached() { grep -qE "^autotune: LidDrivenCavity::LDC_Pressure on 26x26x3 points: 3d[a-z_]*, tile [0-9x]+(, ahead [1-4])?(, lanes [1-4])? \(cached in " "$work/$1.out"; }
entries() { find "$work/${1:-cache}" -name '*.clbin' | wc -l; }

if [ "${3:-}" = opencl ] || [ "${3:-}" = cuda ]; then
  backend=$3
  variants_measured="3dstencil [0-9.]+ ms, 3dblock_ring [0-9.]+ ms, 3dblock [0-9.]+ ms"
  [ "$backend" = cuda ] && variants_measured="3dstencil_capped [0-9.]+ ms, $variants_measured, 3dblock_unrolled [0-9.]+ ms, 3dstencil_unrolled [0-9.]+ ms"
  run untuned no
  run tuned always
  check "$backend: autotune = always measures each variant, then tiles and depths" measured tuned
  check "... and the fields are the untuned run's, bit for bit" same_fields tuned untuned
  if [ "$mpiexec" != - ]; then
    # Two ranks: the kernels run their rim first and the interior while the SYNC exchanges the
    # rim, and each box's size is a question of its own (variants only: autotune_seconds = 0; a
    # box then keeps its own launch, which the note names by its variant alone).
    sed 's/^CaKernel::autotune = .*/CaKernel::autotune = "always"\nCaKernel::autotune_seconds = 0/' \
      "$work/tuned.par" >"$work/ranks.par"
    (cd "$work" && "$mpiexec" --oversubscribe -np 2 "$opuntia" ranks.par >ranks.out 2>&1)
    box_measured() {
      grep -qE "^autotune: LidDrivenCavity::LDC_Pressure on a [0-9]+x[0-9]+x3 box of [0-9]+x[0-9]+x3 points: 3d[a-z_]*(, tile [0-9x]+, ahead [1-4](, lanes [1-4])?)? \(measured: ${variants_measured}[;)]" "$work/ranks.out"
    }
    check "2 ranks on $backend: the rim's and the interior's boxes are measured apart" box_measured
    check "... and the fields are 1 rank's untuned, bit for bit" same_fields ranks untuned
  fi
  [ -n "${KEEP:-}" ] && cp "$work"/*.out /tmp/
  finish
  exit
fi

run untuned no
check "autotune = no runs the descriptor's first variant, silently" bash -c "! grep -q autotune '$work/untuned.out'"
check "... and writes no cache" test ! -e "$work/cache"
run first cached
check "cached, first run: each kernel with two variants is measured and named" measured first
check "... the choices are stored, an entry a kernel" test "$(entries)" -eq "$(grep -c '^autotune:' "$work/first.out")"
check "... the fields are the untuned run's, bit for bit" same_fields first untuned
# The measuring is reported apart from the kernels' routines: a row of its own, a launch a choice.
tuning_row() { grep -E "^  autotuning: first launches measured +CaKernel +$(grep -c '^autotune:' "$work/$1.out") " "$work/$1.out"; }
check "... the timer report counts the measuring apart, a first launch a choice" tuning_row first
run second cached
check "cached, second run: the choices come from the cache" cached second
check "... nothing is measured" bash -c "! grep -q 'measured:' '$work/second.out'"
check "... the same fields" same_fields second untuned
run again always
check "always measures again, cache or not" measured again
check "... the same fields" same_fields again untuned

# A damaged entry: its bytes changed (the checksum no longer matches) or cut short.
for entry in "$work"/cache/*.clbin; do printf 'garbage' | dd of="$entry" bs=1 seek=20 conv=notrunc 2>/dev/null; done
run damaged cached
check "a damaged entry is measured again, not trusted" measured damaged
check "... and the fields are the same" same_fields damaged untuned
run repaired cached
check "... and stored again: the next run takes it from the cache" cached repaired
for entry in "$work"/cache/*.clbin; do truncate -s 10 "$entry"; done
run truncated cached
check "an entry cut short is measured again" measured truncated

# Two processes at once on an empty cache: both run, the cache ends with one whole entry a kernel.
(run racer_a cached race) & (run racer_b cached race) & wait
check "two runs at once on one cache both finish" bash -c "grep -q digest '$work/racer_a.out' && grep -q digest '$work/racer_b.out'"
check "... with the same fields" same_fields racer_a racer_b
check "... leaving no temporary file" test -z "$(find "$work/race" -name '*.tmp*')"
run after_race cached race
check "... and whole entries the next run takes" cached after_race

# A value CaKernel::autotune does not have: an error at its line, naming the valid ones.
printf 'ActiveThorns = "LidDrivenCavity"\nCaKernel::autotune = "sometimes"\n' >"$work/bad.par"
(cd "$work" && "$opuntia" bad.par >bad.out 2>&1)
check "autotune = sometimes is refused" test $? -ne 0
check "... at its line and column, naming the values" grep -qF "bad.par:2:22: error: value 'sometimes' of 'CaKernel::autotune' is not one of its values: \"no\" :: \"the first variant the descriptor lists" "$work/bad.out"

if [ "$mpiexec" != - ]; then
  cat "$work/first.par" >"$work/ranks.par"
  (cd "$work" && "$mpiexec" --oversubscribe -np 2 "$opuntia" ranks.par >ranks.out 2>&1)
  check "2 ranks, tuned: the fields of 1 rank untuned" same_fields ranks untuned
fi
finish
