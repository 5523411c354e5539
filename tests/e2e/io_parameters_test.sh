#!/usr/bin/env bash
# Every parameter of IO, IOHDF5, IOASCII and NaNChecker is set by this test and has one
# observable effect checked (files written or not, their iterations and variables, a value,
# checkpoints and which one a run recovers from, printed digests and norms, NaNChecker's
# actions); every value of a KEYWORD too. The parameters are read from the thorns' param.ccl
# files, so that one added there without a check here fails the test. The deep checks live in
# output_test.sh, checkpoint_test.sh and nan_checker_test.sh; this one is about completeness.
# Every run is strict (--parameter-level strict): a parameter set and never read fails it.
# Usage: io_parameters_test.sh OPUNTIA_TEST_THORNS SOURCE_DIR [MPIEXEC]
program=$(realpath "$1")
source_dir=$(realpath "$2")
mpiexec=${3:-}
. "$(dirname "$0")/under_mpirun.sh"

require_python_with_h5py
audited_files=(thorns/IO/param.ccl thorns/IOHDF5/param.ccl thorns/IOASCII/param.ccl thorns/NaNChecker/param.ccl)

# check_parameter SETTING WHAT COMMAND...: `check`, recording that SETTING ("IO::out_dir", or
# 'IO::recover = "auto"' for a value of a KEYWORD) is exercised.
exercised=()
check_parameter() {
  exercised+=("$1")
  check "$1: $2" "${@:3}"
}

# run NAME RANKS [LINES...]: the parameter file $work/NAME.par of the common lines and LINES,
# run in $work on RANKS ranks (1: without mpirun); output in $work/NAME.out, status in $status.
# Strict: a parameter set and never read (one that did nothing in the run) is an error.
# The timer report is off unless LINES set Cactus::cctk_timer_output.
run() {
  local name=$1 ranks=$2 timers=('Cactus::cctk_timer_output = "off"')
  shift 2
  printf '%s\n' "$@" | grep -q '^Cactus::cctk_timer_output' && timers=()
  printf '%s\n' 'Cactus::progress_every = 0' "${timers[@]}" 'CaKernel::backend = "openmp"' "$@" >"$work/$name.par"
  if [ "$ranks" -eq 1 ]; then
    (cd "$work" && timeout 120 "$program" --parameter-level strict "$name.par" >"$name.out" 2>&1)
  else
    (cd "$work" && timeout 120 "$mpiexec" --oversubscribe -np "$ranks" "$program" --parameter-level strict "$name.par" \
      >"$name.out" 2>&1)
  fi
  status=$?
  last_run=$name
}
# ended_with STATUS: the last run did, or its exit status and the end of its output are printed.
ended_with() { [ "$status" -eq "$1" ] || { echo "run $last_run exited with $status:"; tail -5 "$work/$last_run.out"; return 1; }; }
has_line() { grep -qxF -- "$2" "$work/$1.out"; }
lacks() { ! grep -qF -- "$2" "$work/$1.out"; }
# matching NAME REGEX: the lines of run NAME's output that match, joined by blanks.
matching() { grep -E -- "$2" "$work/$1.out" | paste -sd ' '; }
# files DIR GLOB: the files of $work/DIR matching GLOB, sorted, joined by blanks.
files() { (cd "$work/$1" 2>/dev/null && ls -d $2 2>/dev/null | sort | xargs); }
# equals ACTUAL EXPECTED: says what it got when they differ.
equals() { [ "$1" = "$2" ] || { echo "  got:      '$1'"; echo "  expected: '$2'"; return 1; }; }

# --- Output: tests/thorns/OutputCheck's fields (v = x + 2 y + 4 z + 8 t, exact) on the grid of
# output_test.sh: x from -1 by 0.125 (13 points), y from 0 by 0.25 (11), z from -2 by 0.5 (9).
output_grid=('Driver::global_nx = 13' 'Driver::global_ny = 11' 'Driver::global_nz = 9' 'Driver::xmin = -1'
  'Driver::xmax = 0.5' 'Driver::ymin = 0' 'Driver::ymax = 2.5' 'Driver::zmin = -2' 'Driver::zmax = 2'
  'Time::timestep = 0.25')
