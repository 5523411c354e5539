#!/usr/bin/env bash
# Checkpoints and recovery (IO::checkpoint_every, checkpoint_keep, checkpoint_on_terminate,
# recover, recover_file; IOHDF5 writes the files). Three parts, one CTest test each:
#   recovery   a run of 8 iterations and one checkpointed at 4 then recovered to 8 end with the
#              same digests (IO::out_digest_vars), for HeatEquation and WaveToy (3 time levels),
#              on each backend given, written on 1 rank and recovered on 1 and 3 ranks and the
#              other way round (collective HDF5 writes and writes through rank 0, periodic too: on the
#              first backend given); a checkpoint written in the background (IO::checkpoint_in_background,
#              the default) equals, dataset for dataset, the one the run waits for at the same iteration;
#              on a device, such checkpoints say what each cost the device.
#   kill       12 runs on the first backend given, killed with SIGKILL at random moments, 6 of them while a checkpoint is
#              being written (OPUNTIA_TEST_CHECKPOINT_DELAY_MS makes each take 60 ms), each then
#              recovered with IO::recover = "auto" to the end: the digest of the uninterrupted run
#              every time, recovered from the newest complete checkpoint, every file named as a
#              checkpoint readable whole (h5py), no temporary ever taken.
#   behaviour  checkpoint_keep, checkpoint_on_terminate at the end and on SIGTERM, the file's
#              layout (h5py), and the refusals word for word: a changed parameter that may not
#              change, the active thorns changed, manual with a missing file, no checkpoint
#              thorn; recover = "auto" with an empty folder, and past a damaged file; a background
#              write that fails fails the run, naming the file (a full file system too); a
#              reader holding the output open does not stop the run writing into it; SIGTERM
#              during one stops the run once it is complete.
# Usage: checkpoint_test.sh OPUNTIA PART MPIEXEC|- [BACKEND...]   (MPIEXEC "-": no MPI)
opuntia=$(realpath "$1")
part=$2
mpiexec=$3
[ "$mpiexec" = "-" ] && mpiexec=
shift 3
backends=("${@:-openmp}")
. "$(dirname "$0")/../check.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run tests as root
export OMP_NUM_THREADS=1

find_python_with_h5py

base() {  # base APPLICATION BACKEND: the lines every run of it shares
  local grid='Driver::global_nx = 13\nDriver::global_ny = 11\nDriver::global_nz = 9\n'
  case $1 in
    heat) printf 'ActiveThorns = "HeatEquation IOHDF5"\nTime::timestep = 0.0005\nIO::out_digest_vars = "heatequation::u"\n' ;;
    wavetoy) printf 'ActiveThorns = "WaveToy IOHDF5"\nTime::dtfac = 0.25\nIO::out_digest_vars = "wavetoy::phi"\nWaveToy::wave_number_y = 0.5\n' ;;
    # 16 x 16 cells and a ghost cell around them, in 2D (thorns/LidDrivenCavity/README.md)
    cavity) printf 'ActiveThorns = "LidDrivenCavity IOHDF5"\nLidDrivenCavity::dimensions = 2\nIO::out_digest_vars = "all"\n'
            grid='Driver::global_nx = 18\nDriver::global_ny = 18\nDriver::global_nz = 3\nDriver::xmin = -0.0625\nDriver::ymin = -0.0625\nDriver::zmin = -0.0625\nDriver::zmax = 0.0625\n' ;;
  esac
  printf 'CaKernel::backend = "%s"\nCactus::progress_every = 0\nCactus::cctk_timer_output = "off"\n' "$2"
  printf "$grid"
}

