#!/usr/bin/env bash
# parfiles/README.md names every parameter file of parfiles/, and the program reads each one
# (`--show-schedule`: every thorn, name, type and range checked, nothing run). A file that
# activates a thorn this build lacks (IOHDF5 without HDF5) is only named.
# Usage: parfiles_test.sh OPUNTIA SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/../check.sh"
opuntia=$(realpath "$1")
src=$(realpath "$2")

"$opuntia" --list-thorns >"$work/thorns"
for parfile in "$src"/parfiles/*.par; do
  name=$(basename "$parfile")
  check "parfiles/README.md names $name" grep -qF "[$name]($name)" "$src/parfiles/README.md"
  missing=
  for thorn in $(sed -n 's/^ActiveThorns *= *"\(.*\)".*/\1/p' "$parfile"); do
    grep -q "^$thorn " "$work/thorns" || missing=$thorn
  done
  if [ -n "$missing" ]; then
    echo "note: this build has no thorn $missing: $name not read"
    continue
  fi
  (cd "$work" && "$opuntia" --show-schedule "$parfile" >"$work/out" 2>&1)
  status=$?
  check "$name is read and scheduled" test $status -eq 0
  [ $status -eq 0 ] || cat "$work/out"
done
finish
