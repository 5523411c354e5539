#!/usr/bin/env bash
# The opuntia command line as a user meets it: help, thorn list, describe, schedule, errors.
# Usage: opuntia_cli_test.sh OPUNTIA SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
src=$2

"$opuntia" --help >"$work/out" 2>&1
check "--help exits 0" test $? -eq 0
check "--help lists --describe" grep -q -- "--describe" "$work/out"
check "--help lists the commands thorns provide" grep -q -- "--list-devices" "$work/out"

"$opuntia" --list-thorns >"$work/out" 2>&1
check "--list-thorns exits 0" test $? -eq 0
check "--list-thorns shows HeatEquation" grep -q "^HeatEquation *heatequation" "$work/out"
check "--list-thorns marks core thorns" grep -q "^Driver .*(always active)" "$work/out"

# A mistyped option names the options spelt nearest it; an empty parameter file name (an unset
# variable) is said to be one, not answered with the help.
"$opuntia" --list-thorn >"$work/out" 2>&1
check "a mistyped option is refused (109)" test $? -eq 109
check "... naming the option it meant" grep -qxF "opuntia: error: unknown option '--list-thorn'; did you mean '--list-thorns'?" "$work/out"
"$opuntia" "" >"$work/out" 2>&1
check "an empty parameter file name is refused (2)" test $? -eq 2
check "... saying so" grep -qxF "opuntia: error: the parameter file's name is empty (an unset shell variable?)" "$work/out"

# A query whose output cannot be written fails, saying so (a full disk, a closed output).
if [ -w /dev/full ]; then
  for query in --list-thorns "--describe WaveToy" "--describe-all --format markdown" \
    "--show-schedule $src/parfiles/wavetoy.par" --list-devices; do
    # shellcheck disable=SC2086 # the query's words
    "$opuntia" $query >/dev/full 2>"$work/err"
    check "$query to a full disk exits 1" test $? -eq 1
    check "... saying so" grep -qxF "opuntia: error: the output could not be written (a full disk, or a closed output?)" "$work/err"
  done
fi
"$opuntia" --list-thorns >&- 2>"$work/err"
check "--list-thorns to a closed output exits 1" test $? -eq 1

"$opuntia" --describe HeatEquation >"$work/out" 2>&1
check "--describe exits 0" test $? -eq 0
check "--describe shows alpha" grep -q "alpha" "$work/out"
check "--describe lists the thorn's kernels" grep -qE '^  Heat_Update  TYPE="[^"]*"  STENCIL="1,1,1,1,1,1"  TILE=' "$work/out"
"$opuntia" --describe liddrivencavity >"$work/out" 2>&1
check "... their variants on each backend, in TYPE's order (any case of the thorn's name)" \
  grep -qx "    openmp: 3dstencil, 3dblock" "$work/out"
check "... and a boundary kernel's EXTERIOR" grep -qE '^  LDC_VelocityBoundary  TYPE="\*/boundary"  STENCIL="0,0,0,0,0,0"  EXTERIOR="2,1,2,1,2,1"$' "$work/out"
"$opuntia" --describe HeatEquaton >"$work/out" 2>&1
check "--describe of an unknown thorn fails" test $? -ne 0
check "--describe suggests the nearest thorn" grep -q "HeatEquation" "$work/out"

"$opuntia" --show-schedule "$src/parfiles/heat_equation.par" >"$work/out" 2>&1
check "--show-schedule exits 0" test $? -eq 0
check "--show-schedule shows the kernel in EVOL" grep -q "CAKERNEL_Launch_Heat_Update" "$work/out"

