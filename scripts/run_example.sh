#!/usr/bin/env bash
# The main example: runs the heat-equation parameter file with the opuntia program (on
# OpenMP), printing progress, the comparison with the analytic solution and a timer report.
set -euo pipefail
build_dir=$(cd "$1" && pwd)
parfile=$(cd "$(dirname "${2:-parfiles/heat_equation.par}")" && pwd)/$(basename "${2:-parfiles/heat_equation.par}")
mkdir -p "$build_dir/run"
echo "== opuntia $parfile   (output in $build_dir/run/)"
cd "$build_dir/run"
"$build_dir/opuntia" "$parfile"
