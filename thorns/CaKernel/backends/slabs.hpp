#pragma once
// How a generated GPU 3D launcher (templates/cuda/3dblock.cu.tpl, templates/opencl/3dblock.cpp.tpl)
// cuts each column of blocks (work-groups) along z. Plain C++ (no CUDA or OpenCL header), so that
// the rule is unit-tested where there is no GPU.
#include <algorithm>
#include <cstdint>

namespace opuntia {

/// The planes each block streams where a launch is asked for slabs of `asked` planes (autotuning's
/// shape) over `planes`: as many slabs as that length makes, evened out, so that no block
/// streams a short last slab alone and every length that makes as many slabs runs the same
/// launch (autotuning measures it once). At least one plane, at most `planes`.
inline int slab_as_asked(int planes, int asked) {
  if (planes <= 0) return 1;
  const std::int64_t slab = std::clamp(asked, 1, planes);
  const std::int64_t slabs = (planes + slab - 1) / slab;
  return static_cast<int>((planes + slabs - 1) / slabs);
}

/// The planes of z that each block of a 3D kernel streams through, for a launch of `columns`
/// block columns (the x and y tiles) over `planes` interior planes, when the GPU holds
/// `resident_blocks` of the kernel's blocks at once (SMs x blocks an SM). A block streams at most
/// `most_planes` (TILE's z) and also reads `halo_planes` around its own (STENCIL's zn + zp, and
/// the plane its windows load ahead). `columns` x `planes` stays below 2^62 (grid points do).
///
/// - When every column, cut into the fewest slabs TILE's z allows, fits in one wave of resident
///   blocks, the columns are cut into as many slabs as still fit in that one wave: every block
///   runs at once, so there is no tail of blocks that run alone. (Not always the fastest cut:
///   the radius-4 ring at 256^3 in fp32 ran at 84% of copy on an H100 in the wave's 5 slabs a
///   column and at 88% in 4, bench/RESULTS.md 2026-12-06; autotuning measures the counts near
///   it, slab_as_asked.)
/// - Otherwise the slab count minimises waves x (slab + halo planes): each wave streams one
///   slab and its halo, so full waves and few halo planes both count.
///
/// The radius-4 star at 512^3 on the H100 (bench/RESULTS.md, 2026-11-25; 512 columns of 32 x 16
/// points): in fp32 (660 resident blocks) whole columns ran at 76-77% of copy against 66-74%
/// for 2 to 12 slabs; in fp64 (396 resident blocks) 3 slabs of 168 planes (4 waves, 97% full)
/// ran at 84% against 77% for whole columns (2 waves, the second 29% full) and 79-82% for 2 and
/// 5 to 12 slabs. With `resident_blocks` unknown (0), TILE's z evened out (slab_as_asked).
inline int planes_per_block(std::int64_t columns, int planes, int most_planes, int halo_planes,
                            std::int64_t resident_blocks) {
  if (planes <= 0) return 1;
  const int most = std::clamp(most_planes, 1, planes);
  if (columns <= 0 || resident_blocks <= 0) return slab_as_asked(planes, most);
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const std::int64_t fewest_slabs = ceil_div(planes, most);
  if (fewest_slabs <= resident_blocks / columns) {  // columns x fewest_slabs <= resident_blocks
    const std::int64_t slabs = std::min<std::int64_t>(std::max(resident_blocks / columns, fewest_slabs), planes);
    return static_cast<int>(ceil_div(planes, slabs));
  }
  // Every slab length from the longest down, each once: after slab s, the fewest slabs whose
  // length is below s (about 2 sqrt(planes) lengths in all, so a launch does not pay for tall grids).
  std::int64_t best_planes = most, best_cost = -1;
  for (std::int64_t slabs = fewest_slabs;;) {
    const std::int64_t slab = ceil_div(planes, slabs);
    const std::int64_t cost = ceil_div(columns * ceil_div(planes, slab), resident_blocks) * (slab + std::max(halo_planes, 0));
    if (best_cost < 0 || cost < best_cost) best_cost = cost, best_planes = slab;
    if (slab == 1) break;
    slabs = ceil_div(planes, slab - 1);
  }
  return static_cast<int>(best_planes);
}

}  // namespace opuntia