# One question at a time: what would be ignored is refused, with CLI11's status.
"$opuntia" --list-thorns "$src/parfiles/heat_equation.par" >"$work/out" 2>&1
check "--list-thorns with a parameter file is refused (108)" test $? -eq 108
check "... saying they exclude each other" grep -q "excludes --list-thorns" "$work/out"
"$opuntia" --describe WaveToy "$src/parfiles/heat_equation.par" >"$work/out" 2>&1
check "--describe with a parameter file is refused (108)" test $? -eq 108
"$opuntia" --list-thorns --describe WaveToy >"$work/out" 2>&1
check "--list-thorns with --describe is refused (108)" test $? -eq 108
# A thorn's command is the only thing done: beside another question or command it is refused
# (--clear-cache first of all: it must not empty the cache when something else was asked).
for asked in "--list-devices --describe WaveToy" "--clear-cache --show-schedule $src/parfiles/heat_equation.par" \
             "--list-thorns --list-devices" "--list-devices --clear-cache" "--clear-cache --describe-all"; do
  XDG_CACHE_HOME="$work/cache" "$opuntia" $asked >"$work/out" 2>&1
  check "$asked is refused (108)" test $? -eq 108
done
check "... and the cache was not touched" test ! -e "$work/cache"
"$opuntia" --format markdown "$src/parfiles/heat_equation.par" >"$work/out" 2>&1
check "--format with a run is refused (108): it says how a description prints" test $? -eq 108
check "... saying what it excludes" grep -q "excludes --format" "$work/out"
"$opuntia" --show-schedule >"$work/out" 2>&1
check "--show-schedule without a parameter file is refused (107)" test $? -eq 107
check "... saying it needs one" grep -q "show-schedule requires parfile" "$work/out"
"$opuntia" --describe "" >"$work/out" 2>&1
check "--describe with an empty name fails" test $? -eq 1
check "... saying it needs a thorn's name" grep -qF "opuntia: error: --describe needs a thorn's name" "$work/out"

# Ghost zones wider than a periodic direction on one rank: no advice about ranks.
printf 'ActiveThorns = "WaveToy"\nDriver::global_nx = 3\nDriver::periodic_x = yes\nDriver::ghost_size = 5\nCactus::cctk_itlast = 0\n' >"$work/thin.par"
(cd "$work" && "$opuntia" thin.par >"$work/out" 2>&1)
check "ghost zones wider than a periodic direction on one rank fail" test $? -eq 1
check "... saying so without advising fewer ranks" grep -qF "thin.par:2:21: error: the periodic x direction's 2 points on one rank are thinner than the ghost zones of 5 they fill: use narrower ghost zones or a larger grid" "$work/out"

# A parameter file with mistakes: every error with its place, nothing runs.
printf 'ActiveThorns = "HeatEquaton"\nDriver::global_nq = 10\nHeatEquation::alpha = -1\n' >"$work/bad.par"
"$opuntia" "$work/bad.par" >"$work/out" 2>&1
check "a bad parfile exits 1" test $? -eq 1
check "an unknown thorn is named with its place" grep -q "bad.par:1:17: error: .*HeatEquaton" "$work/out"
check "an unknown parameter is named with its place" grep -q "bad.par:2:9: error: .*global_nq" "$work/out"
check "nothing ran" test "$(grep -c '^it ' "$work/out")" -eq 0

# An empty parameter file runs the core thorns only (10 iterations by default).
: >"$work/empty.par"
(cd "$work" && "$opuntia" empty.par >"$work/out" 2>&1)
check "an empty parfile runs" test $? -eq 0

# CRLF parameter files work.
sed 's/$/\r/' "$src/parfiles/heat_equation.par" | sed 's/cctk_final_time = 0.005/cctk_final_time = 0.0005/' >"$work/crlf.par"
(cd "$work" && "$opuntia" crlf.par >"$work/out" 2>&1)
check "a CRLF parfile runs" test $? -eq 0
check "the CRLF run compared with the analytic solution" grep -q "INFO (HeatEquation)" "$work/out"

