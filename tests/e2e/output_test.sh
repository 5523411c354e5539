#!/usr/bin/env bash
# IOHDF5 and IOASCII write what the run computed: tests/thorns/OutputCheck's fields (vertex-, cell-
# and face-centred reals and an integer, every value exact) on an odd grid, read back with h5py
# (tests/e2e/output_check.py: dataset names, shapes, types, attributes, every value; the XDMF
# parsed; the CSV lines against the HDF5 data) and opened in ParaView through the XDMF files where
# pvpython is installed. Under mpirun, 3 and 4 ranks, writing collectively or through rank 0,
# write the files of 1 rank bit for bit. Then IO::out_every, a second run into the same folder,
# and the errors: unknown names, a scalar, a line outside the grid, an output folder or a file
# that cannot be written.
# Usage: output_test.sh OPUNTIA_OUTPUT_CHECK [MPIEXEC]
program=$(realpath "$1")
mpiexec=$2
here=$(dirname "$(realpath "$0")")
. "$here/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run tests as root
export OMP_NUM_THREADS=1

require_python_with_h5py

base() {  # the lines every run shares: 20 of them
  printf '%s\n' 'ActiveThorns = "OutputCheck IOHDF5 IOASCII"' 'Cactus::cctk_itlast = 2' \
    'Cactus::progress_every = 0' 'Cactus::cctk_timer_output = "off"' 'CaKernel::backend = "openmp"' \
    'Driver::global_nx = 13' 'Driver::global_ny = 11' 'Driver::global_nz = 9' \
    'Driver::xmin = -1' 'Driver::xmax = 0.5' 'Driver::ymin = 0' 'Driver::ymax = 2.5' \
    'Driver::zmin = -2' 'Driver::zmax = 2' 'Time::timestep = 0.25' \
    'IOHDF5::out_vars = "outputcheck::v outputcheck::staggered_fields outputcheck::f outputcheck::n"' \
    'IOHDF5::out_every = 1' 'IOASCII::out1D_vars = "outputcheck::v outputcheck::c outputcheck::f outputcheck::n"' \
    'IOASCII::out1D_every = 1' 'Cactus::cctk_run_title = "output test"'
}