# run NAME RANKS APPLICATION BACKEND [LINES...]: a run in $work/NAME (its output folder),
# printing to $work/NAME.out; the digest lines in $work/NAME.digest.
run() {
  local name=$1 ranks=$2 application=$3 backend=$4
  shift 4
  run_lines "$name" "$ranks" "$(base "$application" "$backend")" "$@" "IO::out_dir = \"$name\""
}
has_line() { grep -qxF "$2" "$work/$1.out"; }
# Copies the output folder of run FROM to that of run TO: a recovery of its own.
fork() { rm -rf "${work:?}/$2" && cp -r "$work/$1" "$work/$2"; }
# The checkpoints in folder NAME, by iteration: "4 8".
checkpoints() {
  (cd "$work/$1" 2>/dev/null && ls checkpoint.it*.h5 2>/dev/null) | sed 's/checkpoint\.it\([0-9]*\)\.h5/\1/' | sort -n | xargs
}
# temporaries FOLDER: the writers' temporary files in it; 0 where a run killed early made no folder.
temporaries() {
  local count
  count=$(cd "$work/$1" 2>/dev/null && ls -A | grep -c '^\.checkpoint\..*\.tmp$')
  echo "${count:-0}"
}
# same_checkpoint A B: the two checkpoint files hold the same datasets, bit for bit, with the same
# attributes, and the same parameters but for the output folder and IO::checkpoint_in_background.
same_checkpoint() {
  [ -n "$python" ] || { echo "SKIPPED: no python3 with h5py"; return 0; }
  "$python" -c 'import h5py, sys
a, b = (h5py.File(path, "r") for path in sys.argv[1:])
assert sorted(a) == sorted(b), (sorted(a), sorted(b))
def parameters(f):
    return [line for line in f["parameters"][()].decode().splitlines()
            if not line.startswith(("IO::out_dir = ", "IO::checkpoint_in_background = "))]
assert parameters(a) == parameters(b)
for name in a:
    if name == "parameters":
        continue
    assert a[name].dtype == b[name].dtype and a[name].shape == b[name].shape, name
    assert a[name][()].tobytes() == b[name][()].tobytes(), name
    assert sorted(a[name].attrs) == sorted(b[name].attrs), name
    for key in a[name].attrs:
        assert a[name].attrs[key].tobytes() == b[name].attrs[key].tobytes(), (name, key)
for key in ("iteration", "time", "dt", "ranks", "checkpoint_format"):
    assert a.attrs[key] == b.attrs[key], key
' "$work/$1" "$work/$2"
}

recovery() {
  local ranks_list=(1)
  [ -n "$mpiexec" ] && ranks_list=(1 3)
  for backend in "${backends[@]}"; do
    for application in heat wavetoy; do
      local id=${application}_$backend
      check "$id: 8 iterations uninterrupted" run "${id}_whole" 1 "$application" "$backend" 'Cactus::cctk_itlast = 8'
      check "$id: 4 iterations, a checkpoint at 4 that the run waits for" run "${id}_waited" 1 "$application" \
        "$backend" 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4' 'IO::checkpoint_in_background = no'
      for writer in "${ranks_list[@]}"; do
        check "$id: 4 iterations on $writer rank(s), a checkpoint at 4" \
          run "${id}_half$writer" "$writer" "$application" "$backend" 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4'
        if [ "$writer" -eq 1 ]; then
          check "$id: the checkpoint written in the background is the one the run waits for, dataset for dataset" \
            same_checkpoint "${id}_half1/checkpoint.it4.h5" "${id}_waited/checkpoint.it4.h5"
        fi
        for reader in "${ranks_list[@]}"; do
          local name=${id}_${writer}to$reader
          fork "${id}_half$writer" "$name"
          run "$name" "$reader" "$application" "$backend" 'Cactus::cctk_itlast = 8' 'IO::checkpoint_every = 4' \
            'IO::recover = "auto"'
          check "$id: written on $writer, recovered on $reader rank(s): the digest of the uninterrupted run" \
            same_digest "${id}_whole" "$name"
          check "$id: written on $writer, recovered on $reader rank(s): from iteration 4" \
            has_line "$name" "INFO (IOHDF5): recovering from $name/checkpoint.it4.h5: iteration 4, time $(
              [ "$application" = heat ] && echo 0.002 || echo 0.0833333) (written by $writer rank$([ "$writer" -gt 1 ] && echo s))"
        done
      done
    done
  done
  # A snapshot copies again only the grid functions written since the one before (the cavity's
  # diagnostics, between their iterations, are not) and every scalar (the pressure solve's, which
  # a host routine writes through a reference): the cavity's checkpoint at 6 in the background,
  # its third, is the one the run waits for at 6, dataset for dataset.
  for backend in "${backends[@]}"; do
    run "cavity_${backend}_background" 1 cavity "$backend" 'Cactus::cctk_itlast = 6' 'IO::checkpoint_every = 2'
    run "cavity_${backend}_waited" 1 cavity "$backend" 'Cactus::cctk_itlast = 6' 'IO::checkpoint_every = 2' \
      'IO::checkpoint_in_background = no'
    check "cavity, $backend: later snapshots skip the arrays nothing wrote since the one before" \
      grep -qE '^INFO \(IOHDF5\): checkpoint cavity_.*/checkpoint\.it6\.h5 written: .* \([1-9][0-9]* of its [0-9]+ arrays unchanged since the checkpoint before, not copied\)' \
      "$work/cavity_${backend}_background.out"
    check "cavity, $backend: the third checkpoint in the background is the one the run waits for, dataset for dataset" \
      same_checkpoint "cavity_${backend}_background/checkpoint.it6.h5" "cavity_${backend}_waited/checkpoint.it6.h5"
  done
  # On a device each checkpoint in the background says what it cost the device, against the pace
  # of the half interval before it (flesh/runtime/checkpoint_pace.hpp); the last one's write still
  # runs when the evolution ends, so it is not measured. On the host there is no device to ask.
  for backend in "${backends[@]}"; do
    run "pace_$backend" 1 wavetoy "$backend" 'Cactus::cctk_itlast = 2000' 'IO::checkpoint_every = 500'
    local costs
    costs=$(grep -cE "^INFO \(IOHDF5\): checkpoint of iteration (500|1000|1500) cost the device [-+][0-9]+\.[0-9]+ ms = -?[0-9]+\.[0-9] steps at the pace of the 250 steps before it \([0-9]+\.[0-9]+ ms a step\): its snapshot [-+][0-9.]+ ms, the [0-9]+ steps after it until its copies had reached the host [-+][0-9.]+ ms, the [0-9]+ steps after those until its write had ended [-+][0-9.]+ ms$" \
      "$work/pace_$backend.out")
    if [ "$backend" = openmp ]; then
      check "$backend: no device, no checkpoint's cost on it" test "$costs" -eq 0
    else
      check "$backend: checkpoints in the background say what each cost the device" test "$costs" -ge 1
      check "$backend: the checkpoint whose write outlasts the evolution is not measured" \
        bash -c "! grep -q 'checkpoint of iteration 2000 cost the device' '$work/pace_$backend.out'"
    fi
  done
  [ -n "$mpiexec" ] || return
  # Through rank 0 rather than collective MPI-IO; periodic (ghost zones are periodic images). On the
  # first backend given: what these check is the file, not the backend.
  local first=${backends[0]}
  run wave_rank0_half 3 wavetoy "$first" 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4' 'IOHDF5::collective_io = no'
  fork wave_rank0_half wave_rank0
  run wave_rank0 1 wavetoy "$first" 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
  check "a checkpoint written through rank 0 recovers bit for bit" same_digest "wavetoy_${first}_whole" wave_rank0
  local periodic=('Driver::periodic = yes' 'Driver::ghost_size = 2')
  run wave_periodic_whole 1 wavetoy "$first" 'Cactus::cctk_itlast = 8' "${periodic[@]}"
  run wave_periodic_half 1 wavetoy "$first" 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4' "${periodic[@]}"
  fork wave_periodic_half wave_periodic
  run wave_periodic 4 wavetoy "$first" 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"' "${periodic[@]}" \
    'Driver::processor_topology = "manual"' 'Driver::processor_topology_3d_z = 4' 'Driver::processor_topology_3d_x = 1'
  check "periodic, wide ghost zones, 1 rank recovered on 4 along z: bit for bit" same_digest wave_periodic_whole wave_periodic
}

