#!/usr/bin/env bash
# Runs a user should be stopped from, or told about, before they do harm: grids too large for an
# index or for the memory there is, empty domains and time steps that make no progress, output
# folders that cannot be written, and runs stopped by a signal.
# Usage: bad_runs_test.sh OPUNTIA
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
# Background runs get their own process group and keep SIGINT (a script's `&` ignores it).
set -m
ulimit -c 0  # the SIGQUIT run dumps no core
export XDG_CACHE_HOME="$work/cache"
# One thread: more than the free cores is warned of on stderr (startup_warnings_test.sh), and
# how many are free depends on what else the machine runs.
export OMP_NUM_THREADS=1

# run_on BACKEND NAME LINES...: HeatEquation on BACKEND for two iterations with LINES added (from
# line 4), from $work; stdout and stderr in $work/NAME.out, the exit status in $status.
run_on() {
  local backend=$1 name=$2
  shift 2
  {
    printf 'ActiveThorns = "HeatEquation"\nCaKernel::backend = "%s"\nCactus::cctk_itlast = 2\n' "$backend"
    printf '%s\n' "$@"
  } >"$work/$name.par"
  (cd "$work" && "$opuntia" "$name.par" >"$name.out" 2>&1)
  status=$?
}
# run NAME LINES...: run_on OpenMP.
run() { run_on openmp "$@"; }
has_line() { grep -qxF -- "$2" "$work/$1.out"; }
has_match() { grep -qE -- "$2" "$work/$1.out"; }
nothing_ran() { ! grep -q '^opuntia: \|^it ' "$work/$1.out"; }

# --- grids whose point count overflows an index --------------------------------------------
run wrap 'Driver::global_nx = 609' 'Driver::global_ny = 36760123' 'Driver::global_nz = 823996703'
check "a point count that wraps fails" test $status -eq 1
check "a point count that wraps is named with the grid lines" has_line wrap \
  "wrap.par:4:21: error: the grid has 609x36760123x823996703 = 1.84e+19 points, more than an array index counts (9223372036854775807 at most); Driver::global_ny set at wrap.par:5:21, Driver::global_nz set at wrap.par:6:21"
check "a point count that wraps runs nothing" nothing_ran wrap
run zero 'Driver::global_nx = 4194304' 'Driver::global_ny = 2097152' 'Driver::global_nz = 2097152'
check "a point count that wraps to 0 fails" test $status -eq 1
check "a point count that wraps to 0 is named" has_line zero \
  "zero.par:4:21: error: the grid has 4194304x2097152x2097152 = 1.84e+19 points, more than an array index counts (9223372036854775807 at most); Driver::global_ny set at zero.par:5:21, Driver::global_nz set at zero.par:6:21"
# Periodic: 2147483646 points owned (point n - 1 is point 0 again) and a ghost zone on each side.
run noghosts 'Driver::periodic_x = yes' 'Driver::ghost_size = 0'
check "a periodic direction without ghost zones fails, naming where they were set to 0" has_line noghosts \
  "noghosts.par:4:22: error: the grid is periodic along x but its ghost zones there are 0 wide (Driver::ghost_size, or Driver::ghost_size_x): a periodic direction is filled through its ghost zones; Driver::ghost_size set at noghosts.par:5:22"
run wide 'Driver::global_nx = 2147483647' 'Driver::periodic_x = yes'
check "a row that overflows an int with its ghost zones fails" has_line wide \
  "wide.par:4:21: error: Driver::global_nx = 2147483647 with ghost zones of 1 on both sides makes 2147483648 points along x, more than an int counts (2147483647)"

# --- the checks before the initial data each say what they find -----------------------------
run several 'ActiveThorns = "IOASCII"' 'IOASCII::out1D_vars = "heatequation::u"' 'IOASCII::out1D_xline_y = 7' \
  'IO::out_digest_vars = "heatequation::zz"'
check "two thorns' checks finding parameters wrong fail the run" test $status -eq 1
check "... IOASCII's error" has_line several \
  "several.par:6:26: error: IOASCII::out1D_xline_y = 7: no point of heatequation::u is there; its points lie from y = 0 to 1"
check "... and IO's, which ran after it" has_line several \
  "several.par:7:24: error: IO::out_digest_vars: unknown grid function or group 'heatequation::zz' in thorn IO; did you mean 'heatequation::u'?"
