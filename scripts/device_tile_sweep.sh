#!/usr/bin/env bash
# On the GPU machine: gpu_stencil_bench with extra copies of the GpuStencilBench kernels, each
# with another TILE, in the fp64 and the float build at once. The copies go into a scratch copy of
# the source tree (build/tile-sweep/src), so the repository's thorn is left as it is.
#   bash scripts/device_tile_sweep.sh "Star25:64_8_63 Star25:64_16_63 Star7:32_8_8" [n]
# Each argument word is KERNEL:TILE with TILE's x_y_z; the copy is named KERNEL_x_y_z and has the
# original's STENCIL, TYPE and body. CUDA_DEFINES (environment) goes into both builds' CUDA
# flags, e.g. CUDA_DEFINES="-DCAKERNEL_Star25_32_16_32_3dblock_ring_MIN_BLOCKS=4" (a register cap
# for one copy: templates/cuda/common.h.tpl, OPUNTIA_CUDA_MIN_BLOCKS).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
specs=${1:?usage: device_tile_sweep.sh "KERNEL:X_Y_Z ..." [n]}
n=${2:-512}
root=build/tile-sweep
rm -rf "$root/src" && mkdir -p "$root/src"
git ls-files --cached --others --exclude-standard | tar -cf - -T - | tar -xf - -C "$root/src"
thorn=$root/src/bench/thorns/GpuStencilBench
for spec in $specs; do
  kernel=${spec%%:*} tile=${spec#*:}
  name=${kernel}_$tile
  # The kernel's block in cakernel.ccl, renamed and retiled, appended.
  awk -v k="$kernel" -v n="$name" -v t="${tile//_/,}" '
    $1 == "CCTK_KERNEL" && $2 == k { copy = 1; print ""; print "CCTK_KERNEL " n; next }
    copy && /^[ \t]*TILE=/ { print "  TILE=\"" t "\""; next }
    copy { print; if ($0 ~ /^}/) copy = 0 }' "$thorn/cakernel.ccl" > "$root/extra.ccl"
  [ -s "$root/extra.ccl" ] || { echo "no kernel $kernel in GpuStencilBench"; exit 1; }
  cat "$root/extra.ccl" >> "$thorn/cakernel.ccl"
  sed "s/CAKERNEL_${kernel}_/CAKERNEL_${name}_/g" "$thorn/src/$kernel.kernel" > "$thorn/src/$name.kernel"
done
for p in double float; do
  ( cmake -S "$root/src" -B "$root/$p" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$PWD/.deps/usr \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DOPUNTIA_REAL_PRECISION=$p -DCMAKE_CUDA_FLAGS="${CUDA_DEFINES:-}" >"$OUT/tile-sweep-configure-$p.log" 2>&1 &&
    cmake --build "$root/$p" -j8 --target gpu_stencil_bench >"$OUT/tile-sweep-build-$p.log" 2>&1 ||
    echo "build failed ($p): see tile-sweep-*-$p.log" ) &
done
wait
for p in double float; do
  precision=$([ $p = double ] && echo fp64 || echo fp32)
  echo "== $p"
  OCL_ICD_VENDORS=/nonexistent "$root/$p/bench/gpu_stencil_bench" "$n" 10 2>&1 |
    grep -E "DIFFERS|^\| (copy|[A-Za-z0-9_]+) \| (cudaMemcpy|plain|cuda/)" | grep -E "$precision|DIFFERS"
done