run lines 1 'ActiveThorns = "OutputCheck IOHDF5 IOASCII"' "${output_grid[@]}" 'Cactus::cctk_itlast = 4' \
  'IO::out_dir = "runs/$parfile"' 'IO::out_every = 2' \
  'IOHDF5::out_vars = "outputcheck::v"' 'IOHDF5::out_every = 3' \
  'IOASCII::out1D_vars = "outputcheck::v"' 'IOASCII::out1D_every = -1' \
  'IOASCII::out1D_xline_y = 1.5' 'IOASCII::out1D_xline_z = -1.5' 'IOASCII::out1D_yline_x = -0.5' \
  'IOASCII::out1D_yline_z = 1' 'IOASCII::out1D_zline_x = 0.25' 'IOASCII::out1D_zline_y = 0.5' \
  'IO::out_norms_vars = "outputcheck::v"' 'IO::out_norms_every = 3' \
  'IO::out_digest_vars = "outputcheck::staggered_fields"'
check "the output run ends well" ended_with 0
check_parameter IO::out_dir '"runs/$parfile" is runs/lines, where every file goes' \
  equals "$(files runs/lines '*')" "v.h5 v.x.csv v.xmf v.y.csv v.z.csv"
check "... and nothing goes to the default folder, output" test ! -e "$work/output"
datasets() { "$python" -c 'import h5py, sys; print(" ".join(sorted(h5py.File(sys.argv[1]).keys())))' "$work/$1"; }
check_parameter IOHDF5::out_vars 'outputcheck::v alone is written, to v.h5 (and v.xmf)' \
  equals "$(files runs/lines '*.h5 *.xmf')" "v.h5 v.xmf"
check_parameter IOHDF5::out_every '3 writes iterations 0 and 3 of 0 to 4' \
  equals "$(datasets runs/lines/v.h5)" "OUTPUTCHECK::v it=0 tl=0 OUTPUTCHECK::v it=3 tl=0 xdmf"
check "... the values computed at iteration 3: v(-1, 0, -2) = -9 + 8 t = -3, v(0.5, 2.5, 2) = 13.5 + 6" \
  "$python" -c 'import h5py, sys
v = h5py.File(sys.argv[1])["OUTPUTCHECK::v it=3 tl=0"][()]
assert v.shape == (9, 11, 13) and v[0, 0, 0] == -3 and v[-1, -1, -1] == 19.5, (v.shape, v[0, 0, 0], v[-1, -1, -1])' \
  "$work/runs/lines/v.h5"
check_parameter IOASCII::out1D_vars 'outputcheck::v alone is written along x, y and z' \
  equals "$(files runs/lines '*.csv')" "v.x.csv v.y.csv v.z.csv"
# column FILE NAME: the distinct values of column NAME of a CSV file of the run, joined by blanks.
column() {
  "$python" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(sorted({row[sys.argv[2]] for row in rows}, key=float)))' "$work/runs/lines/$1" "$2"
}
check_parameter IOASCII::out1D_every '-1 takes IO::out_every = 2: iterations 0, 2 and 4' \
  equals "$(column v.x.csv iteration)" "0 2 4"
check_parameter IO::out_every '2 is the period of IOASCII::out1D_every = -1: iterations 0, 2 and 4 along z' \
  equals "$(column v.z.csv iteration)" "0 2 4"