kill_runs() {
  # A run of about a second, most of it writing checkpoints: 12 of them, 60 ms each.
  local lines=('Driver::global_nx = 24' 'Driver::global_ny = 24' 'Driver::global_nz = 24' 'Cactus::cctk_itlast = 48'
    'IO::checkpoint_every = 4' 'IO::checkpoint_keep = 2' 'IO::recover = "auto"')
  export OPUNTIA_TEST_CHECKPOINT_DELAY_MS=60
  check "the uninterrupted run" run whole 1 wavetoy "${backends[0]}" "${lines[@]}"
  check "... starts from the initial data, there being no checkpoint" has_line whole \
    'INFO (IOHDF5): IO::recover = "auto": no checkpoint in whole; starting from the initial data'
  local seed=${CHECKPOINT_KILL_SEED:-$$}
  RANDOM=$seed
  local during_write=0 failed_before=$failures
  for attempt in $(seq 12); do
    local name=kill$attempt
    { base wavetoy "${backends[0]}"; printf '%s\n' "${lines[@]}"; printf 'IO::out_dir = "%s"\n' "$name"; } >"$work/$name.par"
    (cd "$work" && exec "$opuntia" "$name.par" >"$name.killed.out" 2>&1) &
    local pid=$!
    if [ $((attempt % 2)) -eq 0 ]; then
      # While a checkpoint is written: once the n-th temporary file is there, a moment later.
      local wanted=$((1 + RANDOM % 6)) seen=0 last=
      for _ in $(seq 2000); do
        local tmp
        tmp=$(cd "$work/$name" 2>/dev/null && ls -A | grep '^\.checkpoint\..*\.tmp$' | head -1)
        if [ -n "$tmp" ] && [ "$tmp" != "$last" ]; then
          seen=$((seen + 1))
          last=$tmp
          [ $seen -ge $wanted ] && break
        fi
        sleep 0.005
      done
      sleep "0.0$((RANDOM % 4))"
    else
      sleep "$(printf '0.%03d' $((RANDOM % 1000)))"  # 0 to 1 s
    fi
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ "$(temporaries "$name")" -gt 0 ] && during_write=$((during_write + 1))
    local complete newest
    complete=$(checkpoints "$name")
    newest=${complete##* }
    if [ -n "$complete" ] && [ -n "$python" ]; then
      check "kill $attempt: every file named as a checkpoint ($complete) is whole" \
        "$python" -c 'import h5py, sys
for path in sys.argv[1:]:
    with h5py.File(path, "r") as f:
        assert f.attrs["iteration"] == int(path.split(".it")[1].split(".")[0])
        for name in f:
            f[name][()]
' $(for i in $complete; do echo "$work/$name/checkpoint.it$i.h5"; done)
    fi
    local ranks=1
    [ -n "$mpiexec" ] && [ $((attempt % 3)) -eq 0 ] && ranks=3
    run "$name" "$ranks" wavetoy "${backends[0]}" "${lines[@]}"
    check "kill $attempt (checkpoints left: ${complete:-none}), recovered on $ranks rank(s): the uninterrupted run's digest" \
      same_digest whole "$name"
    if [ -n "$newest" ]; then
      check "kill $attempt: recovered from the newest complete checkpoint, $newest" grep -qF \
        "INFO (IOHDF5): recovering from $name/checkpoint.it$newest.h5: iteration $newest" "$work/$name.out"
    else
      check "kill $attempt: no complete checkpoint, so the initial data" has_line "$name" \
        "INFO (IOHDF5): IO::recover = \"auto\": no checkpoint in $name; starting from the initial data"
    fi
    check "kill $attempt: no file passed over as damaged" bash -c "! grep -q 'passes over' '$work/$name.out'"
  done
  check "at least 3 of the kills came while a checkpoint was being written ($during_write)" test $during_write -ge 3
  [ $failures -eq $failed_before ] || echo "kill test: CHECKPOINT_KILL_SEED=$seed reproduces the moments"
  unset OPUNTIA_TEST_CHECKPOINT_DELAY_MS
}

