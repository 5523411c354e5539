#!/usr/bin/env bash
# The body contract is checked by the compiler: I3D_l on a variable that is not cached=yes, or
# beyond the kernel's STENCIL, fails to compile with a message naming the variable, on every
# backend (OpenMP with the C++ compiler; CUDA with nvcc when it is installed: no GPU needed).
# Offsets that are integer literals opuntia-gen checks itself (golden case err_body_beyond_stencil):
# the compiler's check is for those it cannot read, such as a cast or a macro.
# Usage: kernel_compile_errors.sh OPUNTIA_GEN SOURCE_DIR
set -uo pipefail
source "$(dirname "$0")/../check.sh"
gen=$1
src=$2
cxx=${CXX:-c++}

# make_case NAME DESCRIPTOR_SED BODY_SED: a copy of HeatEquation with one mistake.
make_case() {
  local name=$1
  mkdir -p "$work/$name"
  cp -r "$src/thorns/HeatEquation" "$work/$name/Heat"
  sed -i "$2" "$work/$name/Heat/cakernel.ccl"
  sed -i "$3" "$work/$name/Heat/src/Heat_Update.kernel"
  "$gen" generate --thorn "$work/$name/Heat" --templates "$src/templates" --out "$work/$name/out" >"$work/$name/gen.log" 2>&1
}

# compile_openmp CASE [VARIANT]
compile_openmp() {
  "$cxx" -std=c++20 -fopenmp -fsyntax-only -I "$work/$1/out/Heat/bindings" -I "$work/$1/Heat" -I "$src/flesh/include" -I "$src" \
    "$work/$1/out/Heat/openmp/Heat_Update_${2:-3dblock}.cpp" >"$work/$1/openmp.log" 2>&1
}

# compile_cuda CASE [VARIANT]
compile_cuda() {
  nvcc -std=c++17 -arch=sm_90 -c -o "$work/$1/cuda.o" -I "$work/$1/out/Heat/bindings" -I "$work/$1/Heat" \
    -I "$src/flesh/include" -I "$src" "$work/$1/out/Heat/cuda/Heat_Update_${2:-3dblock}.cu" >"$work/$1/cuda.log" 2>&1
}

# The unchanged thorn compiles: the checks below fail for the reason they name.
make_case good "s/x/x/" "s/x/x/"
compile_openmp good
check "the unchanged body compiles (OpenMP)" test $? -eq 0

make_case not_cached "s/cached=yes/cached=no/" "s/x/x/"
compile_openmp not_cached
check "I3D_l on a variable that is not cached fails (OpenMP)" test $? -ne 0
check "... naming the variable (OpenMP)" grep -q "I3D_l(u, ...): u is not cached=yes in kernel Heat_Update" "$work/not_cached/openmp.log"

make_case literal_beyond "s/x/x/" "s/I3D_l(u, 1, 0, 0)/I3D_l(u, 2, 0, 0)/"
check "I3D_l beyond the STENCIL by a literal fails to generate" test ! -e "$work/literal_beyond/out"
check "... at the body's line" grep -qF "Heat/src/Heat_Update.kernel:11:30: error: I3D_l(u, 2, 0, 0) reaches 2 points along +x, beyond the STENCIL of kernel 'Heat_Update'" \
  "$work/literal_beyond/gen.log"

make_case beyond "s/x/x/" "s/I3D_l(u, 1, 0, 0)/I3D_l(u, (int)2, 0, 0)/"
compile_openmp beyond
check "I3D_l beyond the STENCIL fails (OpenMP)" test $? -ne 0
check "... naming the variable (OpenMP)" grep -q "I3D_l(u, ...) reaches beyond the STENCIL of kernel Heat_Update" "$work/beyond/openmp.log"

# 3dstencil is for cardinal stencils: I3D_l off the axes does not compile there, in 3dblock it does.
make_case off_axes 's/TYPE=.*/TYPE="*\/3dblock|3dstencil"/' "s/I3D_l(u, 1, 0, 0)/I3D_l(u, 1, 1, 0)/"
compile_openmp off_axes 3dblock
check "I3D_l off the axes compiles in 3dblock (OpenMP)" test $? -eq 0
compile_openmp off_axes 3dstencil
check "I3D_l off the axes fails in 3dstencil (OpenMP)" test $? -ne 0
check "... naming the variable (OpenMP)" grep -q "I3D_l(u, ...) is off the axes: a 3dstencil kernel (Heat_Update)" "$work/off_axes/openmp.log"

