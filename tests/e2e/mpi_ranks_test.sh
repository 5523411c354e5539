#!/usr/bin/env bash
# The driver on several ranks gives the bits of one rank: HeatEquation and WaveToy run under
# mpirun on 1, 2, 3, 4 and 8 ranks (more ranks than cores: --oversubscribe), with the automatic,
# manual and no_x_split topologies, periodic directions or none, odd global sizes, ghost zones
# 1, 2 and 3 times the stencil's radius and rows and planes padded or not
# (Driver::pad_to_cachelines, pad_planes), with device signals or not (Driver::device_signals),
# and each run's fields must have the digest of the one-rank run (IO::out_digest_vars: a hash of
# every point's global index and bits).
# Usage: mpi_ranks_test.sh OPUNTIA MPIEXEC [BACKEND=openmp]
opuntia=$(realpath "$1")
mpiexec=$2
backend=${3:-openmp}
. "$(dirname "$0")/under_mpirun.sh"

base() {  # base APPLICATION: the lines every run of it shares
  case $1 in
    heat) printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 6\nTime::timestep = 0.0005\nIO::out_digest_vars = "heatequation::u"\n' ;;
    wavetoy) printf 'ActiveThorns = "WaveToy"\nCactus::cctk_itlast = 6\nTime::dtfac = 0.25\nIO::out_digest_vars = "wavetoy::phi"\nWaveToy::wave_number_y = 0.5\n' ;;
  esac
  printf 'CaKernel::backend = "%s"\nCactus::progress_every = 0\nCactus::cctk_timer_output = "off"\nDriver::global_nx = 13\nDriver::global_ny = 11\nDriver::global_nz = 9\n' "$backend"
}

# run NAME RANKS APPLICATION [LINES...]: the digest line of the run, in $work/NAME.digest.
run() {
  local name=$1 ranks=$2 application=$3
  shift 3
  { base "$application"; printf '%s\n' "$@"; printf 'IO::out_dir = "%s"\n' "$name"; } >"$work/$name.par"
  (cd "$work" && "$mpiexec" --oversubscribe -np "$ranks" "$opuntia" "$name.par" >"$name.out" 2>&1)
  record_run "$name" $?
}

for application in heat wavetoy; do
  for periodic in no yes; do
    lines=("Driver::periodic = $periodic")
    reference=${application}_${periodic}_1
    check "$application, periodic = $periodic, 1 rank runs" run "$reference" 1 "$application" "${lines[@]}"
    for ranks in 2 3 4 8; do
      name=${application}_${periodic}_$ranks
      run "$name" "$ranks" "$application" "${lines[@]}"
      check "$application, periodic = $periodic, $ranks ranks (automatic): the fields of 1 rank" same_digest "$reference" "$name"
    done
    run "${application}_${periodic}_x" 4 "$application" "${lines[@]}" 'Driver::processor_topology = "no_x_split"'
    check "$application, periodic = $periodic, 4 ranks, no_x_split: the same fields" same_digest "$reference" "${application}_${periodic}_x"
    run "${application}_${periodic}_m" 6 "$application" "${lines[@]}" 'Driver::processor_topology = "manual"' \
      'Driver::processor_topology_3d_x = 3' 'Driver::processor_topology_3d_y = 2'
    check "$application, periodic = $periodic, 6 ranks, manual 3x2x1: the same fields" same_digest "$reference" "${application}_${periodic}_m"
    # Rows padded to 128-byte lines (the default), to 64-byte ones, or not at all; planes of an
    # odd number of rows (the default: the blocks of several ranks have even ones) or as many
    # rows as points: the same fields.
    run "${application}_${periodic}_unpadded" 1 "$application" "${lines[@]}" 'Driver::pad_to_cachelines = "no"' \
      'Driver::pad_planes = "no"'
    check "$application, periodic = $periodic, 1 rank, rows and planes unpadded: the same fields" same_digest "$reference" "${application}_${periodic}_unpadded"
    run "${application}_${periodic}_planes" 4 "$application" "${lines[@]}" 'Driver::pad_planes = "no"'
    check "$application, periodic = $periodic, 4 ranks, planes unpadded: the same fields" same_digest "$reference" "${application}_${periodic}_planes"
    run "${application}_${periodic}_line64" 3 "$application" "${lines[@]}" 'Driver::cacheline_bytes = 64' 'Driver::ghost_size = 2'
    check "$application, periodic = $periodic, 3 ranks, rows on 64-byte lines: the same fields" same_digest "$reference" "${application}_${periodic}_line64"
    # With Driver::device_signals, ranks on different GPUs of a node signal each other through
    # counters instead of messages; ranks sharing one GPU (as on a one-GPU machine) and CPUs keep
    # the messages: the same fields either way.
    for ranks in 2 8; do
      run "${application}_${periodic}_signals$ranks" "$ranks" "$application" "${lines[@]}" 'Driver::device_signals = "yes"'
      check "$application, periodic = $periodic, $ranks ranks, device signals: the same fields" \
        same_digest "$reference" "${application}_${periodic}_signals$ranks"
    done
    for ghosts in 2 3; do
      run "${application}_${periodic}_g$ghosts" 4 "$application" "${lines[@]}" "Driver::ghost_size = $ghosts"
      check "$application, periodic = $periodic, 4 ranks, ghost zones $ghosts wide: the same fields" \
        same_digest "$reference" "${application}_${periodic}_g$ghosts"
    done
  done