check_parameter IOASCII::out1D_xline_y 'the line along x runs at y = 1.5' equals "$(column v.x.csv y)" "1.5"
check_parameter IOASCII::out1D_xline_z 'the line along x runs at z = -1.5' equals "$(column v.x.csv z)" "-1.5"
check_parameter IOASCII::out1D_yline_x 'the line along y runs at x = -0.5' equals "$(column v.y.csv x)" "-0.5"
check_parameter IOASCII::out1D_yline_z 'the line along y runs at z = 1' equals "$(column v.y.csv z)" "1"
check_parameter IOASCII::out1D_zline_x 'the line along z runs at x = 0.25' equals "$(column v.z.csv x)" "0.25"
check_parameter IOASCII::out1D_zline_y 'the line along z runs at y = 0.5' equals "$(column v.z.csv y)" "0.5"
check "... and along its own axis, every point: 13 x values at each of 3 iterations" \
  equals "$(grep -c '^[024],' "$work/runs/lines/v.x.csv")" 39
check_parameter IO::out_norms_vars 'outputcheck::v, its minimum at iteration 0 being v(-1, 0, -2) = -9' \
  grep -qE '^INFO \(IO\): outputcheck::v at iteration 0: minimum -9, maximum 13.5, ' "$work/lines.out"
check_parameter IO::out_norms_every '3 prints the norms at iterations 0 and 3 of 0 to 4' \
  equals "$(matching lines '^INFO \(IO\): [a-z:]+ at iteration' | grep -o 'iteration [0-9]*' | xargs)" \
  "iteration 0 iteration 3"
check_parameter IO::out_digest_vars 'a group: one digest of each of its variables, c and c2, at the last iteration' \
  equals "$(matching lines '^INFO \(IO\): digest of ' | sed -E 's/: [0-9a-f]{16}/: HASH/g')" \
  "INFO (IO): digest of OutputCheck::c at iteration 4: HASH INFO (IO): digest of OutputCheck::c2 at iteration 4: HASH"

# --- IOHDF5::collective_io: with a parallel HDF5 library and several ranks, how they write.
if [ -n "$mpiexec" ]; then
  one_step=('ActiveThorns = "OutputCheck IOHDF5"' "${output_grid[@]}" 'Cactus::cctk_itlast = 0'
    'IOHDF5::out_vars = "outputcheck::v"' 'IOHDF5::out_every = 1')
  run collective 2 "${one_step[@]}" 'IO::out_dir = "collective"' 'IOHDF5::collective_io = yes'
  run through_rank0 2 "${one_step[@]}" 'IO::out_dir = "through_rank0"' 'IOHDF5::collective_io = no'
  if grep -q '^INFO (IOHDF5): HDF5 [0-9.]* (parallel)' "$work/collective.out"; then
    check_parameter IOHDF5::collective_io 'yes: the 2 ranks write together' grep -qE \
      '^INFO \(IOHDF5\): HDF5 [0-9.]+ \(parallel\): the 2 ranks write their parts of each dataset together \(collective MPI-IO\)$' \
      "$work/collective.out"
    check_parameter IOHDF5::collective_io 'no: through rank 0, saying why' grep -qE \
      '^INFO \(IOHDF5\): HDF5 [0-9.]+ \(parallel\): the 2 ranks send their data to rank 0, which writes every file \(IOHDF5::collective_io = no\)$' \
      "$work/through_rank0.out"
    check "... the same dataset either way" "$python" -c 'import h5py, sys
a, b = (h5py.File(path)["OUTPUTCHECK::v it=0 tl=0"][()] for path in sys.argv[1:])
assert (a == b).all()' "$work/collective/v.h5" "$work/through_rank0/v.h5"
  else
    exercised+=(IOHDF5::collective_io)
    echo "SKIPPED: IOHDF5::collective_io: the HDF5 library is serial: the ranks always write through rank 0"
  fi
else
  exercised+=(IOHDF5::collective_io)
  echo "SKIPPED: IOHDF5::collective_io: a build without MPI runs one rank"
fi

# --- Checkpoints and recovery: HeatEquation (one time level) on 9^3 points, 9 iterations.
heat=('ActiveThorns = "HeatEquation IOHDF5"' 'Driver::global_nx = 9' 'Driver::global_ny = 9' 'Driver::global_nz = 9'
  'Time::timestep = 0.0005' 'IO::out_digest_vars = "heatequation::u"' 'IO::out_norms_vars = "heatequation::u"')