# --parameter-level strict: a parameter set twice, or set and never read, is an error.
printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\nCactus::cctk_itlast = 3\n' >"$work/twice.par"
(cd "$work" && "$opuntia" --parameter-level strict twice.par >"$work/out" 2>&1)
check "strict: set twice fails" test $? -eq 1
check "strict: set twice names both places" grep -q "twice.par:3:1: error: parameter 'Cactus::cctk_itlast' is set twice; first at twice.par:2:1" "$work/out"
printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\nCactus::cctk_show_banners = no\nHeatEquation::alpha = 0.5\n' >"$work/unread.par"
(cd "$work" && "$opuntia" --parameter-level strict unread.par >"$work/out" 2>&1)
check "strict: set but never read fails" test $? -eq 1
check "strict: names the unread parameter" grep -q "unread.par:3:1: error: parameter 'Cactus::cctk_show_banners' is set but never read" "$work/out"
check "strict: a parameter the kernel reads is not reported" test "$(grep -c "'HeatEquation::alpha' is set but never read" "$work/out")" -eq 0
(cd "$work" && "$opuntia" unread.par >"$work/out" 2>&1)
check "normal level: the same file runs" test $? -eq 0
# A limit that Cactus::terminate ignores is set and never read; under "any" each limit is read.
printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\nCactus::max_runtime = 5\nCactus::cctk_final_time = 0.01\n' >"$work/limits.par"
(cd "$work" && "$opuntia" --parameter-level strict limits.par >"$work/out" 2>&1)
check "strict: limits terminate = iteration ignores fail" test $? -eq 1
check "... max_runtime named" grep -q "limits.par:3:1: error: parameter 'Cactus::max_runtime' is set but never read" "$work/out"
check "... cctk_final_time named" grep -q "limits.par:4:1: error: parameter 'Cactus::cctk_final_time' is set but never read" "$work/out"
printf 'Cactus::terminate = "any"\n' >>"$work/limits.par"
(cd "$work" && "$opuntia" --parameter-level strict limits.par >"$work/out" 2>&1)
check "strict: under terminate = any every limit is read" test $? -eq 0

# WaveToy_Error's norms count the points the rank owns, not its ghost zones: a periodic run gives
# the same rms with ghost zones 1 and 3 wide (counting ghosts gave 4.986540e-03 and 4.989969e-03;
# counting point n - 1 of a periodic direction, which is point 0 again, gave 4.989340e-03).
for ghosts in 1 3; do
  printf 'ActiveThorns = "WaveToy"\nCaKernel::backend = "openmp"\nCactus::cctk_itlast = 8\nDriver::global_nx = 17\nDriver::global_ny = 17\nDriver::global_nz = 17\nDriver::periodic_x = yes\nDriver::ghost_size_x = %s\nTime::dtfac = 0.25\nIO::out_dir = "ghosts%s"\nIO::out_digest_vars = "wavetoy::phi"\n' \
    "$ghosts" "$ghosts" >"$work/ghosts$ghosts.par"
  (cd "$work" && "$opuntia" "ghosts$ghosts.par" >"$work/ghosts$ghosts.out" 2>&1)
done
check "the error norm of a periodic run counts no ghost point" \
  grep -qxF "INFO (WaveToy): t = 0.125: max |phi - exact| = 8.591592e-03, rms = 4.991752e-03" "$work/ghosts1.out"
check "... whatever the ghost width" cmp -s "$work/ghosts1/wavetoy_error.txt" "$work/ghosts3/wavetoy_error.txt"
digest_line() { grep '^INFO (IO): digest of wavetoy::phi at iteration 8: [0-9a-f]\{16\}$' "$1"; }
check "IO::out_digest_vars prints the field's digest at the end" digest_line "$work/ghosts1.out"
check "... the same bits whatever the ghost width" test "$(digest_line "$work/ghosts1.out")" = "$(digest_line "$work/ghosts3.out")"
for names in group:wavetoy::scalarevolve all:all; do
  sed "s/wavetoy::phi\"/${names#*:}\"/; s/ghosts1\"/${names%%:*}\"/" "$work/ghosts1.par" >"$work/digest_${names%%:*}.par"
  (cd "$work" && "$opuntia" "digest_${names%%:*}.par" >"$work/digest_${names%%:*}.out" 2>&1)
  check "IO::out_digest_vars = \"${names#*:}\" prints the digest of wavetoy::phi" \
    test "$(digest_line "$work/digest_${names%%:*}.out")" = "$(digest_line "$work/ghosts1.out")"