check "... before any iteration" test "$(grep -c '^it ' "$work/several.out")" -eq 0
# Every wrong name of a list, and of both of IO's lists, each at its word, not only the first.
run names 'ActiveThorns = "IOHDF5"' 'IOHDF5::out_vars = "heatequation::uu heatequation::u heatequation::vv"' \
  'IO::out_digest_vars = "heatequation::zz"' 'IO::out_norms_vars = "heatequation::u heatequation::yy"'
check "every wrong name of a list fails the run" test $status -eq 1
check "... the first" has_line names \
  "names.par:5:21: error: IOHDF5::out_vars: unknown grid function or group 'heatequation::uu' in thorn IOHDF5; did you mean 'heatequation::u'?"
check "... and the second, at its word" has_line names \
  "names.par:5:54: error: IOHDF5::out_vars: unknown grid function or group 'heatequation::vv' in thorn IOHDF5; did you mean 'heatequation::u'?"
check "... IO::out_digest_vars'" has_line names \
  "names.par:6:24: error: IO::out_digest_vars: unknown grid function or group 'heatequation::zz' in thorn IO; did you mean 'heatequation::u'?"
check "... and IO::out_norms_vars' after it" has_line names \
  "names.par:7:39: error: IO::out_norms_vars: unknown grid function or group 'heatequation::yy' in thorn IO; did you mean 'heatequation::u'?"

# A variable of a thorn the run does not activate: the error says so. A variant with no kernel to
# choose among: the error says that no active thorn has kernels (not an empty list).
printf 'ActiveThorns = "NaNChecker"\nNaNChecker::check_vars = "heatequation::u"\nCactus::cctk_itlast = 1\n' >"$work/inactive.par"
(cd "$work" && "$opuntia" inactive.par >inactive.out 2>&1)
check "a variable of an inactive thorn fails the run" test $? -eq 1
check "... saying that its thorn is not active" has_line inactive \
  "inactive.par:2:27: error: NaNChecker::check_vars: unknown grid function or group 'heatequation::u' in thorn NaNChecker: thorn 'HeatEquation' is not active; add it to ActiveThorns"
printf 'ActiveThorns = "NaNChecker"\nCaKernel::variant = "3dblock"\nCactus::cctk_itlast = 1\n' >"$work/no_kernels.par"
(cd "$work" && "$opuntia" no_kernels.par >no_kernels.out 2>&1)
check "a variant asked where no active thorn has kernels fails the run" test $? -eq 1
check "... saying so" has_line no_kernels \
  'no_kernels.par:2:21: error: CaKernel::variant = "3dblock": no active thorn has kernels for it to choose among'

# --- a time step beyond the scheme's stability limit is told, at the line that set it ----------
run unstable_heat 'Time::dtfac = 0.4'
check "HeatEquation's dt beyond explicit Euler's limit runs, warned at Time::dtfac's line" has_line unstable_heat \
  "unstable_heat.par:4:15: warning: dt = 0.0444444 exceeds explicit Euler's stability limit for HeatEquation::alpha = 1 on this grid, 1 / (2 alpha (1/dx^2 + 1/dy^2 + 1/dz^2)) = 0.00205761: the temperature will grow without bound; set Time::timestep below the limit"
run stable_heat 'Time::timestep = 0.002'
check "... and not below it" bash -c '! grep -q "stability limit" "$1"' _ "$work/stable_heat.out"
printf 'ActiveThorns = "WaveToy"\nCactus::cctk_itlast = 2\nWaveToy::speed = 2\n' >"$work/fast_wave.par"
(cd "$work" && "$opuntia" fast_wave.par >fast_wave.out 2>&1)
check "WaveToy's c dt beyond leapfrog's limit is warned at WaveToy::speed's line" has_match fast_wave \
  "^fast_wave\.par:3:18: warning: dt = 0\.0555556 exceeds leapfrog's stability limit for WaveToy::speed = 2 on this grid"

# --- half a setting that does nothing is told ----------------------------------------------
run half_nan_checker 'ActiveThorns = "NaNChecker"' 'Time::timestep = 0.001' 'NaNChecker::check_vars = "all"'
check "NaNChecker::check_vars without check_every runs, warned that nothing is checked" has_line half_nan_checker \
  "half_nan_checker.par:6:26: warning: NaNChecker::check_vars is set, but NaNChecker::check_every = 0 checks never: set check_every to check"
