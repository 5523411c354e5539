#!/usr/bin/env bash
# Checkpoint bandwidth against the disk: WaveToy at N^3 (3 time levels of doubles, 24 N^3 bytes a
# checkpoint) writes a checkpoint after each of its iterations (IO::checkpoint_every = 1), waiting
# for each (IO::checkpoint_in_background = no), and the same folder gets a plain write of as many bytes, flushed as a checkpoint is (dd conv=fsync),
# three times before and three after the run (a shared disk varies from one write to the next:
# the best of each is printed). A checkpoint's time is what the run prints: from the first byte to the
# folder synced after the rename. Then what a checkpoint costs the run, in steps, for both values
# of IO::checkpoint_in_background: the same run with CHECKPOINTS checkpoints and without any, the
# difference of their times over CHECKPOINTS, against the run's time per iteration; and, in the
# background, within each run: the half interval after each checkpoint against the half before
# it, from the progress lines. Not a test: it prints figures and asserts nothing.
# Usage: bench/checkpoint_bandwidth.sh OPUNTIA [N=256] [CHECKPOINTS=3] [RANKS=1] [FOLDER=checkpoint_bench] [BACKEND=openmp] [EVERY]
#   RANKS > 1 runs under mpirun (collective MPI-IO with a parallel HDF5 library; such runs always
#   wait for their checkpoints). EVERY: the iterations between two checkpoints of the cost runs
#   (rounded up to a multiple of 8); by default enough for three times the median checkpoint's
#   time, at least 24, so that a background write ends before the next checkpoint (and the first
#   checkpoint's within-run window lies past iteration 10; a smaller EVERY loses it).
set -euo pipefail
opuntia=$(realpath "$1")
n=${2:-256}
count=${3:-3}
ranks=${4:-1}
folder=${5:-checkpoint_bench}
backend=${6:-openmp}
every=${7:-}
. "$(dirname "$0")/plain_write.sh"  # benchmark_folder, plain_write, best_of_three_writes
benchmark_folder "$folder" checkpoint_bench  # $dir: the writes' own folder inside FOLDER; what FOLDER held stays

bytes=$((24 * n * n * n))


echo "checkpoint bandwidth: WaveToy ${n}^3, $count checkpoints of $((bytes / 1048576)) MiB, $ranks rank(s), backend $backend, in $dir"
echo "$(uname -n), $(nproc --all) cores; $(df -h "$dir" | awk 'NR == 2 { print $1 " (" $2 ")" }')"
best_plain_write() { best_of_three_writes conv=fsync; }  # the same bytes, flushed to the disk
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
IO::checkpoint_in_background = no
EOF
run() {  # run PARFILE OUTPUT
  if [ "$ranks" -gt 1 ]; then
    mpirun --oversubscribe -np "$ranks" "$opuntia" "$1" >"$2"
  else
    "$opuntia" "$1" >"$2"
  fi
}
run "$dir/bench.par" "$dir/bench.out"
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
# The time step: the kernels' seconds (every CAKERNEL_Launch_ row of the timer report) and the
# evolution's (the report's last line: start-up, and the end-of-run wait for the last checkpoint
# write, left out; the whole run's "in all" varied by a quarter second with the GPU's start-up)
# of a run of STEADY iterations without checkpoints, over STEADY. (The difference of runs of 60
# and 10 iterations, used before, came out negative on an H200 where a step is 0.1-0.2 ms.)
# variant ITERATIONS NAME [LINES...]: bench.par without checkpoints, ITERATIONS iterations, and LINES, run; its output in NAME.out.
variant() {
  local iterations=$1 name=$2
  shift 2
  { sed -e '/^IO::checkpoint_/d' -e "s/^Cactus::cctk_itlast = .*/Cactus::cctk_itlast = $iterations/" \
      -e "s/^Cactus::progress_every = .*/Cactus::progress_every = ${progress:-0}/" "$dir/bench.par"
    printf '%s\n' "$@"; } >"$dir/$name.par"
  run "$dir/$name.par" "$dir/$name.out"
}
# The kernels' seconds: the timer report's rows before its steady-state part (whose columns are
# per call).
kernel_seconds() { awk '/^  evolution:/ { exit } $1 ~ /^CAKERNEL_Launch_/ { s += $4 } END { print s }' "$dir/$1.out"; }
run_seconds() { sed -n 's/^  evolution: [0-9]* iterations in \([0-9.]*\) s.*/\1/p' "$dir/$1.out"; }
steady=${STEADY:-2000}
variant "$steady" steady
read -r kernel_step step < <(awk -v k="$(kernel_seconds steady)" -v r="$(run_seconds steady)" -v n="$steady" \
  'BEGIN { print k / n, r / n }')
awk -v k="$kernel_step" -v s="$step" -v m="$median" -v n="$steady" 'BEGIN {
  printf "time step (%d iterations): kernels %.3f ms, the run %.3f ms; a checkpoint written while the run waits (median %.3f s) is %.1f of its steps\n", \
         n, 1000 * k, 1000 * s, m, m / s
}'

