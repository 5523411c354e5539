#!/usr/bin/env bash
# The main example. Until the flesh can run parfiles, it compiles the example thorn's
# descriptor and shows the OpenMP code generated for its kernel.
set -euo pipefail
build_dir=$1
gen="$build_dir/generator/opuntia-gen"
thorn=thorns/HeatEquation

echo "== opuntia-gen check --thorn $thorn   (every file parsed, every name checked)"
"$gen" check --thorn "$thorn" --templates templates
echo "ok"
echo
echo "== opuntia-gen show --thorn $thorn --kernel Heat_Update --backend openmp"
"$gen" show --thorn "$thorn" --kernel Heat_Update --backend openmp --templates templates