run other_half_nan_checker 'ActiveThorns = "NaNChecker"' 'Time::timestep = 0.001' 'NaNChecker::check_every = 2'
check "... and check_every without check_vars" has_line other_half_nan_checker \
  "other_half_nan_checker.par:6:27: warning: NaNChecker::check_every = 2 but NaNChecker::check_vars is empty: nothing is checked; name the grid functions, or \"all\""
printf 'ActiveThorns = "LidDrivenCavity"\nCactus::cctk_itlast = 1\nLidDrivenCavity::steady_tolerance = 1e-3\nLidDrivenCavity::diagnostics_every = 0\n' >"$work/untested_steady.par"
(cd "$work" && "$opuntia" untested_steady.par >untested_steady.out 2>&1)
check "LidDrivenCavity's steady_tolerance without diagnostics is warned" has_line untested_steady \
  "untested_steady.par:3:37: warning: LidDrivenCavity::steady_tolerance is tested where the diagnostics run, and LidDrivenCavity::diagnostics_every = 0 runs them never: the run goes on to its end; LidDrivenCavity::diagnostics_every set at untested_steady.par:4:38"

# --- a run refused when it starts leaves no output folder ------------------------------------
run refused 'ActiveThorns = "IOASCII"' 'IOASCII::out1D_vars = "heatequation::temprature"' 'IO::out_dir = "refused/a/b"'
check "an output variable misspelt fails" test $status -eq 1
check "... and leaves none of the output folders it made" test ! -e "$work/refused"
for folder in refused_slash/a/ refused_dots/x/../a refused_dot/./a/.; do
  run refused_spelt 'ActiveThorns = "IOASCII"' 'IOASCII::out1D_vars = "heatequation::temprature"' "IO::out_dir = \"$folder\""
  check "... $folder too, refused for the variable" grep -qF "unknown grid function or group 'heatequation::temprature'" \
    "$work/refused_spelt.out"
  check "... leaving none of its folders" test ! -e "$work/${folder%%/*}"
done
# x/../a is the folder a, whether x exists or not (x is not made).
run dotted 'IO::out_dir = "dotted_x/../dotted"'
check "an output folder x/../a runs in a" test "$status" -eq 0 -a -d "$work/dotted" -a ! -e "$work/dotted_x"
mkdir -p "$work/kept"
run refused_in 'ActiveThorns = "IOASCII"' 'IOASCII::out1D_vars = "heatequation::temprature"' 'IO::out_dir = "kept/run"'
check "... a folder that was there stays" test -d "$work/kept" -a ! -e "$work/kept/run"
# What a shell would replace: refused, and no folder named '~' or '$HOME' made.
run tilde 'IO::out_dir = "~/runs"'
check "an output folder beginning with ~ is refused" has_line tilde \
  "tilde.par:4:15: error: IO::out_dir = \"~/runs\": '~' is not replaced by the home folder here (a shell does that): write the path"
run dollar 'IO::out_dir = "runs/${HOME}"'
check "an environment variable in the output folder is refused" has_line dollar \
  "dollar.par:4:15: error: IO::out_dir = \"runs/\${HOME}\": only \$parfile is replaced in a parameter file's strings, not the environment's variables: write the path"
check "... neither made a folder" test ! -e "$work/~" -a ! -e "$work/runs"

# --- grids too large for the memory -------------------------------------------------------
run huge 'Driver::global_nx = 100000' 'Driver::global_ny = 100000' 'Driver::global_nz = 100000'
check "a grid larger than the memory fails" test $status -eq 1
check "a grid larger than the memory is refused with the figures" has_match huge \
  "^huge\.par:4:21: error: the run needs 14\.2 PiB of host memory for 1 variable x 1 time level and 1 scratch buffer at 100000x100000x100000 points; [0-9.]+ [KMGT]iB available \(.*\); Driver::global_ny set at huge\.par:5:21, Driver::global_nz set at huge\.par:6:21$"