# written NAME: the iterations whose checkpoints run NAME wrote, as it said.
written() { sed -n 's/^INFO (IOHDF5): checkpoint .*checkpoint\.it\([0-9]*\)\.h5 written: .*/\1/p' "$work/$1.out" | paste -sd ' '; }
# first_norms NAME: the first iteration whose norms run NAME printed: where it started.
first_norms() { grep -m1 -oE '^INFO \(IO\): heatequation::u at iteration [0-9]+' "$work/$1.out" | grep -oE '[0-9]+$'; }
same_digest() { [ -n "$(matching "$1" 'digest of')" ] && equals "$(matching "$2" 'digest of')" "$(matching "$1" 'digest of')"; }
run whole 1 "${heat[@]}" 'Cactus::cctk_itlast = 9' 'IO::out_dir = "whole"'
run saved 1 "${heat[@]}" 'Cactus::cctk_itlast = 7' 'IO::out_dir = "saved"' 'IO::checkpoint_every = 2' \
  'IO::checkpoint_keep = 2' 'IO::checkpoint_on_terminate = yes'
check "the checkpointing run ends well" ended_with 0
check_parameter IO::checkpoint_every '2 writes checkpoints at iterations 2, 4 and 6 of 7' \
  equals "$(written saved | cut -d' ' -f1-3)" "2 4 6"
check_parameter IO::checkpoint_on_terminate 'yes writes one more at the end, iteration 7' \
  equals "$(written saved | cut -d' ' -f4-)" "7"
check_parameter IO::checkpoint_keep '2 keeps the newest two' \
  equals "$(files saved 'checkpoint.it*.h5')" "checkpoint.it6.h5 checkpoint.it7.h5"
# A snapshot copies whole arrays: 9 x 9 rows of 32 elements (Driver::pad_to_cachelines), 20.3 KiB.
check_parameter IO::checkpoint_in_background 'yes (its default): a snapshot of each, written by a second thread while the run goes on' \
  has_line saved '  checkpoints every 2 iterations: a snapshot (20.3 KiB), written by a second thread while the run goes on (IO::checkpoint_in_background)'
# how_written NAME: how each checkpoint of run NAME was written, as its line says (times left out).
how_written() {
  grep -E '^INFO \(IOHDF5\): checkpoint .* written: ' "$work/$1.out" |
    sed -E 's/.*(checkpoint\.it[0-9]+)\.h5 written: [^)]*\)/\1/; s/[0-9]+\.[0-9]+ s/T s/g; s/; removed .*//' |
    sed -E 's/ and T s for the write before it, still running \(.*\)$//'
}
# waits_for_previous NAME: the checkpoints of run NAME that waited for the write before them, by
# their lines, and by the timer report's row (none: 0); a tiny grid's iterations take less than
# a write, so some usually do.
waits_for_previous() {
  local lines row
  lines=$(grep -cE '^INFO \(IOHDF5\): checkpoint .* and [0-9.]+ s for the write before it, still running \(checkpoints due faster than they are written: a larger IO::checkpoint_every avoids the wait\)' "$work/$1.out")
  row=$(sed -nE 's/^ *checkpoint: the write before, the run waits +IOHDF5 +([0-9]+) .*/\1/p' "$work/$1.out" | head -1)
  echo "$lines ${row:-0}"
}
# (The heat's temperature changes at every step and a scalar is copied always: no array is skipped.)
check "... each line saying what the run stalled for (the last at the end, which the run waits for anyway)" equals \
  "$(how_written saved)" "checkpoint.it2 in the background; the run stalled T s for its snapshot
checkpoint.it4 in the background; the run stalled T s for its snapshot
checkpoint.it6 in the background; the run stalled T s for its snapshot
checkpoint.it7, the run waiting"
run saved_timed 1 "${heat[@]}" 'Cactus::cctk_itlast = 7' 'IO::out_dir = "saved_timed"' 'IO::checkpoint_every = 2' \
  'Cactus::cctk_timer_output = "on"'