done
sed 's/wavetoy::phi"/wavetoy::phy"/' "$work/ghosts1.par" >"$work/digest_typo.par"
(cd "$work" && "$opuntia" digest_typo.par >"$work/out" 2>&1)
check "an unknown digest variable fails before the run" test $? -eq 1
check "... at its line, with the nearest name" grep -qxF \
  "digest_typo.par:11:24: error: IO::out_digest_vars: unknown grid function or group 'wavetoy::phy' in thorn IO; did you mean 'wavetoy::phi'?" "$work/out"
check "... and runs no iteration" bash -c "! grep -q 'INFO (WaveToy)' '$work/out'"

"$opuntia" "$work/missing.par" >"$work/out" 2>&1
check "a missing parfile fails" test $? -eq 1
check "a missing parfile is named with the reason" grep -qxF "$work/missing.par: error: cannot read file: No such file or directory" "$work/out"
"$opuntia" /dev/zero >"$work/out" 2>&1
check "opuntia /dev/zero exits 1" test $? -eq 1
check "opuntia /dev/zero says it is not a file" grep -qxF "/dev/zero: error: is not a regular file (it is a character device)" "$work/out"
truncate -s 65M "$work/huge.par"
"$opuntia" "$work/huge.par" >"$work/out" 2>&1
check "a parfile over 64 MiB exits 1" test $? -eq 1
check "... naming the size limit" grep -qxF "$work/huge.par: error: file is larger than 64 MiB, the limit for an input file" "$work/out"
rm -f "$work/huge.par"
printf '\xef\xbb\xbfCactus::cctk_itlast = (1\n' >"$work/bom.par"
"$opuntia" "$work/bom.par" >"$work/out" 2>&1
check "a parfile's byte-order mark is skipped" grep -qxF "$work/bom.par:1:25: error: expected ')' to close the parenthesis; found end of line" "$work/out"
# A STRING value of 300,000 characters (the ECMAScript regex matcher overflowed the stack at 25-30k).
{ printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 0\nCactus::cctk_run_title = "'; head -c 300000 /dev/zero | tr '\0' a; printf '"\n'; } >"$work/long.par"
(cd "$work" && "$opuntia" long.par >"$work/out" 2>&1)
check "a 300,000-character string value runs" test $? -eq 0
# An expression of 200,000 terms (each operator copied the tree: 200k terms took over a minute)
# and one nested 100,000 deep (a stack overflow): the first runs, the second is an error.
{ printf 'Cactus::cctk_itlast = 0'; head -c 200000 /dev/zero | tr '\0' 'x' | sed 's/x/+0/g'; printf '\n'; } >"$work/terms.par"
(cd "$work" && "$opuntia" terms.par >"$work/out" 2>&1)
check "an expression of 200,000 terms runs" test $? -eq 0
{ printf 'Cactus::cctk_itlast = '; head -c 100000 /dev/zero | tr '\0' '('; printf '1\n'; } >"$work/deep.par"
(cd "$work" && "$opuntia" deep.par >"$work/out" 2>&1)
check "an expression nested 100,000 deep is an error" test $? -eq 1
check "... naming the limit" grep -q "^deep.par:1:279: error: expressions nested deeper than 256 levels" "$work/out"

# CaKernel::backend = "auto" where the OpenCL platform lists no device (pocl as an ordinary
# user): the run falls back to OpenMP. Made so on any machine: the ICD loader sees pocl alone,
# POCL_DEVICES names a driver pocl lacks, and CUDA sees no GPU.
if [[ -f /etc/OpenCL/vendors/pocl.icd ]] && "$opuntia" --list-devices 2>/dev/null | grep -q "^opencl platform"; then
  mkdir -p "$work/vendors"
  cp /etc/OpenCL/vendors/pocl.icd "$work/vendors/"
  no_device=(env OCL_ICD_VENDORS="$work/vendors" POCL_DEVICES=cuda CUDA_VISIBLE_DEVICES=)
  printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\n' >"$work/auto.par"
  (cd "$work" && "${no_device[@]}" "$opuntia" auto.par >"$work/out" 2>&1)
  check "auto with an OpenCL platform of no device runs" test $? -eq 0
  check "... on OpenMP" grep -q "backend openmp" "$work/out"
  check "... naming no parameter the file did not set" test "$(grep -c opencl_device "$work/out")" -eq 0
  printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\nCaKernel::backend = "opencl"\n' >"$work/ocl.par"
  (cd "$work" && "${no_device[@]}" "$opuntia" ocl.par >"$work/out" 2>&1)
  check "backend opencl with no device fails" test $? -eq 1
  check "... at the line that asks for it" grep -q 'ocl.par:3:.*CaKernel::backend = "opencl": this machine has no device for it' "$work/out"
fi

# Two runs given one output folder: the second waits until the first has ended (a lock on
# <out_dir>/.opuntia.lock, which the end of a process releases however it ends), saying for whom.
# The first writes nothing there, so it removes the folder and the lock as it ends: the second
# takes the lock again in the folder made anew, and a third run waits for it.
printf 'ActiveThorns = "HeatEquation"\nCactus::terminate = "never"\nCactus::progress_every = 0\nIO::out_dir = "one_folder"\n' >"$work/first.par"
cp "$work/first.par" "$work/second.par"
printf 'ActiveThorns = "HeatEquation"\nCactus::cctk_itlast = 2\nCactus::cctk_timer_output = "off"\nIO::out_dir = "one_folder"\n' >"$work/third.par"
(cd "$work" && exec "$opuntia" first.par >first.out 2>&1) &
first=$!
for _ in $(seq 300); do grep -qs "first.par" "$work/one_folder/.opuntia.lock" && break; sleep 0.1; done
(cd "$work" && exec "$opuntia" second.par >second.out 2>&1) &
second=$!
for _ in $(seq 300); do grep -qs "waiting for" "$work/second.out" && break; sleep 0.1; done
check "a second run in the same output folder waits, naming the first" \
  grep -qE '^opuntia: waiting for IO::out_dir = "one_folder": the run of first.par \(process [0-9]+ on .+\) writes there$' "$work/second.out"
check "... and has not started" bash -c '! grep -q "INFO (HeatEquation)" "$1"' _ "$work/second.out"
kill -TERM "$first"
wait "$first"
for _ in $(seq 300); do grep -qs "second.par" "$work/one_folder/.opuntia.lock" && break; sleep 0.1; done
check "... then takes the folder's lock when the first has ended, though the first removed it" \
  grep -qs "second.par" "$work/one_folder/.opuntia.lock"
(cd "$work" && "$opuntia" third.par >third.out 2>&1) &
third=$!
for _ in $(seq 300); do grep -qs "waiting for" "$work/third.out" && break; sleep 0.1; done
check "a third run waits for the second" \
  grep -qE '^opuntia: waiting for IO::out_dir = "one_folder": the run of second.par \(process [0-9]+ on .+\) writes there$' "$work/third.out"
kill -TERM "$second"
wait "$second"
wait "$third"
check "... then runs when the second has ended" test $? -eq 0
check "... to its end" grep -q "INFO (HeatEquation)" "$work/third.out"

finish
