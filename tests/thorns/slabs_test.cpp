#include <gtest/gtest.h>

#include "thorns/CaKernel/backends/slabs.hpp"

#include <algorithm>
#include <cstdint>

using opuntia::planes_per_block;
using opuntia::slab_as_asked;

// The radius-4 star at 512^3 (504 interior planes, 4 halo planes on each side) in 512 columns of
// 32 x 16 points, with the resident blocks of the H100 (132 SMs) measured in bench/RESULTS.md.
TEST(slabs, columns_that_fit_in_one_wave_are_streamed_whole) {
  EXPECT_EQ(planes_per_block(512, 504, 512, 8, 660), 504);  // fp32: 5 blocks an SM
  EXPECT_EQ(planes_per_block(512, 504, 512, 8, 512), 504);  // exactly one wave
}

TEST(slabs, columns_that_need_more_waves_are_cut_into_full_waves) {
  // fp64, 3 blocks an SM: whole columns take 2 waves (the second 29% full); 3 slabs of 168
  // planes take 4 (97% full), the fewest waves times planes of any cut.
  EXPECT_EQ(planes_per_block(512, 504, 512, 8, 396), 168);
  // TILE's z caps the slab: at most 63 planes, then the cut with the least waves x planes.
  const int capped = planes_per_block(512, 504, 63, 8, 396);
  EXPECT_LE(capped, 63);
  EXPECT_EQ(capped, 51);  // 10 slabs, 13 waves of 59 planes (63: 11 waves of 71; 56: 12 of 64)
}

TEST(slabs, a_small_grid_is_cut_to_fill_the_gpu) {
  // 32 columns on 396 resident blocks: 12 slabs each, 384 blocks in one wave.
  EXPECT_EQ(planes_per_block(32, 504, 512, 8, 396), 42);
  // Never less than a plane a block, however many blocks the GPU holds.
  EXPECT_EQ(planes_per_block(1, 5, 16, 2, 100000), 1);
}

TEST(slabs, a_thin_tile_keeps_its_planes) {
  // The 7-point star with TILE z = 4 (GpuStencilBench): 1024 columns, 16 blocks an SM.
  EXPECT_EQ(planes_per_block(1024, 510, 4, 3, 132 * 16), 4);  // halo: zn + zp + the plane ahead
}

TEST(slabs, without_an_occupancy_the_tile_decides) {
  EXPECT_EQ(planes_per_block(512, 504, 63, 8, 0), 63);
  EXPECT_EQ(planes_per_block(512, 248, 100, 8, 0), 83);  // 3 slabs, evened out
  EXPECT_EQ(planes_per_block(512, 504, 1000, 8, 0), 504);  // never more than the planes
  EXPECT_EQ(planes_per_block(0, 504, 63, 8, 396), 63);
}

TEST(slabs, degenerate_sizes_give_one_plane_or_the_tile) {
  EXPECT_EQ(planes_per_block(512, 0, 63, 8, 396), 1);
  EXPECT_EQ(planes_per_block(512, -3, 63, 8, 396), 1);
  EXPECT_EQ(planes_per_block(512, 504, 0, 8, 396), planes_per_block(512, 504, 1, 8, 396));
  EXPECT_EQ(planes_per_block(512, 504, -7, 8, 396), 1);
  // Huge grids (columns x planes up to 2^57): no overflow in columns x slabs.
  EXPECT_GE(planes_per_block(std::int64_t{1} << 40, 100000, 100000, 8, 1000), 1);
}

// The rule as written in its comment, trying every slab count: the function visits each slab
// length once and must choose the same.
static int planes_per_block_by_every_count(std::int64_t columns, int planes, int most_planes, int halo_planes,
                                           std::int64_t resident_blocks) {
  const int most = std::clamp(most_planes, 1, planes);
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const std::int64_t fewest = ceil_div(planes, most);
  if (columns * fewest <= resident_blocks)
    return static_cast<int>(ceil_div(planes, std::min<std::int64_t>(std::max(resident_blocks / columns, fewest), planes)));
  std::int64_t best = most, best_cost = -1;
  for (std::int64_t slabs = fewest; slabs <= planes; ++slabs) {
    const std::int64_t slab = ceil_div(planes, slabs);
    const std::int64_t cost = ceil_div(columns * ceil_div(planes, slab), resident_blocks) * (slab + halo_planes);
    if (best_cost < 0 || cost < best_cost) best_cost = cost, best = slab;
  }
  return static_cast<int>(best);
}

TEST(slabs, each_slab_length_once_chooses_as_every_slab_count) {
  int compared = 0;
  for (const std::int64_t columns : {1, 7, 32, 100, 512, 1024, 5000})
    for (const int planes : {1, 2, 9, 63, 100, 504, 1021})
      for (const int most : {1, 4, 16, 63, 512, 4096})
        for (const int halo : {0, 2, 8})
          for (const std::int64_t resident : {1, 132, 396, 660, 2112}) {
            ASSERT_EQ(planes_per_block(columns, planes, most, halo, resident),
                      planes_per_block_by_every_count(columns, planes, most, halo, resident))
                << columns << " columns, " << planes << " planes, TILE z " << most << ", halo " << halo << ", "
                << resident << " resident";
            ++compared;
          }
  EXPECT_EQ(compared, 7 * 7 * 6 * 3 * 5);
}

// Autotuning's slabs (CUDA's launchers): as many as the length asked makes, evened out.
TEST(slabs, an_asked_length_runs_as_many_slabs_evened_out) {
  // The radius-4 ring at 256^3 (248 interior planes): 62 planes make 4 slabs of 62; 77 planes
  // make 4 slabs too (77, 77, 77, 17 as asked), which run as 4 of 62.
  EXPECT_EQ(slab_as_asked(248, 62), 62);
  EXPECT_EQ(slab_as_asked(248, 77), 62);
  EXPECT_EQ(slab_as_asked(248, 50), 50);  // 5 slabs
  EXPECT_EQ(slab_as_asked(248, 40), 36);  // 7 slabs of at most 36
  // The own rule's slabs run as asked: its length asked again is the same launch.
  for (const std::int64_t columns : {0, 1, 128, 512, 5000})
    for (const int planes : {1, 9, 248, 504})
      for (const int most : {4, 63, 100, 512})
        for (const std::int64_t resident : {0, 132, 396, 660}) {
          const int own = planes_per_block(columns, planes, most, 8, resident);
          EXPECT_EQ(slab_as_asked(planes, own), own)
              << columns << " columns, " << planes << " planes, TILE z " << most << ", " << resident << " resident";
        }
  // Longer than the planes: one slab; nothing asked, or less than a plane: slabs of one plane.
  EXPECT_EQ(slab_as_asked(248, 1000), 248);
  EXPECT_EQ(slab_as_asked(248, 0), 1);
  EXPECT_EQ(slab_as_asked(248, -5), 1);
  EXPECT_EQ(slab_as_asked(0, 62), 1);
  EXPECT_EQ(slab_as_asked(2147483647, 2147483647), 2147483647);
  EXPECT_EQ(slab_as_asked(2147483647, 1 << 30), 1073741824);  // 2 slabs, no overflow
}
