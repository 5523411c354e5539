# Shared by the shell tests: `check "what" command...` counts a pass when the command succeeds,
# prints "FAILED: what" otherwise; `finish` prints the "N passed, M failed" line and sets the
# exit status. Each test runs in its own temporary folder, $work, removed at exit.
passes=0
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() {
  local what=$1
  shift
  if "$@"; then
    passes=$((passes + 1))
  else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}

# step WHAT LOG COMMAND...: runs COMMAND, its output in LOG, as the check WHAT; prints the end
# of LOG where it fails, and returns its status.
step() {
  local what=$1 log=$2 status
  shift 2
  "$@" >"$log" 2>&1
  status=$?
  check "$what" test "$status" -eq 0
  [ "$status" -eq 0 ] || tail -30 "$log"
  return "$status"
}

finish() {
  echo "$passes passed, $failures failed"
  test "$failures" -eq 0
}

# After the run NAME (its output in $work/NAME.out) ended with STATUS: its digest lines
# (IO::out_digest_vars) in $work/NAME.digest, and the end of its output if it failed; returns
# STATUS. same_digest A B: both runs printed the same digests (A's not empty); where they differ,
# diff shows the lines.
record_run() {
  grep '^INFO (IO): digest of ' "$work/$1.out" >"$work/$1.digest"
  [ "$2" -eq 0 ] || { echo "run $1 failed:"; tail -5 "$work/$1.out"; }
  return "$2"
}
same_digest() { [ -s "$work/$1.digest" ] && diff "$work/$1.digest" "$work/$2.digest"; }

# run_lines NAME RANKS LINES...: LINES, one a line, in $work/NAME.par, run from $work by $opuntia
# (under $mpiexec where RANKS > 1), its output in $work/NAME.out, then record_run.
run_lines() {
  local name=$1 ranks=$2
  shift 2
  printf '%s\n' "$@" >"$work/$name.par"
  if [ "$ranks" -eq 1 ]; then
    (cd "$work" && "$opuntia" "$name.par" >"$name.out" 2>&1)
  else
    (cd "$work" && "$mpiexec" --oversubscribe -np "$ranks" "$opuntia" "$name.par" >"$name.out" 2>&1)
  fi
  record_run "$name" $?
}

# find_python_with MODULE...: sets $python to a Python that imports every MODULE (Debian's
# python3-h5py, python3-matplotlib; a python3 earlier on PATH may lack them), or to nothing where
# there is none.
find_python_with() {
  python=
  local imports
  imports=$(IFS=,; echo "$*")
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c "import $imports" 2>/dev/null; then
      python=$candidate
      return
    fi
  done
}
find_python_with_h5py() { find_python_with h5py numpy; }
# The same, where the test cannot go on without one: says so and exits with status 1.
require_python_with_h5py() {
  find_python_with_h5py
  [ -n "$python" ] && return
  echo "FAILED: no python3 with h5py and numpy (scripts/install_deps.sh installs python3-h5py)"
  exit 1
}
