#!/usr/bin/env bash
# Output bandwidth against the disk: WaveToy at N^3 writes IOHDF5::out_vars (VARS, by default
# wavetoy::phi: N^3 doubles a variable and step, the global array without ghost zones) after
# every one of its COUNT iterations and of the initial data (IOHDF5::out_every = 1), and the same folder gets plain writes
# of as many bytes as one output step, three before the run and three after (a shared disk varies
# from one write to the next: the best of each is printed), with `dd conv=fsync` (the disk) and
# without (the page cache: output, unlike a checkpoint, is not flushed to the disk before the run
# goes on). An output step's time is the timer report's IOHDF5_Output over its calls (on a device
# that includes the copy of each variable written to the host); its cost in steps is the run's
# time with output less the same run without, over COUNT, against the run's time per iteration.
# Not a test: it prints figures and asserts nothing.
# Usage: bench/output_bandwidth.sh OPUNTIA [N=256] [COUNT=10] [RANKS=1] [FOLDER=output_bench] [BACKEND=openmp] [VARS=wavetoy::phi]
#   RANKS > 1 runs under mpirun (collective MPI-IO with a parallel HDF5 library, else through rank 0).
set -euo pipefail
opuntia=$(realpath "$1")
n=${2:-256}
count=${3:-10}
ranks=${4:-1}
folder=${5:-output_bench}
backend=${6:-openmp}
vars=${7:-wavetoy::phi}
. "$(dirname "$0")/plain_write.sh"  # benchmark_folder, plain_write, best_of_three_writes
benchmark_folder "$folder" output_bench  # $dir: the writes' own folder inside FOLDER; what FOLDER held stays

variables=$(wc -w <<<"$vars")
bytes=$((8 * n * n * n * variables))  # an output step

# The best of three; then `sync`, so that the page cache's writes of one measurement do not run
# into the next (an output run after three unflushed writes took twice as long, 2026-12-03).
best_plain_write() {
  best_of_three_writes "$@"
  sync
}

echo "output bandwidth: WaveToy ${n}^3, $vars ($((bytes / 1048576)) MiB a step), $count steps, $ranks rank(s), backend $backend, in $dir"
echo "$(uname -n), $(nproc --all) cores; $(df -h "$dir" | awk 'NR == 2 { print $1 " (" $2 ")" }')"
disk_before=$(best_plain_write conv=fsync)
cache_before=$(best_plain_write)

# run NAME [LINES...]: WaveToy for COUNT iterations with LINES; its output in NAME.out.
run() {
  local name=$1
  shift
  { printf '%s\n' 'ActiveThorns = "WaveToy IOHDF5"' "CaKernel::backend = \"$backend\"" "Driver::global_nx = $n" \
      "Driver::global_ny = $n" "Driver::global_nz = $n" 'Time::dtfac = 0.25' "Cactus::cctk_itlast = $count" \
      'Cactus::progress_every = 0' "IO::out_dir = \"$dir/$name\""
    printf '%s\n' "$@"; } >"$dir/$name.par"
  if [ "$ranks" -gt 1 ]; then
    mpirun --oversubscribe -np "$ranks" "$opuntia" "$dir/$name.par" >"$dir/$name.out"
  else
    "$opuntia" "$dir/$name.par" >"$dir/$name.out"
  fi
}
run output 'IOHDF5::out_every = 1' "IOHDF5::out_vars = \"$vars\""
written=$(du -cb "$dir"/output/*.h5 | tail -1 | cut -f1)
sync
run none
disk_after=$(best_plain_write conv=fsync)
cache_after=$(best_plain_write)

# routine NAME ROUTINE: its calls and seconds over the whole run of NAME (the timer report's rows
# before its steady-state part). IOHDF5_Output writes at each call here, the initial data's too.
routine() { awk -v r="$2" '/^  evolution:/ { exit } $1 == r { print $3, $4; exit }' "$dir/$1.out"; }
run_seconds() { sed -n 's/^  evolution: [0-9]* iterations in \([0-9.]*\) s.*/\1/p' "$dir/$1.out"; }
read -r outputs output_seconds < <(routine output IOHDF5_Output)
awk -v b="$bytes" -v c="$outputs" -v s="$output_seconds" -v w="$written" -v db="$disk_before" -v da="$disk_after" \
    -v cb="$cache_before" -v ca="$cache_after" 'BEGIN {
  disk = db > da ? db : da
  cache = cb > ca ? cb : ca
  rate = c * b / s / 1048576
  printf "output: %d steps of %.1f MiB in %.3f s, %.4f s a step: %.1f MiB/s (files %.1f MiB); plain write with fsync: best %.1f MiB/s before, %.1f after; without: best %.1f, %.1f; output / disk = %.0f%%, output / page cache = %.0f%%\n", \
         c, b / 1048576, s, s / c, rate, w / 1048576, db, da, cb, ca, 100 * rate / disk, 100 * rate / cache
}'
awk -v t="$(run_seconds output)" -v t0="$(run_seconds none)" -v c="$count" 'BEGIN {
  step = t0 / c
  cost = (t - t0) / c
  printf "cost: %.3f s with output against %.3f s without: an output step costs %.4f s = %.1f steps of %.4f s\n", \
         t, t0, cost, cost / step, step
}'