if command -v nvcc >/dev/null && [ -f "$work/good/out/Heat/cuda/Heat_Update_3dblock.cu" ]; then
  compile_cuda good
  check "the unchanged body compiles (CUDA)" test $? -eq 0
  compile_cuda not_cached
  check "I3D_l on a variable that is not cached fails (CUDA)" test $? -ne 0
  check "... naming the variable (CUDA)" grep -q "u is not cached=yes in kernel Heat_Update" "$work/not_cached/cuda.log"
  compile_cuda off_axes 3dstencil
  check "I3D_l off the axes fails in 3dstencil (CUDA)" test $? -ne 0
  check "... naming the variable (CUDA)" grep -q "is off the axes: a 3dstencil kernel (Heat_Update)" "$work/off_axes/cuda.log"
  compile_cuda beyond
  check "I3D_l beyond the STENCIL fails (CUDA)" test $? -ne 0
  check "... naming the variable (CUDA)" grep -q "I3D_l(u, ...) reaches beyond the STENCIL of kernel Heat_Update" "$work/beyond/cuda.log"
  # The build's register cap reaches the kernels: HeatEquation's TILE 64,4,4 is 32 x 4 threads in
  # fp64, so 8 blocks an SM leave each thread 65536 / (128 x 8) = 64 registers.
  nvcc -std=c++17 -arch=sm_90 -c -o "$work/good/cap.o" -DOPUNTIA_CUDA_MIN_BLOCKS=8 -Xptxas -v \
    -I "$work/good/out/Heat/bindings" -I "$work/good/Heat" -I "$src/flesh/include" -I "$src" \
    "$work/good/out/Heat/cuda/Heat_Update_3dblock.cu" >"$work/good/cap.log" 2>&1
  check "OPUNTIA_CUDA_MIN_BLOCKS compiles (CUDA)" test $? -eq 0
  check "... and caps the registers at 65536 / (threads x blocks)" \
    awk '/Used [0-9]+ registers/ { for (i = 1; i < NF; ++i) if ($(i + 1) == "registers") n = $i; if (n > 64) bad = 1; seen = 1 }
         END { exit !(seen && !bad) }' "$work/good/cap.log"
  # Lanes a build sets that the launcher does not compile: three x points a thread.
  nvcc -std=c++17 -arch=sm_90 -c -o "$work/good/lanes.o" -DCAKERNEL_Heat_Update_3dblock_LANES=3 \
    -I "$work/good/out/Heat/bindings" -I "$work/good/Heat" -I "$src/flesh/include" -I "$src" \
    "$work/good/out/Heat/cuda/Heat_Update_3dblock.cu" >"$work/good/lanes.log" 2>&1
  check "lanes that are not a power of two fail (CUDA)" test $? -ne 0
  check "... naming the macro and what it may be" \
    grep -q "CAKERNEL_Heat_Update_3dblock_LANES: the x points a thread of kernel Heat_Update (3dblock) owns must be a power of two" \
    "$work/good/lanes.log"
  # A ring of 11 planes (STENCIL 8) of 18 x 528 points (TILE 2 x 512) is 836 KB a block.
  make_case huge_ring 's/TYPE=.*/TYPE="*\/3dblock_ring"/; s/STENCIL=.*/STENCIL=8/; s/TILE=.*/TILE="2,512,4"/' "s/x/x/"
  compile_cuda huge_ring 3dblock_ring
  check "shared planes larger than any GPU allows fail (CUDA)" test $? -ne 0
  check "... naming the kernel and what to change" \
    grep -q "the shared planes of kernel Heat_Update (3dblock_ring) need more than 227 KiB a block.*make TILE's x or y smaller" \
    "$work/huge_ring/cuda.log"
else
  echo "no nvcc or no CUDA templates: CUDA compile checks skipped"
fi

finish