read -r waits_said waits_reported < <(waits_for_previous saved_timed)
check "... and, where the write before still ran, how long the run waited for it: $waits_said lines, as many in the timer report" \
  equals "$waits_reported" "$waits_said"
check "... whose memory was allocated before the evolution, not at the first checkpoint" \
  grep -qE '^INFO \(IOHDF5\): checkpoint snapshots: 20\.3 KiB of host memory allocated in [0-9.]+ s, before the evolution$' \
  "$work/saved.out"
run waited 1 "${heat[@]}" 'Cactus::cctk_itlast = 6' 'IO::out_dir = "waited"' 'IO::checkpoint_every = 2' \
  'IO::checkpoint_in_background = no'
check_parameter IO::checkpoint_in_background 'no: the run waits while each is written, saying so' \
  has_line waited '  checkpoints every 2 iterations: written while the run waits (IO::checkpoint_in_background = no)'
check "... and in each checkpoint's line" equals "$(how_written waited | xargs -d '\n')" \
  "checkpoint.it2, the run waiting checkpoint.it4, the run waiting checkpoint.it6, the run waiting"
if [ -n "$mpiexec" ]; then
  run waited2 2 "${heat[@]}" 'Cactus::cctk_itlast = 2' 'IO::out_dir = "waited2"' 'IO::checkpoint_every = 2'
  check_parameter IO::checkpoint_in_background 'yes, but 2 ranks: the run waits, saying why' has_line waited2 \
    '  checkpoints every 2 iterations: written while the run waits (2 ranks write each one together with MPI calls, which stay on the run'"'"'s thread: MPI_THREAD_FUNNELED)'
fi
cp -r "$work/saved" "$work/fresh"
run fresh 1 "${heat[@]}" 'Cactus::cctk_itlast = 9' 'IO::out_dir = "fresh"' 'IO::recover = "no"'
check_parameter 'IO::recover = "no"' 'starts from the initial data though out_dir holds checkpoints' \
  equals "$(first_norms fresh)" 0
check "... and says nothing of them" lacks fresh 'recover'
cp -r "$work/saved" "$work/auto"
run auto 1 "${heat[@]}" 'Cactus::cctk_itlast = 9' 'IO::out_dir = "auto"' 'IO::recover = "auto"'
check_parameter 'IO::recover = "auto"' 'recovers from the newest checkpoint in out_dir, iteration 7' \
  has_line auto 'INFO (IOHDF5): recovering from auto/checkpoint.it7.h5: iteration 7, time 0.0035 (written by 1 rank)'
check "... goes on from there" equals "$(first_norms auto)" 7
check "... to the digest of the uninterrupted run" same_digest whole auto
run manual 1 "${heat[@]}" 'Cactus::cctk_itlast = 9' 'IO::out_dir = "manual"' 'IO::recover = "manual"' \
  'IO::recover_file = "saved/checkpoint.it6.h5"'
check_parameter 'IO::recover = "manual"' 'recovers from IO::recover_file, not from out_dir' \
  equals "$(first_norms manual)" 6
check_parameter IO::recover_file 'saved/checkpoint.it6.h5, the older of the two, is the one read' \
  has_line manual 'INFO (IOHDF5): recovering from saved/checkpoint.it6.h5: iteration 6, time 0.003 (written by 1 rank)'
check "... to the digest of the uninterrupted run" same_digest whole manual

# --- NaNChecker: HeatEquation, and tests/thorns/PlantNaN's w (cell-centred in x and z) where
# PlantNaN plants NaN and infinities, on 9^3 points (spacing 0.125), 6 iterations.
nan_base=('ActiveThorns = "HeatEquation PlantNaN NaNChecker"' 'Driver::global_nx = 9' 'Driver::global_ny = 9'
  'Driver::global_nz = 9' 'Time::timestep = 0.0005' 'Cactus::cctk_itlast = 6')
