#!/usr/bin/env bash
# The main example: the lid-driven cavity of Ghia, Ghia & Shin (1982), 2D, Re = 100 on 128^2
# cells, run to steady state on OpenMP with progress and a timer report; then its centrelines
# against Ghia's table (tools/ldc_compare.py) and a PNG of them with the velocity magnitude and
# streamlines (tools/plot_ldc.py). Another parameter file runs alone:
#   scripts/run_example.sh BUILD_DIR [PARFILE]
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "$1" && pwd)
default=$source_dir/parfiles/lid_driven_cavity_2d_re100.par
parfile=$(cd "$(dirname "${2:-$default}")" && pwd)/$(basename "${2:-$default}")
mkdir -p "$build_dir/run"
echo "== opuntia $parfile   (output in $build_dir/run/)"
cd "$build_dir/run"
"$build_dir/opuntia" "$parfile"
[ "$parfile" = "$default" ] || exit 0
out_dir=$build_dir/run/$(basename "$parfile" .par)
# A python3 with matplotlib and h5py (Debian's, scripts/install_deps.sh; one earlier on PATH may lack them).
python=python3
"$python" -c 'import h5py, matplotlib' 2>/dev/null || python=/usr/bin/python3
echo "== the centrelines against Ghia et al. (1982)"
"$python" "$source_dir/tools/ldc_compare.py" --reynolds 100 "$out_dir"
echo "== the plot"
"$python" "$source_dir/tools/plot_ldc.py" --reynolds 100 --out "$out_dir/lid_driven_cavity.png" "$out_dir"
