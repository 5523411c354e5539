#!/usr/bin/env bash
# Runs every benchmark of the build and prints its figures (record them in bench/RESULTS.md).
set -euo pipefail
build_dir=$1
echo "== stencil_bench: copy bandwidth, plain and generated OpenMP stencils, 256^3 fp64"
OMP_PROC_BIND=true "$build_dir/bench/stencil_bench" 256 20
echo
echo "== generator_bench"
"$build_dir/bench/generator_bench"
echo
echo "== digest_bench: a checkpoint's checksums, one core"
"$build_dir/bench/digest_bench"
echo
echo "== opuntia-gen generate, whole process, every thorn of thorns/"
out=$(mktemp -d)
thorn_args=()
for dir in thorns/*/; do
  [ -f "$dir/interface.ccl" ] && thorn_args+=(--thorn "${dir%/}")
done
start=$(date +%s%N)
"$build_dir/generator/opuntia-gen" generate "${thorn_args[@]}" --templates templates --out "$out"
end=$(date +%s%N)
echo "wall time: $(( (end - start) / 1000 )) us for $(( ${#thorn_args[@]} / 2 )) thorn(s), files written: $(find "$out" -type f | wc -l)"
rm -rf "$out"