done

# The driver names its topology, and refuses one that does not split the ranks.
check "the start-up line names the topology" grep -qF "driver Cartesian, 8 ranks (2x2x2)" "$work/wavetoy_no_8.out"
run bad_manual 4 wavetoy 'Driver::processor_topology = "manual"' 'Driver::processor_topology_3d_x = 3'
check "a manual topology that does not split the ranks fails" test $? -ne 0
check "... naming the parameters and values" grep -qxF \
  'bad_manual.par:12:30: error: Driver::processor_topology = "manual" with processor_topology_3d_x/y/z = 3/0/0 does not split 4 ranks: 4 is not a multiple of 3; Driver::processor_topology_3d_x set at bad_manual.par:13:35' \
  "$work/bad_manual.out"
run thin_blocks 4 wavetoy 'Driver::processor_topology = "manual"' 'Driver::processor_topology_3d_z = 4' 'Driver::ghost_size = 3'
check "blocks thinner than their ghost zones are refused, with the parameters" grep -qxF \
  'thin_blocks.par:11:21: error: 4 ranks along z leave blocks of 2 points, thinner than the ghost zones of 3 they fill: use fewer ranks along z, narrower ghost zones or a larger grid; Driver::processor_topology set at thin_blocks.par:12:30, Driver::ghost_size set at thin_blocks.par:14:22' \
  "$work/thin_blocks.out"
run bad_line 1 wavetoy 'Driver::cacheline_bytes = 24'
check "a cache line that is not a multiple of 16 bytes is refused" grep -qF \
  'bad_line.par:12:27: error: value 24 of '"'"'Driver::cacheline_bytes'"'"' is outside every range: 16:4096:16 :: "a multiple of 16"' "$work/bad_line.out"
run narrow_ghosts 2 wavetoy 'Driver::processor_topology = "manual"' 'Driver::processor_topology_3d_z = 2' 'Driver::ghost_size = 0'
check "ghost zones narrower than a kernel's STENCIL on a rank face are refused" test $? -ne 0
check "... naming the kernel, the face and the ghost width" grep -qF \
  "error: kernel WaveToy_Evolve reads 1 point across the upper z face of a rank's block, but the ghost zones there are 0 wide (Driver::ghost_size, or Driver::ghost_size_z): the owned points next to the face would never be computed; set the ghost width to at least 1" \
  "$work/narrow_ghosts.out"
check "a topology error every rank finds is printed once" test "$(grep -c ': error: ' "$work/bad_manual.out")" -eq 1

finish
