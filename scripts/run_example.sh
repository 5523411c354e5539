#!/usr/bin/env bash
# The main example. Until the flesh can run parfiles, it compiles the example thorn's
# descriptor and shows the OpenMP code generated for its kernel.
set -euo pipefail
build_dir=$1
gen="$build_dir/generator/opuntia-gen"
thorn=thorns/HeatEquation

echo "== opuntia-gen check $thorn/*.ccl"
"$gen" check "$thorn"/interface.ccl "$thorn"/param.ccl "$thorn"/schedule.ccl "$thorn"/cakernel.ccl templates/deps.ccl
echo "all files parse"
echo
echo "== opuntia-gen show --thorn $thorn --kernel Heat_Update --backend openmp"
"$gen" show --thorn "$thorn" --kernel Heat_Update --backend openmp --templates templates