# attempt NAME RANKS [LINES...]: runs into $work/NAME, its output in $work/NAME.out and its exit
# status in $status; 1 rank runs without mpirun. run: the same, saying why when it fails.
attempt() {
  local name=$1 ranks=$2
  shift 2
  { base; [ $# -eq 0 ] || printf '%s\n' "$@"; printf 'IO::out_dir = "%s"\n' "$name"; } >"$work/$name.par"
  if [ "$ranks" -eq 1 ]; then
    (cd "$work" && "$program" "$name.par" >"$name.out" 2>&1)
  else
    (cd "$work" && "$mpiexec" --oversubscribe -np "$ranks" "$program" "$name.par" >"$name.out" 2>&1)
  fi
  status=$?
}
run() {
  attempt "$@"
  [ $status -eq 0 ] || { echo "run $1 exited with $status:"; tail -5 "$work/$1.out"; }
  return $status
}
check_files() { (cd "$work" && "$python" "$here/output_check.py" check "$@"); }
same_files() { (cd "$work" && "$python" "$here/output_check.py" same "$1" "$2"); }
# fails NAME TEXT: the last attempt failed, printed TEXT as a whole line, and left no HDF5, XDMF
# or CSV file.
fails() {
  [ $status -ne 0 ] && grep -qxF "$2" "$work/$1.out" &&
    [ -z "$(find "$work/$1" -name '*.h5' -o -name '*.xmf' -o -name '*.csv' 2>/dev/null)" ] ||
    { echo "exit status $status; printed:"; cat "$work/$1.out"; return 1; }
}

check "1 rank runs" run one 1
check "1 rank: HDF5 datasets, attributes and values; XDMF; CSV lines equal to the HDF5 data" \
  check_files one --iterations 0,1,2 --pvpython-expect one.json
if command -v pvpython >/dev/null; then
  check "ParaView opens the XDMF files: times, bounds, values" pvpython "$here/output_pvpython.py" "$work/one.json"
else
  echo "SKIPPED: pvpython is not installed (Debian paraview, python3-paraview): the XDMF files were not opened in ParaView"
fi

run lines 1 'IOASCII::out1D_xline_y = 1.0' 'IOASCII::out1D_xline_z = -0.4'
check "lines along x through given coordinates: the nearest points" check_files lines --iterations 0,1,2 \
  --xline-y 1.0 --xline-z -0.4
check "a periodic z (8 points owned of 9) on 1 rank" run periodic 1 'Driver::periodic_z = yes'
check "... the datasets hold the owned points" check_files periodic --iterations 0,1,2 --periodic-z

if [ -n "$mpiexec" ]; then
  check "4 ranks run" run four 4
  check "4 ranks say at start-up how they write" grep -qE \
    '^INFO \(IOHDF5\): HDF5 [0-9.]+ (\(parallel\): the 4 ranks write their parts of each dataset together \(collective MPI-IO\)|\(serial\): the 4 ranks send their data to rank 0, which writes every file)$' \
    "$work/four.out"
  check "4 ranks: the files of 1 rank, bit for bit" same_files one four
  run four_rank0 4 'IOHDF5::collective_io = no'
  check "4 ranks through rank 0 say so at start-up" grep -qE \
    '^INFO \(IOHDF5\): HDF5 [0-9.]+ \((serial|parallel)\): the 4 ranks send their data to rank 0, which writes every file' \
    "$work/four_rank0.out"
  check "4 ranks through rank 0: the files of 1 rank" same_files one four_rank0
  run lines_four 4 'IOASCII::out1D_xline_y = 1.0' 'IOASCII::out1D_xline_z = -0.4'
  check "4 ranks: the lines through given coordinates of 1 rank" same_files lines lines_four
  run periodic_three 3 'Driver::periodic_z = yes' 'Driver::processor_topology = "manual"' \
    'Driver::processor_topology_3d_z = 3'
  check "3 ranks along a periodic z: the files of 1 rank" same_files periodic periodic_three
fi

# IOHDF5::out_every = -1 takes IO::out_every; 0 writes nothing.
run every 1 'Cactus::cctk_itlast = 5' 'IOHDF5::out_every = -1' 'IO::out_every = 2' 'IOASCII::out1D_every = 0'
datasets() { (cd "$work" && "$python" -c 'import h5py, sys; print(" ".join(sorted(h5py.File(sys.argv[1]).keys())))' "$1"); }
check "IOHDF5::out_every = -1 writes every IO::out_every iterations" \
  test "$(datasets every/v.h5)" = "OUTPUTCHECK::v it=0 tl=0 OUTPUTCHECK::v it=2 tl=0 OUTPUTCHECK::v it=4 tl=0 xdmf"
check "IOASCII::out1D_every = 0 writes no line" test -z "$(find "$work/every" -name '*.csv')"
check "... and says, before the run, that its variables are never written" grep -qxF \
  "WARNING (IOASCII): IOASCII::out1D_vars names 4 variables, but IOASCII::out1D_every = 0: none is written" \
  "$work/every.out"
run all_vars 1 'Cactus::cctk_itlast = 1' 'IOHDF5::out_vars = "all"'
check "IOHDF5::out_vars = \"all\" writes every CCTK_REAL grid function with storage" \
  test "$(cd "$work/all_vars" && ls *.h5 | xargs)" = "c.h5 c2.h5 f.h5 v.h5"
run never 1 'Cactus::cctk_itlast = 1' 'IOHDF5::out_every = -1'
check "IOHDF5::out_every = -1 with IO::out_every at its default 0 says that nothing is written" grep -qxF \
  "WARNING (IOHDF5): IOHDF5::out_vars names 5 variables, but IOHDF5::out_every = -1 takes IO::out_every, which is 0: none is written (set IO::out_every or IOHDF5::out_every)" \
  "$work/never.out"
# A second run into the same folder starts its files anew.
run one 1 'Cactus::cctk_itlast = 1'
check "a second run into the same folder replaces the files" check_files one --iterations 0,1

# Errors, at the parameter's line (the base has 20 lines), before anything is written.
attempt unknown 1 'IOHDF5::out_vars = "outputcheck::vv"'
check "an unknown variable in IOHDF5::out_vars is an error, with the nearest names" fails unknown \
  "unknown.par:21:21: error: IOHDF5::out_vars: unknown grid function or group 'outputcheck::vv' in thorn IOHDF5; did you mean 'OutputCheck::v', 'OutputCheck::c' or 'OutputCheck::c2'?"
attempt commas 1 'IOASCII::out1D_vars = "outputcheck::v,outputcheck::c"'
check "names separated by commas are an error that says so" fails commas \
  "commas.par:21:24: error: IOASCII::out1D_vars: 'outputcheck::v,outputcheck::c': the names of a list are separated by blanks, not commas"
attempt lone_comma 1 'IOHDF5::out_vars = "outputcheck::v , outputcheck::c"'
check "... a comma between blanks too" fails lone_comma \
  "lone_comma.par:21:36: error: IOHDF5::out_vars: ',': the names of a list are separated by blanks, not commas"
attempt unknown_group 1 'IOASCII::out1D_vars = "outputcheck::staggered_field"'
check "an unknown group in IOASCII::out1D_vars is an error, with the nearest names" fails unknown_group \
  "unknown_group.par:21:24: error: IOASCII::out1D_vars: unknown grid function or group 'outputcheck::staggered_field' in thorn IOASCII; did you mean 'OutputCheck::staggered_fields', 'OutputCheck::vertex_field' or 'OutputCheck::face_field'?"
attempt scalar 1 'IOHDF5::out_vars = "outputcheck::s"'
check "a SCALAR in IOHDF5::out_vars is an error" fails scalar \
  "scalar.par:21:21: error: IOHDF5::out_vars: OutputCheck::s is in a group of type SCALAR: only grid functions (GF) are written"
attempt outside 1 'IOASCII::out1D_xline_y = 7'
check "a line outside the grid is an error" fails outside \
  "outside.par:21:26: error: IOASCII::out1D_xline_y = 7: no point of OutputCheck::v is there; its points lie from y = 0 to 2.5"
touch "$work/in_the_way"
attempt in_the_way 1
check "an output folder that is a file is an error before the run" fails in_the_way \
  'in_the_way.par:21:15: error: IO::out_dir = "in_the_way": a file of that name is in the way of the output folder'
mkdir -p "$work/blocked/v.h5"
attempt blocked 1
check "an HDF5 file that cannot be made is an error naming it" grep -qxF \
  "opuntia: error: cannot write blocked/v.h5: Is a directory" "$work/blocked.out"
# (.opuntia.lock stays: the folder's lock, docs/running-a-simulation.md, Output.)
check "... and leaves no temporary file" test -z "$(find "$work/blocked" -name '.*' ! -name .opuntia.lock)"

finish
