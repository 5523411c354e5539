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
