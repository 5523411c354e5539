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

finish() {
  echo "$passes passed, $failures failed"
  test "$failures" -eq 0
}

# After the run NAME (its output in $work/NAME.out) ended with STATUS: its digest lines
# (IO::out_digest_vars) in $work/NAME.digest, and the end of its output if it failed; returns
# STATUS. same_digest A B: both runs printed the same digests.
record_run() {
  grep '^INFO (IO): digest of ' "$work/$1.out" >"$work/$1.digest"
  [ "$2" -eq 0 ] || { echo "run $1 failed:"; tail -5 "$work/$1.out"; }
  return "$2"
}
same_digest() { [ -s "$work/$1.digest" ] && cmp -s "$work/$1.digest" "$work/$2.digest"; }

# Sets $python to a Python that imports MODULES (a comma-separated list: Debian's python3 has the
# packages scripts/install_deps.sh installs; a python3 earlier on PATH may lack them), or to
# nothing where there is none.
find_python_with() {
  python=
  for candidate in python3 /usr/bin/python3; do
    if "$candidate" -c "import $1" 2>/dev/null; then
      python=$candidate
      return
    fi
  done
}
find_python_with_h5py() { find_python_with 'h5py, numpy'; }
