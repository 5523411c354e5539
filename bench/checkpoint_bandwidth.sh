#!/usr/bin/env bash
# Checkpoint bandwidth against the disk: WaveToy at N^3 (3 time levels of doubles, 24 N^3 bytes a
# checkpoint) writes a checkpoint after each of its iterations (IO::checkpoint_every = 1), and the
# same folder gets a plain write of as many bytes, flushed as a checkpoint is (dd conv=fsync),
# three times before and three after the run (a shared disk varies from one write to the next:
# the best of each is printed). A checkpoint's time is what the run prints: from the first byte to the
# folder synced after the rename. Not a test: it prints figures and asserts nothing.
# Usage: bench/checkpoint_bandwidth.sh OPUNTIA [N=256] [CHECKPOINTS=3] [RANKS=1] [FOLDER=checkpoint_bench] [BACKEND=openmp]
#   RANKS > 1 runs under mpirun (collective MPI-IO with a parallel HDF5 library). The last line
#   puts a checkpoint against the run's time step (its kernels' time per iteration, from the timer
#   report): on a GPU, what a checkpoint costs in steps.
set -euo pipefail
opuntia=$(realpath "$1")
n=${2:-256}
count=${3:-3}
ranks=${4:-1}
dir=${5:-checkpoint_bench}
backend=${6:-openmp}
mkdir -p "$dir"
dir=$(realpath "$dir")
trap 'rm -rf "$dir"' EXIT

seconds() { date +%s.%N; }
bytes=$((24 * n * n * n))

plain_write() {  # the same bytes, flushed to the disk
  local start end
  start=$(seconds)
  dd if=/dev/zero of="$dir/plain" bs=16M count=$(((bytes + 16777215) / 16777216)) conv=fsync status=none
  end=$(seconds)
  rm -f "$dir/plain"
  awk -v b="$bytes" -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", b / (e - s) / 1048576 }'
}

echo "checkpoint bandwidth: WaveToy ${n}^3, $count checkpoints of $((bytes / 1048576)) MiB, $ranks rank(s), backend $backend, in $dir"
echo "$(uname -n), $(nproc) cores; $(df -h "$dir" | awk 'NR == 2 { print $1 " (" $2 ")" }')"
best_plain_write() { for _ in 1 2 3; do plain_write; echo; done | sort -g | tail -1; }
before=$(best_plain_write)
cat >"$dir/bench.par" <<EOF
ActiveThorns = "WaveToy IOHDF5"
CaKernel::backend = "$backend"
Driver::global_nx = $n
Driver::global_ny = $n
Driver::global_nz = $n
Time::dtfac = 0.25
Cactus::cctk_itlast = $count
Cactus::progress_every = 0
IO::out_dir = "$dir/out"
IO::checkpoint_every = 1
IO::checkpoint_keep = 1
EOF
if [ "$ranks" -gt 1 ]; then
  mpirun --oversubscribe -np "$ranks" "$opuntia" "$dir/bench.par" >"$dir/bench.out"
else
  "$opuntia" "$dir/bench.par" >"$dir/bench.out"
fi
after=$(best_plain_write)
grep -o 'checkpoint .* written: .*' "$dir/bench.out" | sed 's/;.*//; s/^/  /'
times=$(sed -n 's/.* written: .* in \([0-9.]*\) s .*/\1/p' "$dir/bench.out" | sort -g)
best=$(head -1 <<<"$times")
median=$(awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }' <<<"$times")
awk -v b="$bytes" -v s="$best" -v m="$median" -v before="$before" -v after="$after" 'BEGIN {
  rate = b / s / 1048576
  disk = before > after ? before : after
  printf "checkpoint: best %.1f MiB/s, median %.1f; plain write with fsync: best %.1f MiB/s before, %.1f after; " \
         "best checkpoint / best plain write = %.0f%%\n", rate, b / m / 1048576, before, after, 100 * rate / disk
}'
# The time step: the kernels' seconds (every CAKERNEL_Launch_ row of the timer report) of runs of 60
# and 10 iterations without checkpoints, their difference over 50, so that the first launches are
# left out; the median checkpoint against it.
kernel_seconds() {
  sed -e '/^IO::checkpoint_every/d' -e "s/^Cactus::cctk_itlast = .*/Cactus::cctk_itlast = $1/" "$dir/bench.par" >"$dir/step.par"
  "$opuntia" "$dir/step.par" | awk '$1 ~ /^CAKERNEL_Launch_/ { s += $4 } END { print s }'
}
short=$(kernel_seconds 10)
long=$(kernel_seconds 60)
awk -v short="$short" -v long="$long" -v m="$median" 'BEGIN {
  step = (long - short) / 50
  printf "time step (kernels, 60 - 10 iterations): %.3f ms; a checkpoint (median %.3f s) costs %.0f steps\n", 1000 * step, m, m / step
}'