check "a grid larger than the memory runs nothing" nothing_ran huge
# Under a 1 GiB address space a 1.9 GiB grid is refused from the limit, before it allocates (an
# allocation would end in std::bad_alloc instead).
{
  printf 'ActiveThorns = "WaveToy"\nCaKernel::backend = "openmp"\nCactus::cctk_itlast = 2\n'
  printf 'Driver::global_nx = 400\nDriver::global_ny = 400\nDriver::global_nz = 533\n'
} >"$work/limit.par"
# A sanitizer build reserves terabytes of address space for its shadow memory and cannot start
# under such a limit at all: there the check is left out.
if (ulimit -v 1048576 && "$opuntia" --help >/dev/null 2>&1); then
  (ulimit -v 1048576 && cd "$work" && "$opuntia" limit.par >limit.out 2>&1)
  check "a grid larger than RLIMIT_AS fails" test $? -eq 1
  check "a grid larger than RLIMIT_AS is refused with the figures" has_match limit \
    "^limit\.par:4:21: error: the run needs 2\.0 GiB of host memory for 1 variable x 3 time levels at 400x400x533 points; [0-9.]+ [KM]iB available \(RLIMIT_AS less what the process uses\); Driver::global_ny set at limit\.par:5:21, Driver::global_nz set at limit\.par:6:21$"
else
  echo "note: this build cannot start under a 1 GiB address space (a sanitizer's shadow memory): RLIMIT_AS not checked"
fi

# On a device backend the grid functions a kernel uses are mirrored in the device's memory,
# which is counted too: a grid that fits the host but not the OpenCL device (pocl here; its
# memory from --list-devices) is refused with the device's figures.
device_gib=$("$opuntia" --list-devices 2>/dev/null | grep -m1 '^  device .*(.*, [0-9.]* GiB)' | sed -E 's/.*, ([0-9.]+) GiB\).*/\1/')
host_gib=$(awk '/^MemAvailable:/ {print $2 / 1048576}' /proc/meminfo)
if [[ -n $device_gib ]]; then
  # HeatEquation holds one array and its scratch buffer: 16 bytes a point; 1.25 times the device.
  n=$(awk -v g="$device_gib" 'BEGIN {printf "%d", (1.25 * g * 1073741824 / 16) ^ (1 / 3) + 1}')
  if awk -v g="$device_gib" -v h="$host_gib" 'BEGIN {exit !(1.6 * g < 0.8 * h)}'; then
    run_on opencl device "Driver::global_nx = $n" "Driver::global_ny = $n" "Driver::global_nz = $n"
    check "a grid larger than the OpenCL device's memory fails" test $status -eq 1
    check "... with the device's figures" has_match device \
      "^device\.par:4:21: error: the run needs [0-9.]+ GiB of opencl device memory for 1 variable x 1 time level and 1 scratch buffer at ${n}x${n}x${n} points; ${device_gib} GiB available on the device"
    check "... before anything ran" nothing_ran device
  else
    echo "note: the host has too little memory free to test the OpenCL device's limit (${host_gib} GiB)"
  fi
fi

# Build options the OpenCL compiler refuses stop the run at its start, at their line.
if [[ -n $device_gib ]]; then
  run_on opencl options 'CaKernel::opencl_options = "-no-such-option-for-opuntia"'
  check "build options the OpenCL compiler refuses fail" test $status -eq 1
  check "... named at their line" has_match options \
    '^options\.par:4:28: error: CaKernel::opencl_options = "-no-such-option-for-opuntia": .* refuses these build options'
  check "... before anything ran" nothing_ran options
fi

# --- degenerate domains and time steps ----------------------------------------------------
run flat 'Driver::xmax = 0.0'
check "xmax = xmin fails" test $status -eq 1
check "xmax = xmin is named" has_line flat \
  "flat.par:4:16: error: the domain is empty along x: Driver::xmax = 0 must be greater than Driver::xmin = 0"
run inverted 'Driver::zmin = 2' 'Driver::zmax = -1'
check "zmin > zmax is named at both lines" has_line inverted \
  "inverted.par:4:16: error: the domain is empty along z: Driver::zmax = -1 must be greater than Driver::zmin = 2; Driver::zmax set at inverted.par:5:16"
run thin 'Driver::ymax = 1e-310' 'Driver::global_ny = 100'
check "a subnormal grid spacing is named" has_line thin \
  "thin.par:4:16: error: the grid spacing along y, (Driver::ymax - Driver::ymin) / (Driver::global_ny - 1) = 1.0101e-312, is not a positive normal double (finite, at least 2.22507e-308); Driver::global_ny set at thin.par:5:21"
run one 'Driver::global_nz = 1'
check "a single point along an axis is refused" has_line one \
  "one.par:4:21: error: value 1 of 'Driver::global_nz' is outside every range: 2:* :: \"at least two\""