behaviour() {
  # checkpoint_keep: the newest two of 2, 4, ..., 10; nothing else left behind.
  run keep 1 wavetoy openmp 'Cactus::cctk_itlast = 10' 'IO::checkpoint_every = 2' 'IO::checkpoint_keep = 2'
  check "checkpoint_keep = 2 keeps the newest two" test "$(checkpoints keep)" = "8 10"
  check "... and leaves no temporary" test "$(temporaries keep)" -eq 0
  check "... saying which it removed" has_line keep \
    "$(grep -o 'INFO (IOHDF5): checkpoint keep/checkpoint.it10.h5 written: .*' "$work/keep.out" | sed 's/; removed .*//'); removed checkpoint.it6.h5"
  if [ -n "$python" ]; then
    check "a checkpoint holds every time level, the header and the parameters (h5py)" "$python" -c '
import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    assert f.attrs["iteration"] == 10 and f.attrs["ranks"] == 1 and f.attrs["checkpoint_format"] == 1
    assert abs(f.attrs["time"] - 10 * f.attrs["dt"]) < 1e-12
    for level in range(3):
        d = f["WAVETOY::phi it=10 tl=%d" % level]
        assert d.shape == (9, 11, 13) and d.dtype == "<f8", d
        assert d.attrs["centering"] == b"vvv" and d.attrs["iteration"] == 10
    assert "WAVETOY::phi it=10 tl=3" not in f
    assert f["IOHDF5::hdf5_steps_written it=10 tl=0"][()] == 0
    parameters = f["parameters"][()].decode().splitlines()
    assert parameters[0].startswith("ActiveThorns = \"") and "WaveToy" in parameters[0], parameters[0]
    assert "Driver::global_ny = 11" in parameters and "IO::checkpoint_keep = 2" in parameters
' "$work/keep/checkpoint.it10.h5"
  fi

  # checkpoint_on_terminate: one at the end, none before.
  run at_end 1 wavetoy openmp 'Cactus::cctk_itlast = 5' 'IO::checkpoint_on_terminate = yes'
  check "checkpoint_on_terminate writes one at the end of the run" test "$(checkpoints at_end)" = "5"
  # ... and when SIGTERM stops the run, at the end of the iteration, from which it recovers.
  { base wavetoy openmp; printf '%s\n' 'Cactus::terminate = "never"' 'Cactus::progress_every = 1' \
      'IO::checkpoint_on_terminate = yes' 'IO::out_dir = "stopped"'; } >"$work/stopped.par"
  (cd "$work" && exec "$opuntia" stopped.par >stopped.out 2>&1) &
  local pid=$!
  for _ in $(seq 400); do
    grep -q '^it  *20 ' "$work/stopped.out" 2>/dev/null && break
    sleep 0.05
  done
  kill -TERM $pid
  wait $pid
  local status=$?
  check "SIGTERM: exit status 143" test $status -eq 143
  local stopped_at
  stopped_at=$(sed -n 's/^opuntia: stopped by SIGTERM at iteration \([0-9]*\), time .*/\1/p' "$work/stopped.out")
  check "SIGTERM: the run says where it stopped" test -n "$stopped_at"
  check "SIGTERM: the checkpoint of that iteration, and it alone" test "$(checkpoints stopped)" = "$stopped_at"
  check "SIGTERM: the checkpoint is written before the run stops" bash -c \
    "tail -n 2 '$work/stopped.out' | head -n 1 | grep -q '^INFO (IOHDF5): checkpoint stopped/checkpoint.it$stopped_at.h5 written: '"
  local upto=$((stopped_at + 3))
  run stopped_whole 1 wavetoy openmp "Cactus::cctk_itlast = $upto"
  run stopped 1 wavetoy openmp "Cactus::cctk_itlast = $upto" 'IO::recover = "auto"'
  check "SIGTERM: the run recovers from it bit for bit" same_digest stopped_whole stopped
  if [ -n "$mpiexec" ]; then
    { base wavetoy openmp; printf '%s\n' 'Cactus::terminate = "never"' 'Cactus::progress_every = 1' \
        'IO::checkpoint_on_terminate = yes' 'IO::out_dir = "stopped3"'; } >"$work/stopped3.par"
    (cd "$work" && exec "$mpiexec" --oversubscribe -np 3 "$opuntia" stopped3.par >stopped3.out 2>&1) &
    pid=$!
    for _ in $(seq 400); do
      grep -q '^it  *20 ' "$work/stopped3.out" 2>/dev/null && break
      sleep 0.05
    done
    # One rank signalled (a batch system signals each rank, not at one moment; Open MPI's mpirun,
    # signalled itself, ends the ranks without waiting for them).
    kill -TERM "$(pgrep -P $pid | sed -n 2p)"
    wait $pid
    stopped_at=$(sed -n 's/^opuntia: stopped by SIGTERM at iteration \([0-9]*\), time .*/\1/p' "$work/stopped3.out")
    check "SIGTERM to one of 3 ranks: every rank stops at one iteration, after its checkpoint" \
      test -n "$stopped_at" -a "$(checkpoints stopped3)" = "$stopped_at"
  fi

  # recover = "auto" in an empty folder: the initial data, said so.
  run whole8 1 wavetoy openmp 'Cactus::cctk_itlast = 8'
  run empty 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
  check "recover = auto with no checkpoint starts from the initial data" has_line empty \
    'INFO (IOHDF5): IO::recover = "auto": no checkpoint in empty; starting from the initial data'
  check "... and computes the uninterrupted run" same_digest whole8 empty
  # ... past a damaged file (not written by a checkpoint writer: they rename only whole files).
  run damaged 1 wavetoy openmp 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4'
  head -c 1000 "$work/damaged/checkpoint.it4.h5" >"$work/damaged/checkpoint.it6.h5"
  run damaged 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
  check "recover = auto passes over a damaged file, saying so" grep -qxE \
    'opuntia: warning: IO::recover = "auto" passes over damaged/checkpoint.it6.h5, which cannot be read: cannot open damaged/checkpoint.it6.h5: .+' \
    "$work/damaged.out"
  check "... and recovers from the one before, bit for bit" same_digest whole8 damaged
  # ... past one whose record of the parameters is damaged (its first line's bytes overwritten).
  run damaged_record 1 wavetoy openmp 'Cactus::cctk_itlast = 6' 'IO::checkpoint_every = 2' 'IO::checkpoint_keep = 2'
  offset=$(grep -obUa 'ActiveThorns = ' "$work/damaged_record/checkpoint.it6.h5" | head -1 | cut -d: -f1)
  head -c 24 /dev/zero | tr '\0' '\253' | dd of="$work/damaged_record/checkpoint.it6.h5" bs=1 seek="${offset:-0}" conv=notrunc 2>/dev/null
  run damaged_record 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
  check "recover = auto passes over a checkpoint whose parameters are damaged, saying so" grep -qE \
    '^opuntia: warning: IO::recover = "auto" passes over damaged_record/checkpoint.it6.h5, which cannot be read: checkpoint damaged_record/checkpoint.it6.h5 is damaged: its record of the parameters does not hold what was written \(checksum [0-9a-f]{16}, read [0-9a-f]{16}\)$' \
    "$work/damaged_record.out"
  check "... and recovers from the one before, bit for bit" same_digest whole8 damaged_record
  # ... but not from one whose values were damaged inside an intact file (one bit of a grid
  # function flipped): its checksum finds it, and the error names the checkpoint before it.
  if [ -n "$python" ]; then
    run damaged_values 1 wavetoy openmp 'Cactus::cctk_itlast = 6' 'IO::checkpoint_every = 2' 'IO::checkpoint_keep = 2'
    "$python" -c 'import h5py, sys
with h5py.File(sys.argv[1], "r") as f:
    phi = f["WAVETOY::phi it=6 tl=1"].id
    at = phi.get_offset() + phi.get_storage_size() // 2
with open(sys.argv[1], "r+b") as f:
    f.seek(at)
    byte = f.read(1)[0]
    f.seek(at)
    f.write(bytes([byte ^ 0x01]))' "$work/damaged_values/checkpoint.it6.h5"
    run damaged_values 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
    check "a checkpoint whose values are damaged is not recovered from" test $? -eq 1
    check "... saying which dataset, and how to recover from the one before or start anew" grep -qxE \
      'opuntia: error: checkpoint damaged_values/checkpoint.it6.h5 is damaged: dataset "WAVETOY::phi it=6 tl=1" does not hold what was written \(checksum [0-9a-f]{16}, read [0-9a-f]{16}\); to recover from the one before it: IO::recover = "manual" with IO::recover_file = "damaged_values/checkpoint.it4.h5"; to start anew from the initial data: IO::recover = "no", or another IO::out_dir' \
      "$work/damaged_values.out"
    if [ -n "$mpiexec" ]; then
      run damaged_values 3 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
      check "... on 3 ranks too" grep -qE \
        '^opuntia: error: checkpoint damaged_values/checkpoint.it6.h5 is damaged: dataset "WAVETOY::phi it=6 tl=1"' \
        "$work/damaged_values.out"
    fi
    run damaged_values 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "manual"' \
      'IO::recover_file = "damaged_values/checkpoint.it4.h5"'
    check "... and the one before it recovers the uninterrupted run" same_digest whole8 damaged_values
  fi
  # The timer report's steady state counts the background writes it holds, as it counts their
  # snapshots (the row's name carries a rate that changes, which once made it count all of them).
  run steady_report 1 wavetoy openmp 'Cactus::cctk_itlast = 60' 'IO::checkpoint_every = 5' 'Cactus::cctk_timer_output = "full"'
  steady_rows=$(sed -n '/^  steady state/,$p' "$work/steady_report.out")
  snapshots=$(echo "$steady_rows" | awk '/checkpoint: snapshot, the run waits/ {print $(NF-2)}')
  writes=$(echo "$steady_rows" | awk '/checkpoint: background write/ {print $(NF-2)}')
  all_writes=$(sed -n '1,/^  steady state/p' "$work/steady_report.out" | awk '/checkpoint: background write/ {print $(NF-2)}')
  check "the steady state counts as many background writes as snapshots ($writes, $snapshots)" \
    test -n "$writes" -a "$writes" = "$snapshots"
  check "... fewer than the whole run's ($all_writes)" test -n "$all_writes" -a "${writes:-0}" -lt "${all_writes:-0}"
  # ... and refuses to start again where no checkpoint there can be read.
  run unreadable 1 wavetoy openmp 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 2' 'IO::checkpoint_keep = 2'
  for f in "$work"/unreadable/checkpoint.it*.h5; do truncate -s 100 "$f"; done
  run unreadable 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"'
  check "recover = auto where every checkpoint is damaged fails" test $? -eq 1
  check "... saying none of them can be read" grep -qF \
    'error: IO::recover = "auto": none of the 2 checkpoints in unreadable can be read (each said above)' "$work/unreadable.out"

  # A background write that fails (its temporary name is taken by a folder) fails the run at the
  # next point that waits for it, naming the file and the reason, and leaves no file of it.
  mkdir -p "$work/failing/.checkpoint.it4.h5.tmp"
  run failing 1 wavetoy openmp 'Cactus::cctk_itlast = 12' 'IO::checkpoint_every = 4'
  check "a failed background write fails the run" test $? -eq 1
  check "... naming the file and the reason" grep -qxE \
    "opuntia: error: checkpoint failing/checkpoint.it4.h5 could not be written in the background: cannot create failing/.checkpoint.it4.h5.tmp: unable to open file: Is a directory" \
    "$work/failing.out"
  check "... leaving no checkpoint of it, nor a later one" test -z "$(checkpoints failing)"
  check "... and computing no further than the next checkpoint" bash -c "! grep -q 'digest of' '$work/failing.out'"
  # On 2 ranks every rank's part fails alike: said once, naming no rank.
  mkdir -p "$work/failing2/.checkpoint.it4.h5.tmp"
  run failing2 2 wavetoy openmp 'Cactus::cctk_itlast = 12' 'IO::checkpoint_every = 4'
  check "a failed background write on 2 ranks fails the run" test $? -eq 1
  check "... said once, naming no rank" test "$(grep -c 'could not be written' "$work/failing2.out")" -eq 1 -a \
    "$(grep -c 'on rank' "$work/failing2.out")" -eq 0

  # A write the system refuses half-way (here a file-size limit of 20 KiB, the checkpoint being
  # about 40 KiB): the run ignores SIGXFSZ, which would end it with no word, so the write fails
  # with EFBIG as on a full disk, and the run fails with the system's reason, not with HDF5's
  # crash at exit on the file it could not close.
  (ulimit -f 20; run too_large 1 wavetoy openmp 'Cactus::cctk_itlast = 12' 'IO::checkpoint_every = 4')
  check "a checkpoint larger than the system lets a file grow fails the run (status 1)" test $? -eq 1
  check "... naming the file and the system's reason" grep -qxE \
    "opuntia: error: checkpoint too_large/checkpoint.it4.h5 could not be written in the background: cannot write too_large/checkpoint.it4.h5: .*: (file write failed|unable to extend file properly): File too large" \
    "$work/too_large.out"
  check "... leaving no checkpoint and no temporary" test -z "$(checkpoints too_large)" -a "$(temporaries too_large)" = 0

  # IOHDF5's output of every iteration while checkpoints are written in the background, which
  # take 30 ms each here (the process makes its HDF5 calls one at a time): every step of the output is in
  # its file, and a checkpoint of the middle recovers the run bit for bit.
  OPUNTIA_TEST_CHECKPOINT_DELAY_MS=30 run overlapping 1 wavetoy openmp 'Cactus::cctk_itlast = 16' \
    'IO::checkpoint_every = 4' 'IO::checkpoint_keep = 4' 'IOHDF5::out_vars = "wavetoy::phi"' 'IOHDF5::out_every = 1'
  check "output of every iteration beside background checkpoints: the run ends well" test $? -eq 0
  if [ -n "$python" ]; then
    check "... every step of the output is in its file" "$python" -c 'import h5py, sys
names = sorted(name for name in h5py.File(sys.argv[1], "r") if name != "xdmf")
assert names == sorted("WAVETOY::phi it=%d tl=0" % i for i in range(17)), names' "$work/overlapping/phi.h5"
  fi
  run overlapping_recovered 1 wavetoy openmp 'Cactus::cctk_itlast = 16' 'IO::recover = "manual"' \
    'IO::recover_file = "overlapping/checkpoint.it8.h5"'
  check "... and its checkpoint of iteration 8 recovers the run bit for bit" same_digest overlapping overlapping_recovered

  # A reader keeps the output open while the run writes into it (ParaView, h5py): HDF5's reader
  # holds the file's lock as long as it is open, and the run's next step, asking for it, ended
  # the run ("unable to lock file"). Here the recovered run replaces steps 9-16 of the file.
  if [ -n "$python" ]; then
    fork overlapping watched
    "$python" -c 'import h5py, os, sys, time
reader = h5py.File(sys.argv[1], "r")
open(sys.argv[2], "w").close()
for _ in range(600):
    if os.path.exists(sys.argv[3]): break
    time.sleep(0.1)' "$work/watched/phi.h5" "$work/reader_ready" "$work/reader_stop" &
    reader=$!
    for _ in $(seq 100); do [ -e "$work/reader_ready" ] && break; sleep 0.1; done
    run watched 1 wavetoy openmp 'Cactus::cctk_itlast = 16' 'IO::recover = "manual"' \
      'IO::recover_file = "watched/checkpoint.it8.h5"' 'IOHDF5::out_vars = "wavetoy::phi"' 'IOHDF5::out_every = 1'
    check "a reader holding the output open does not stop the run writing into it" test $? -eq 0
    touch "$work/reader_stop"
    wait "$reader"
    check "... the steps it wrote are in the file" "$python" -c 'import h5py, sys
names = sorted(name for name in h5py.File(sys.argv[1], "r") if name != "xdmf")
assert names == sorted("WAVETOY::phi it=%d tl=0" % i for i in range(17)), names' "$work/watched/phi.h5"
  fi

  # SIGTERM while a checkpoint is written in the background (each takes a second here): the run
  # stops at the next boundary once the write in flight is complete, and says so first.
  { base wavetoy openmp; printf '%s\n' 'Cactus::terminate = "never"' 'IO::checkpoint_every = 4' \
      'IO::out_dir = "signalled"'; } >"$work/signalled.par"
  (cd "$work" && OPUNTIA_TEST_CHECKPOINT_DELAY_MS=1000 exec "$opuntia" signalled.par >signalled.out 2>&1) &
  pid=$!
  for _ in $(seq 400); do
    [ "$(temporaries signalled)" -gt 0 ] && break
    sleep 0.05
  done
  kill -TERM $pid
  wait $pid
  status=$?
  check "SIGTERM during a background write: exit status 143" test $status -eq 143
  local newest
  newest=$(checkpoints signalled)
  check "... the newest checkpoint complete ($newest), no temporary left" test -n "$newest" -a "$(temporaries signalled)" -eq 0
  check "... and said before the run stops" bash -c \
    "tail -n 2 '$work/signalled.out' | head -n 1 | grep -q '^INFO (IOHDF5): checkpoint signalled/checkpoint.it$newest.h5 written: .* in the background; '"

  # Refusals, each at its line.
  run changed_half 1 wavetoy openmp 'Cactus::cctk_itlast = 4' 'IO::checkpoint_every = 4'
  fork changed_half changed
  run changed 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"' 'Driver::global_ny = 12' \
    'WaveToy::speed = 0.5'
  check "a changed parameter that may not change is refused" test $? -ne 0
  check "... at its line, with both values" has_line changed \
    'changed.par:13:21: error: Driver::global_ny = 12, but checkpoint changed/checkpoint.it4.h5 was written with 11: it may not change on recovery (its param.ccl declaration has no STEERABLE=recover)'
  check "... every one of them" has_line changed \
    'changed.par:14:18: error: WaveToy::speed = 0.5, but checkpoint changed/checkpoint.it4.h5 was written with 1: it may not change on recovery (its param.ccl declaration has no STEERABLE=recover); to start anew from the initial data instead: IO::recover = "no", or another IO::out_dir'
  check "... before anything is computed" bash -c "! grep -q 'digest of' '$work/changed.out'"
  fork changed_half thorns
  run thorns 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "auto"' 'ActiveThorns = "IOASCII"'
  check "changed active thorns are refused at the ActiveThorns line" has_line thorns \
    'thorns.par:13:17: error: the active thorns differ from those of checkpoint thorns/checkpoint.it4.h5: IOASCII active here only; they may not change on recovery; to start anew from the initial data instead: IO::recover = "no", or another IO::out_dir'
  run missing 1 wavetoy openmp 'IO::recover = "manual"' 'IO::recover_file = "nowhere/checkpoint.it4.h5"'
  check "recover = manual with a missing file is refused at its line" has_line missing \
    'missing.par:12:20: error: IO::recover_file = "nowhere/checkpoint.it4.h5": no such file'
  run unnamed 1 wavetoy openmp 'IO::recover = "manual"'
  check "recover = manual without a file is refused" has_line unnamed \
    'unnamed.par:11:15: error: IO::recover = "manual" needs IO::recover_file, the checkpoint to recover from'
  run manual 1 wavetoy openmp 'Cactus::cctk_itlast = 8' 'IO::recover = "manual"' \
    'IO::recover_file = "changed_half/checkpoint.it4.h5"'
  check "recover = manual recovers from the file named" same_digest whole8 manual
  { printf 'ActiveThorns = "WaveToy"\nIO::checkpoint_every = 4\nIO::out_dir = "nothorn"\n'; } >"$work/nothorn.par"
  (cd "$work" && "$opuntia" nothorn.par >nothorn.out 2>&1)
  check "checkpoints without a thorn that writes them are refused" has_line nothorn \
    'nothorn.par:2:24: error: IO::checkpoint_every = 4: no active thorn writes checkpoints; activate IOHDF5'
}

case $part in
  recovery) recovery ;;
  kill) kill_runs ;;
  behaviour) behaviour ;;
  *) echo "unknown part '$part'"; exit 2 ;;
esac
finish
