#!/usr/bin/env bash
# Four processes start at once on an empty program cache (as MPI ranks of one job do): all must
# succeed, and the cache must end with exactly one binary for the one program they all build
# and no temporary file. A fifth run then finds it there, and --clear-cache empties it.
# (Autotuning, which would build a program a tile and store its choice, is off.)
# Usage: opencl_cache_race.sh OPUNTIA
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
export XDG_CACHE_HOME="$work/xdg"  # pocl's own cache too: every process compiles for itself

cat >"$work/heat.par" <<PAR
ActiveThorns = "HeatEquation"
Cactus::cctk_itlast = 4
Cactus::progress_every = 0
Cactus::cctk_timer_output = "off"
Driver::global_nx = 17
Driver::global_ny = 17
Driver::global_nz = 17
CaKernel::backend = "opencl"
CaKernel::autotune = "no"
CaKernel::cache_dir = "$work/cache"
IO::out_dir = "$work/out"
PAR

pids=()
for rank in 0 1 2 3; do
  "$opuntia" "$work/heat.par" >"$work/run_$rank.log" 2>&1 &
  pids+=($!)
done
for rank in 0 1 2 3; do
  wait "${pids[$rank]}"
  check "process $rank of 4 exits 0" test $? -eq 0
done
check "the cache holds exactly one binary" test "$(find "$work/cache" -name '*.clbin' | wc -l)" -eq 1
check "and nothing else (no temporary file) but its tag" test "$(find "$work/cache" -type f ! -name CACHEDIR.TAG | wc -l)" -eq 1
binary=$(find "$work/cache" -name '*.clbin')
before=$(stat -c %i "$binary")  # a rewrite renames a new file (inode) into place
"$opuntia" "$work/heat.par" >"$work/run_again.log" 2>&1
check "a later run succeeds" test $? -eq 0
check "... and reuses the cached binary" test "$(stat -c %i "$binary")" = "$before"

"$opuntia" --clear-cache "$work/heat.par" >"$work/clear.log" 2>&1
check "--clear-cache exits 0" test $? -eq 0
check "--clear-cache says what it removed" grep -q "removed 1 entry from $work/cache" "$work/clear.log"
check "--clear-cache empties the cache" test "$(find "$work/cache" -type f ! -name CACHEDIR.TAG | wc -l)" -eq 0

# cache_dir naming a folder of the user's: their files stay, and a folder with no entry and no
# tag is refused (CaKernel::cache_dir = "." once deleted the parameter file beside it).
mkdir -p "$work/mine/results"
cp "$work/heat.par" "$work/mine/run.par"
echo 'CaKernel::cache_dir = "."' >>"$work/mine/run.par"
(cd "$work/mine" && "$opuntia" --clear-cache run.par >"$work/clear_mine.log" 2>&1)
check "--clear-cache of a folder that is no cache exits 1" test $? -eq 1
check "... and says why" grep -q "error: . is not a cache of built programs (no CACHEDIR.TAG, no entries); nothing removed" "$work/clear_mine.log"
check "... and the parameter file and results are still there" test -f "$work/mine/run.par" -a -d "$work/mine/results"
(cd "$work/mine" && "$opuntia" run.par >"$work/run_mine.log" 2>&1)
check "a run with cache_dir = . succeeds" test $? -eq 0
(cd "$work/mine" && "$opuntia" --clear-cache run.par >"$work/clear_mine.log" 2>&1)
check "--clear-cache then removes the entry it stored there" grep -q "removed 1 entry from . (kept 2 other files there)" "$work/clear_mine.log"
# cache_dir naming a file, or nothing yet.
cp "$work/heat.par" "$work/file_cache.par"
echo "CaKernel::cache_dir = \"$work/heat.par\"" >>"$work/file_cache.par"
"$opuntia" --clear-cache "$work/file_cache.par" >"$work/clear_file.log" 2>&1
check "--clear-cache of a file exits 1" test $? -eq 1
check "... saying it is no folder" grep -qF "opuntia: error: CaKernel::cache_dir $work/heat.par is not a folder; nothing removed" "$work/clear_file.log"
cp "$work/heat.par" "$work/no_cache.par"
echo "CaKernel::cache_dir = \"$work/not_yet\"" >>"$work/no_cache.par"
"$opuntia" --clear-cache "$work/no_cache.par" >"$work/clear_none.log" 2>&1
check "--clear-cache of a cache not made yet exits 0" test $? -eq 0
check "... saying there is none" grep -qF "opuntia: no cache at $work/not_yet: nothing to remove" "$work/clear_none.log"
check "... and nothing of the user's" test -f "$work/mine/run.par" -a -d "$work/mine/results"

# A platform or device that does not exist: a clear error, listing what the machine has.
sed 's/^CaKernel::backend = "opencl"/&\nCaKernel::opencl_platform = "no-such-platform"/' "$work/heat.par" >"$work/bad_platform.par"
"$opuntia" "$work/bad_platform.par" >"$work/bad_platform.log" 2>&1
check "an unknown platform exits 1" test $? -eq 1
line=$(grep -n '^CaKernel::opencl_platform' "$work/bad_platform.par" | cut -d: -f1)
check "... at the parfile line that set it, naming the parameter and listing the platforms" \
  grep -q "^$work/bad_platform.par:$line:29: error: CaKernel::opencl_platform = \"no-such-platform\": no OpenCL platform matches (platforms: 0 \"" \
  "$work/bad_platform.log"
check "... with that line" grep -qxF 'CaKernel::opencl_platform = "no-such-platform"' "$work/bad_platform.log"
check "... and a caret under its value" grep -qxF '                            ^' "$work/bad_platform.log"
sed 's/^CaKernel::backend = "opencl"/&\nCaKernel::opencl_device = "99"/' "$work/heat.par" >"$work/bad_device.par"
"$opuntia" "$work/bad_device.par" >"$work/bad_device.log" 2>&1
check "an unknown device exits 1" test $? -eq 1
line=$(grep -n '^CaKernel::opencl_device' "$work/bad_device.par" | cut -d: -f1)
check "... at the parfile line that set it, naming the parameter and listing the devices" \
  grep -q "^$work/bad_device.par:$line:27: error: CaKernel::opencl_device = \"99\": no OpenCL device matches on any platform (devices: 0 \"" \
  "$work/bad_device.log"

"$opuntia" --list-devices >"$work/devices.log" 2>&1
check "--list-devices exits 0" test $? -eq 0
check "--list-devices lists an OpenCL platform with a default device" grep -q '\[default\]' "$work/devices.log"
"$opuntia" --list-devices "$work/bad_device.par" >"$work/devices.log" 2>&1
check "--list-devices with a parfile that selects nothing still lists" grep -q '^opencl platform 0:' "$work/devices.log"
check "... marks none, and says why" grep -q '^opencl: no device is marked: CaKernel::opencl_device = "99": no OpenCL device matches' "$work/devices.log"
check "... the list's marks all gone" bash -c "! grep -q '\[default\]' '$work/devices.log'"
finish