run tiny_dt 'Time::dtfac = 1e-320'
check "a subnormal time step is named" has_line tiny_dt \
  "tiny_dt.par:4:15: error: the time step dt = 1.11165e-321 is not a positive normal double (finite, at least 2.22507e-308)"
run stalled 'Cactus::cctk_initial_time = 1e20' 'Time::timestep = 1'
check "a time step that no longer changes the time fails" test $status -eq 1
check "... at the initial time's line, naming the time step's" has_line stalled \
  "stalled.par:4:29: error: the time step dt = 1 no longer changes the time 1e+20 at iteration 1 (it is below the resolution of a double there): the run would make no progress; Time::timestep set at stalled.par:5:18"
run late_start 'Cactus::cctk_initial_time = 0.01' 'Time::timestep = 0.0001'
check "the heat equation starts from its mode at cctk_initial_time" \
  awk '/^INFO \(HeatEquation\)/ { found = 1; ok = ($0 ~ /relative [0-9.]+e-0[3-9]/) } END { exit !(found && ok) }' \
  "$work/late_start.out"

# --- the output folder ----------------------------------------------------------------------
: >"$work/a_file"
run out_file 'IO::out_dir = "a_file"'
check "out_dir naming a file fails" test $status -eq 1
check "out_dir naming a file is named" has_line out_file \
  'out_file.par:4:15: error: IO::out_dir = "a_file": a file of that name is in the way of the output folder'
check "out_dir naming a file runs nothing" nothing_ran out_file
run under_file 'IO::out_dir = "a_file/results"'
check "out_dir under a file is named" has_line under_file \
  'under_file.par:4:15: error: IO::out_dir = "a_file/results": cannot create the output folder: Not a directory'
run proc 'IO::out_dir = "/proc"'
check "out_dir /proc fails" test $status -eq 1
check "out_dir /proc is named" has_match proc \
  '^proc\.par:4:15: error: IO::out_dir = "/proc": cannot write in the output folder: it takes no new files \(No such file or directory\)$'
run proc_sub 'IO::out_dir = "/proc/results"'
check "out_dir in /proc is named" has_match proc_sub \
  '^proc_sub\.par:4:15: error: IO::out_dir = "/proc/results": cannot create the output folder: /proc takes no new folders \(No such file or directory\)$'
if [ "$(id -u)" -ne 0 ]; then  # root writes in a read-only folder: nothing to check there
  mkdir "$work/read_only" && chmod 555 "$work/read_only"
  run read_only 'IO::out_dir = "read_only"'
  check "a read-only out_dir is named" has_line read_only \
    'read_only.par:4:15: error: IO::out_dir = "read_only": cannot write in the output folder: Permission denied'
fi
# A result that cannot be written (a folder in its place) fails the run.
mkdir -p "$work/blocked/heat_error.txt"
run blocked 'IO::out_dir = "blocked"'
check "a result that cannot be written fails the run" test $status -eq 1
check "the result that cannot be written is named" has_match blocked 'heat_error\.txt'
# So does a log that cannot be written.
run log_ok
(cd "$work" && "$opuntia" log_ok.par >/dev/full 2>"$work/full.err")
check "a full standard output fails the run" test $? -eq 1
check "a full standard output is named" grep -qxF "opuntia: error: the run's output could not be written (a full disk?)" \
  "$work/full.err"