warnings() { matching "$1" '^WARNING \(NaNChecker\)' | grep -oE 'iteration [0-9]+' | xargs; }
run warn 1 "${nan_base[@]}" 'IO::out_dir = "warn"' 'PlantNaN::at_iteration = 0' \
  'PlantNaN::plant = "2,3,4=nan 5,1,4=-inf"' 'NaNChecker::check_every = 2' 'NaNChecker::check_after = 3' \
  'NaNChecker::check_vars = "plantnan::w"' 'NaNChecker::check_for = "both"' 'NaNChecker::action_if_found = "just warn"'
check_parameter NaNChecker::check_every '2 checks the iterations divisible by 2 (of those from check_after = 3 on)' \
  equals "$(warnings warn)" "iteration 4 iteration 6"
check_parameter NaNChecker::check_after '3 passes over iterations 0 and 2, which check_every = 2 would check' \
  lacks warn 'iteration 2:'
check_parameter NaNChecker::check_vars 'the grid function named is checked' has_line warn \
  'WARNING (NaNChecker): plantnan::w at iteration 4: 2 points are NaN or infinite (1 NaN, 1 infinite); the first is global point (5, 1, 4) at x = 0.6875, y = 0.125, z = 0.5625 (centering cvc) on rank 0'
check_parameter 'NaNChecker::check_for = "both"' 'read where NaNChecker judges (strict: not "set but never read")' \
  lacks warn 'check_for'
check_parameter 'NaNChecker::check_for = "both"' 'a NaN and an infinity both count' has_line warn \
  'WARNING (NaNChecker): plantnan::w at iteration 6: 2 points are NaN or infinite (1 NaN, 1 infinite); the first is global point (5, 1, 4) at x = 0.6875, y = 0.125, z = 0.5625 (centering cvc) on rank 0'
check_parameter 'NaNChecker::action_if_found = "just warn"' 'the run goes on to its end, status 0' ended_with 0
# "both" is the one value: Cactus's "NaN" and "Inf" alone are refused, not taken for "both".
run nan_alone 1 "${nan_base[@]}" 'IO::out_dir = "nan_alone"' 'NaNChecker::check_for = "NaN"'
check '... Cactus'"'"'s check_for = "NaN" is refused at its line' has_line nan_alone \
  "nan_alone.par:$(grep -n check_for "$work/nan_alone.par" | cut -d: -f1):25: error: value 'NaN' of 'NaNChecker::check_for' is not one of its values: \"both\" :: \"NaN and +-inf alike (Cactus's default; its NaN and Inf alone are not offered)\""
run at_start 1 "${nan_base[@]}" 'IO::out_dir = "at_start"' 'PlantNaN::at_iteration = 0' 'PlantNaN::plant = "1,1,1=inf"' \
  'NaNChecker::check_every = 4' 'NaNChecker::check_vars = "plantnan::w"'
check_parameter NaNChecker::check_every '4 checks the initial data'"'"'s iteration 0, then 4' \
  equals "$(warnings at_start)" "iteration 0 iteration 4"
in_u=('PlantNaN::var = "heatequation::u"' 'PlantNaN::at_iteration = 2' 'PlantNaN::plant = "4,4,4=nan"'
  'NaNChecker::check_every = 1')
run unchecked 1 "${nan_base[@]}" 'IO::out_dir = "unchecked"' "${in_u[@]}" 'NaNChecker::check_vars = "plantnan::w"' \
  'NaNChecker::action_if_found = "abort"'
check_parameter NaNChecker::check_vars 'a grid function not named is not checked: a NaN in u goes unseen' \
  equals "$status: $(matching unchecked 'NaN or infinite')" "0: "
check_parameter 'NaNChecker::action_if_found = "abort"' 'read by each check, found or not (strict: not "set but never read")' \
  lacks unchecked 'action_if_found'