# The cost: the run of ITERATIONS = (CHECKPOINTS + 1) EVERY - 1 iterations without checkpoints,
# with CHECKPOINTS of them (iterations EVERY, 2 EVERY, ...) in the background, and with as many
# that the run waits for; each of its lines also says what the run stalled for. The runs without
# and in the background alternate ROUNDS times (COST_ROUNDS, default 3) and the median of each
# round's difference is the cost: two runs of the same file can differ by more than a background
# checkpoint costs (bench/RESULTS.md, 2026-12-02). Each round also gives the cost in time outside
# the kernels (the run's time less its kernels' on the device), which the device's pace from one
# run to the next does not move. EVERY is three times a waited write by default: a background
# write also removes the checkpoint before (a tenth of a second for 384 MiB on the H200 machine's
# disk), and a checkpoint due while the write before still runs waits for it (its line says so,
# and so does the round here), which is not what one checkpoint costs. Twice, used before, left
# too little room under a profiler (bench/RESULTS.md, 2026-12-02).
# At least 24: the half interval before the first checkpoint (below) must start past iteration 10,
# where the progress lines' steady state starts; with 16 (a short waited write against a slow
# step, as on a loaded machine) the first checkpoint's window was lost.
[ -n "$every" ] || every=$(awk -v m="$median" -v s="$step" 'BEGIN { e = int(3 * m / s) + 1; print e < 24 ? 24 : e }')
# EVERY in whole eighths: the cost runs print a progress line every eighth of it (below).
every=$(((every + 7) / 8 * 8))
progress=$((every / 8))
iterations=$(((count + 1) * every - 1))
rounds=${COST_ROUNDS:-3}
echo "cost: $iterations iterations, a checkpoint every $every (in the background: a snapshot, then the write while the run goes on), $rounds rounds"
stalls() { sed -n 's/.* the run stalled \([0-9.]*\) s for its snapshot.*/\1/p' "$dir/$1.out" | xargs; }
# previous_waits NAME: how many checkpoints of run NAME waited for the write before, and how long in all.
previous_waits() {
  sed -n 's/.* and \([0-9.]*\) s for the write before it, still running.*/\1/p' "$dir/$1.out" |
    awk '{ n++; t += $1 } END { printf "%d (%.4f s)", n, t }'
}
# Within one run: the progress lines' GLUP/s is the steady state's since iteration 10 (the flesh's
# steady_after_iterations), so each line's iteration N gives the run's wall time there,
# N^3 (N - 10) / (GLUP/s 1e9), to about 10 us in 12 s. A checkpoint at iteration C then costs the
# half interval after it less the half interval before it: (t(C + EVERY/2) - t(C)) - (t(C) -
# t(C - EVERY/2)); the run without checkpoints, at the same iterations, is the control. Unlike
# the difference of two runs (the runs' pace differs by up to 4 ms a checkpoint from one to the
# next, bench/RESULTS.md, 2026-12-02), this compares stretches of the same run.
# window_costs NAME: one line a checkpoint iteration, its cost in seconds.
window_costs() {
  awk -v points="$((n * n * n))" -v every="$every" -v count="$count" '
    $1 == "it" && $6 == "GLUP/s" && $2 > 10 && $5 > 0 { wall[$2 + 0] = points * ($2 - 10) / ($5 * 1e9) }
    END {
      half = every / 2
      for (c = every; c <= count * every; c += every)
        if ((c - half) in wall && c in wall && (c + half) in wall)
          print (wall[c + half] - wall[c]) - (wall[c] - wall[c - half])
    }' "$dir/$1.out"
}
# quartiles_of: the median of the numbers on standard input, how many, and their first and third
# quartiles (each the median of its half, the middle number left out of both).
quartiles_of() {
  sort -g | awk '
    function median(lo, hi,   m) { m = hi - lo + 1; return m % 2 ? v[lo + (m - 1) / 2] : (v[lo + m / 2 - 1] + v[lo + m / 2]) / 2 }
    { v[NR] = $1 }
    END { if (NR) printf "%.9g %d %.9g %.9g\n", median(1, NR), NR, median(1, int(NR / 2) > 0 ? int(NR / 2) : 1),
                          median(NR - (int(NR / 2) > 0 ? int(NR / 2) : 1) + 1, NR) }'
}
costs=()
window_background=()
window_none=()
for round in $(seq 1 "$rounds"); do
  variant "$iterations" "none$round"
  variant "$iterations" "background$round" "IO::checkpoint_every = $every" 'IO::checkpoint_in_background = yes'
  [ "$round" -gt 1 ] || grep -o 'checkpoint .* written: .* in [0-9.]* s' "$dir/background1.out" | sed 's/.* written: /  background write: /'
  read -r cost outside < <(awk -v t="$(run_seconds "background$round")" -v t0="$(run_seconds "none$round")" \
    -v k="$(kernel_seconds "background$round")" -v k0="$(kernel_seconds "none$round")" -v c="$count" \
    'BEGIN { print (t - t0) / c, ((t - k) - (t0 - k0)) / c }')
  costs+=("$cost")
  awk -v t="$(run_seconds "background$round")" -v t0="$(run_seconds "none$round")" -v cost="$cost" -v outside="$outside" \
    -v n="$iterations" -v stalls="$(stalls "background$round")" -v waits="$(previous_waits "background$round")" 'BEGIN {
    s = t0 / n
    printf "  round: background %.3f s against %.3f s without: a checkpoint costs %.4f s = %.1f steps (outside the kernels %.4f s = %.1f steps); its snapshots stalled the run %s s; checkpoints that waited for the write before: %s\n", \
           t, t0, cost, cost / s, outside, outside / s, stalls, waits
  }'
  mapfile -t -O "${#window_background[@]}" window_background < <(window_costs "background$round")
  mapfile -t -O "${#window_none[@]}" window_none < <(window_costs "none$round")
