#!/usr/bin/env bash
# The main example: runs a parameter file (WaveToy by default) with the opuntia program on
# OpenMP, printing progress, the comparison with the exact solution and a timer report.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
parfile=$(cd "$(dirname "${2:-parfiles/wavetoy.par}")" && pwd)/$(basename "${2:-parfiles/wavetoy.par}")
mkdir -p "$build_dir/run"
echo "== opuntia $parfile   (output in $build_dir/run/)"
cd "$build_dir/run"
"$build_dir/opuntia" "$parfile"