run terminate 1 "${nan_base[@]}" 'IO::out_dir = "terminate"' "${in_u[@]}" 'NaNChecker::check_vars = "heatequation::u"' \
  'NaNChecker::action_if_found = "terminate"'
check_parameter 'NaNChecker::action_if_found = "terminate"' 'the run ends after the iteration, status 1' \
  has_line terminate 'opuntia: terminated after iteration 2, time 0.001: NaNChecker asked: heatequation::u is NaN or infinite at 1 point (NaNChecker::action_if_found = "terminate")'
check "... status 1" ended_with 1
run abort 1 "${nan_base[@]}" 'IO::out_dir = "abort"' "${in_u[@]}" 'NaNChecker::check_vars = "heatequation::u"' \
  'NaNChecker::action_if_found = "abort"'
check_parameter 'NaNChecker::action_if_found = "abort"' 'the run stops at once with the error, status 1' \
  has_line abort 'opuntia: error: NaNChecker: heatequation::u at iteration 2: 1 point is NaN or infinite (1 NaN, 0 infinite); the first is global point (4, 4, 4) at x = 0.5, y = 0.5, z = 0.5 (centering vvv) on rank 0'
check "... status 1, and TERMINATE (which writes heat_error.txt) does not run" \
  test "$status" -eq 1 -a ! -e "$work/abort/heat_error.txt"

# --- Completeness: every parameter the param.ccl files declare, and every value of a KEYWORD,
# is one this test exercised; and it exercised none that is not declared.
# declared_parameters FILE...: "Thorn::name" for each parameter a param.ccl declares (USES and
# EXTENDS name another thorn's), 'Thorn::name = "value"' for each value of a KEYWORD, one a line.
declared_parameters() {
  "$python" - "$@" <<'EOF'
import pathlib, re, sys
token = re.compile(r'"(?:[^"\\]|\\.)*"|::|[{}]|#[^\n]*|[^\s{}"#]+')
types = {"INT", "REAL", "KEYWORD", "STRING", "BOOLEAN"}
for path in map(pathlib.Path, sys.argv[1:]):
    thorn = path.parent.name
    tokens = [t for t in token.findall(path.read_text().replace("\\\n", " ")) if not t.startswith("#")]
    i = 0
    while i < len(tokens):
        kind = tokens[i].upper().removeprefix("CCTK_")
        if kind in types and (i == 0 or tokens[i - 1].upper() not in ("USES", "EXTENDS")):
            name = tokens[i + 1].split("[")[0]
            if kind != "KEYWORD":
                print(f"{thorn}::{name}")
            i = tokens.index("{", i)
            values, depth = [], 0
            while True:  # the range block: for a KEYWORD, the words before each ::
                t = tokens[i]
                depth += (t == "{") - (t == "}")
                if t == "::" and kind == "KEYWORD":  # "a", "b" :: "description"
                    j = i - 1
                    values.append(tokens[j])
                    while tokens[j - 1] == ",":
                        j -= 2
                        values.append(tokens[j])
                i += 1
                if depth == 0:
                    break
            for value in values:
                print(f"{thorn}::{name} = {value}")
        i += 1
EOF
}
declared=$(cd "$source_dir" && declared_parameters "${audited_files[@]}")
check "the param.ccl files declare parameters ($(wc -l <<<"$declared") of them)" test "$(wc -l <<<"$declared")" -ge 20
while IFS= read -r parameter; do
  printf '%s\n' "${exercised[@]}" | grep -qxF -- "$parameter" ||
    { echo "FAILED: $parameter, declared in thorns/${parameter%%::*}/param.ccl, is not exercised by this test: add a check of its effect"; failures=$((failures + 1)); }
done <<<"$declared"
while IFS= read -r parameter; do
  grep -qxF -- "$parameter" <<<"$declared" ||
    { echo "FAILED: $parameter is exercised by this test but declared in none of ${audited_files[*]}"; failures=$((failures + 1)); }
done < <(printf '%s\n' "${exercised[@]}" | sort -u)

finish