done
variant "$iterations" waited "IO::checkpoint_every = $every" 'IO::checkpoint_in_background = no'
grep -h '^  checkpoints every' "$dir/background1.out" "$dir/waited.out" | sed 's/^  /  /'
# A step of the cost runs: the first run without checkpoints' own.
step=$(awk -v t0="$(run_seconds none1)" -v n="$iterations" 'BEGIN { print t0 / n }')
read -r cost_median cost_rounds _ < <(printf '%s\n' "${costs[@]}" | quartiles_of)
awk -v m="$cost_median" -v n="$cost_rounds" -v s="$step" 'BEGIN {
  printf "  background: a checkpoint costs %.4f s = %.1f steps (median of %d rounds)\n", m, m / s, n
}'
# The control's median is not zero where the runs' pace drifts within a run (on the H200 the half
# after a point ran 1.5 ms faster than the half before it, bench/RESULTS.md, 2026-12-02), so the
# cost is the checkpoints' median less the control's; each with its quartiles, the spread that
# this difference is to be read against.
read -r window_cost window_n window_q1 window_q3 < <(printf '%s\n' "${window_background[@]}" | quartiles_of)
read -r window_control window_control_n control_q1 control_q3 < <(printf '%s\n' "${window_none[@]}" | quartiles_of)
awk -v c="${window_cost:-nan}" -v nc="${window_n:-0}" -v c1="${window_q1:-nan}" -v c3="${window_q3:-nan}" \
    -v z="${window_control:-nan}" -v nz="${window_control_n:-0}" -v z1="${control_q1:-nan}" -v z3="${control_q3:-nan}" -v s="$step" 'BEGIN {
  printf "  background, within each run: a checkpoint %.4f s = %.1f steps (median of %d checkpoints, quartiles %.4f, %.4f s); the runs without, at the same iterations: %.4f s = %.1f steps (median of %d, quartiles %.4f, %.4f s)\n", \
         c, c / s, nc, c1, c3, z, z / s, nz, z1, z3
  printf "  background, within each run, less the runs without: a checkpoint costs %.4f s = %.1f steps\n", c - z, (c - z) / s
}'
# On the device's own clock (flesh/runtime/checkpoint_pace.hpp: a line for each checkpoint written
# in the background on a device): the device's time from the snapshot to the step at which the
# write had ended, less as many steps at the pace of the half interval before the checkpoint;
# neither the host's lead over the device nor the runs' pace from one to the next moves it.
# device_costs NAME: one line a checkpoint: its whole cost, its snapshot's, and the cost until its
# copies had reached the host, in steps of its pace.
device_costs() {
  sed -n 's/.* cost the device \([-+0-9.]*\) ms = .* (\([0-9.]*\) ms a step): its snapshot \([-+0-9.]*\) ms, .* until its copies had reached the host \([-+0-9.]*\) ms, .*/\1 \2 \3 \4/p' \
    "$dir/$1.out" | awk '{ printf "%.6g %.6g %.6g\n", $1 / $2, $3 / $2, ($3 + $4) / $2 }'
}
device_lines=$(for round in $(seq 1 "$rounds"); do device_costs "background$round"; done)
if [ -n "$device_lines" ]; then
  read -r whole whole_n whole_q1 whole_q3 < <(awk '{ print $1 }' <<<"$device_lines" | quartiles_of)
  read -r snapshot _ snapshot_q1 snapshot_q3 < <(awk '{ print $2 }' <<<"$device_lines" | quartiles_of)
  read -r landed _ landed_q1 landed_q3 < <(awk '{ print $3 }' <<<"$device_lines" | quartiles_of)
  printf '  background, on the device'"'"'s clock: a checkpoint costs %.1f steps (median of %d checkpoints, quartiles %.1f, %.1f): its snapshot %.1f (%.1f, %.1f), until its copies had reached the host %.1f (%.1f, %.1f)\n' \
    "$whole" "$whole_n" "$whole_q1" "$whole_q3" "$snapshot" "$snapshot_q1" "$snapshot_q3" "$landed" "$landed_q1" "$landed_q3"
fi
awk -v t="$(run_seconds waited)" -v t0="$(run_seconds none1)" -v c="$count" -v s="$step" 'BEGIN {
  cost = (t - t0) / c
  printf "  waited     %.3f s against %.3f s without: a checkpoint costs %.4f s = %.1f steps\n", t, t0, cost, cost / s
}'