# --- signals --------------------------------------------------------------------------------
# stopped_by SIGNAL NAME LINES...: a run of HeatEquation with LINES that would go on for ever,
# sent SIGNAL once its first progress line is out; $status, $work/NAME.out and NAME.err.
stopped_by() {
  local signal=$1 name=$2
  shift 2
  {
    printf 'ActiveThorns = "HeatEquation"\n'
    printf '%s\n' "$@"
    printf 'Driver::global_nx = 8\nDriver::global_ny = 8\nDriver::global_nz = 8\n'
  } >"$work/$name.par"
  (cd "$work" && exec "$opuntia" "$name.par" >"$name.out" 2>"$name.err") &
  local pid=$!
  for _ in $(seq 600); do
    grep -q '^it ' "$work/$name.out" && break
    sleep 0.1
  done
  kill "-$signal" "$pid"
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null  # a run that swallowed the signal fails the checks rather than hangs
  wait "$pid"
  status=$?
}
# Every line whole: the header and its rank lines, the warning, autotuning's choices, progress
# lines, the line that says why it stopped.
whole_lines() {
  test -z "$(tail -c 1 "$work/$1.out")" &&
    ! grep -vE '^(opuntia: |  grid |  rank [0-9]+ on [^ ]+: .*; .+|'"$1"'\.par:[0-9]+:[0-9]+: warning: |WARNING \([A-Za-z]+\): .*[^ ]$|autotune: .* points: .*\)$|it +[0-9]+  time .* left ([0-9.e+]+ s to (it [0-9]+|time [^ ]+|max_runtime)|\?)$)' "$work/$1.out"
}
stopped_cleanly() {  # stopped_cleanly SIGNAL NAME
  check "SIG$1: exit status 128 + signal" test $status -eq $((128 + $(kill -l "$1")))
  check "SIG$1: the last line says where the run stopped" \
    grep -qE "^opuntia: stopped by SIG$1 at iteration [0-9]+, time [0-9.e+-]+$" <(tail -n 1 "$work/$2.out")
  check "SIG$1: no line is cut" whole_lines "$2"
  check "SIG$1: nothing on stderr" test ! -s "$work/$2.err"
}
stopped_by TERM tiny_step 'Cactus::terminate = "time"' 'Cactus::cctk_final_time = 1' 'Time::timestep = 1e-300'
stopped_cleanly TERM tiny_step
check "a final time out of reach is told before the run" has_line tiny_step \
  "tiny_step.par:3:27: warning: reaching Cactus::cctk_final_time = 1 from time 0 takes about 1e+300 steps of dt = 1e-300: the run will not get there; Time::timestep set at tiny_step.par:4:18"
stopped_by TERM far_final_time 'Cactus::terminate = "time"' 'Cactus::cctk_final_time = 1e300' 'Time::timestep = 1e-300'
check "... and one that more steps than a double counts reach, in words (not 'inf')" has_line far_final_time \
  "far_final_time.par:3:27: warning: reaching Cactus::cctk_final_time = 1e+300 from time 0 takes more steps than a double counts of dt = 1e-300: the run will not get there; Time::timestep set at far_final_time.par:4:18"
stopped_by INT no_final_time 'Cactus::terminate = "time"'
stopped_cleanly INT no_final_time
check "terminate = time with no final time is told before the run" has_line no_final_time \
  'no_final_time.par:2:21: warning: Cactus::terminate = "time" but Cactus::cctk_final_time = -1 is never reached (a negative final time means none): the run does not end'
check "... once" test "$(grep -c 'warning: Cactus::terminate' "$work/no_final_time.out")" -eq 1
stopped_by INT no_runtime_limit 'Cactus::terminate = "runtime"'
stopped_cleanly INT no_runtime_limit
check "terminate = runtime with no max_runtime is told before the run" has_line no_runtime_limit \
  'no_runtime_limit.par:2:21: warning: Cactus::terminate = "runtime" but Cactus::max_runtime = 0 sets no limit (only a positive number of minutes does): the run does not end'
# SIGHUP (its terminal or ssh connection closed) stops a run as SIGTERM does, and the output folder
# it wrote nothing in goes, lock and all.
stopped_by HUP hung_up 'Cactus::terminate = "never"' 'IO::out_dir = "hung_up_dir"'
stopped_cleanly HUP hung_up
check "SIGHUP: the output folder it wrote nothing in is gone" test ! -e "$work/hung_up_dir"
# A closed pipe (opuntia x.par | head -1): SIGPIPE stops it at the next routine, exit status 141,
# and nothing is left behind; the writes after it fail quietly instead of killing the run.
printf 'ActiveThorns = "HeatEquation"\nCactus::terminate = "never"\nIO::out_dir = "piped_dir"\n' >"$work/piped.par"
(cd "$work" && timeout 60 "$opuntia" piped.par 2>piped.err | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >piped.status)
check "SIGPIPE: exit status 141" test "$(cat "$work/piped.status")" -eq 141
check "SIGPIPE: the output folder it wrote nothing in is gone" test ! -e "$work/piped_dir"
check "SIGPIPE: nothing on stderr" test ! -s "$work/piped.err"
# pocl's LLVM takes SIGQUIT over when the OpenCL backend is probed ("auto"); the run puts the
# default back, so SIGQUIT ends it as it ends any program.
stopped_by QUIT probed 'Cactus::terminate = "never"' 'CaKernel::backend = "auto"'
check "SIGQUIT ends a run whose backend was probed" test $status -eq $((128 + $(kill -l QUIT)))

finish
