// A launch asked for another shape (kernel_call::shape: the tile, and the planes loaded ahead on
// OpenCL), as autotuning asks, computes the same bits: every kernel variant of
// tests/thorns/VariantCheck (off-axis, cardinal, radius-8 and one-sided stencils, a boundary
// kernel; every intent) on every backend of the build, from random arrays, against its launch
// with the template's own shape. Each launcher says which shape it ran (kernel_call::ran_shape):
// the 3D launchers a shape they can run (CUDA's with the descriptor's x and y, which are compiled
// in, lanes among those it compiles, and a depth, a ring's or its windows': its own or one plane
// deeper), boundary kernels nothing, and a call with an empty box asks without running.
// One CTest test per backend (launch_shape.openmp, launch_shape.opencl, launch_shape.cuda).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "VariantCheck_parameters.hpp"
#include "backend_cases.hpp"
#include "opuntia/binding.hpp"

namespace {

using namespace opuntia::thorns::VariantCheck;

using variant_check::field;
using variant_check::grid_size;

/// Shapes past the usual: thin and odd tiles, one larger than the grid, each depth OpenCL allows
/// and one past it, lanes from none asked to more than 16 bytes. Few, as each is a program for
/// OpenCL to build. On rows of whole groups (where the GPUs' lanes run as asked) one and two
/// lanes (and four on CUDA), the template's tile (pocl 3.1's register allocator took over 20 minutes on the radius-8
/// kernels with a 128 x 8 x 64 tile in two lanes).
std::vector<opuntia::launch_shape> shapes(bool rows_of_whole_groups, const std::string& backend) {
  // CUDA compiles every lanes up to 16 bytes, four floats too where its own are fewer (the
  // cavity's momentum), and every variant one plane deeper than its own: asked for too (2: a
  // ring's own in fp64, the windows' deeper one).
  if (rows_of_whole_groups && backend == "cuda")
    return {{{0, 0, 0}, 0, 1}, {{0, 0, 0}, 2, 2}, {{0, 0, 0}, 0, 4}, {{0, 0, 0}, 9, 0}, {{0, 0, 0}, 9, 1}};
  if (rows_of_whole_groups) return {{{0, 0, 0}, 0, 1}, {{0, 0, 0}, 2, 2}};
  return {{{1, 1, 1}, 0, 0}, {{13, 5, 7}, 2, 1}, {{32, 2, 1}, 3, 2}, {{512, 64, 64}, 9, 8}};
}

class launch_shape : public ::testing::TestWithParam<variant_check::backend_case> {};

TEST_P(launch_shape, another_shape_computes_the_same_bits_and_the_launcher_says_which_it_ran) {
  const std::string& backend = GetParam().backend;
  const grid_size& g = GetParam().grid;
  auto device = variant_check::make_device(backend);
  if (!device) GTEST_SKIP() << "the build has " << backend << ", the machine no device for it";
  const auto b = binding();
  const parameters p{};
  int shaped = 0, several_lanes = 0;
  const bool rows_of_whole_groups = g.row_pitch() % 4 == 0;  // where OpenCL's lanes run as asked
  for (const auto& k : b.kernels) {
    for (const auto& variant : k.variants) {
      if (variant.backend != backend) continue;
      const auto before = variant_check::random_arrays(g, k, 29);
      const std::size_t count = before.size();
      const std::string what = backend + "/" + variant.template_name + " kernel " + k.name;
      // What it runs when asked for nothing, asked with an empty box: nothing changes.
      opuntia::launch_shape own{};
      const auto untouched =
          variant_check::launched_through(*device, variant, g, before, &p, opuntia::index_range{}, {}, &own);
      for (std::size_t a = 0; a < count; ++a)
        EXPECT_EQ(std::memcmp(untouched[a].data(), before[a].data(), before[a].size() * sizeof(CCTK_REAL)), 0) << what;
      const bool takes_shapes = own != opuntia::launch_shape{};
      const bool expected_to = variant.template_name != "boundary";
      EXPECT_EQ(takes_shapes, expected_to) << what;
      if (!takes_shapes) continue;
      EXPECT_GT(own.tile[0] * own.tile[1] * own.tile[2], 0) << what;
      // Its own shape asked for is its own: autotuning starts from it and may keep it.
      opuntia::launch_shape again{};
      variant_check::launched_through(*device, variant, g, before, &p, opuntia::index_range{}, own, &again);
      EXPECT_EQ(again, own) << what;
      const auto whole = variant_check::launched_through(*device, variant, g, before, &p);
      for (const auto& asked : shapes(rows_of_whole_groups, backend)) {
        opuntia::launch_shape ran{};
        const auto result = variant_check::launched_through(*device, variant, g, before, &p, std::nullopt, asked, &ran);
        ++shaped;
        several_lanes += ran.lanes > 1;
        const std::string shape_text = std::to_string(asked.tile[0]) + "x" + std::to_string(asked.tile[1]) + "x" +
                                       std::to_string(asked.tile[2]) + " ahead " + std::to_string(asked.ahead) +
                                       " lanes " + std::to_string(asked.lanes);
        // The shape it ran, asked for, runs as it is: autotuning keeps what it measured.
        opuntia::launch_shape ran_again{};
        variant_check::launched_through(*device, variant, g, before, &p, opuntia::index_range{}, ran, &ran_again);
        EXPECT_EQ(ran_again, ran) << what << " asked " << shape_text;
        // A shape it runs: within the grid, and on OpenCL 1 to 4 planes ahead and at least 2
        // planes in z (pocl miscompiles one-plane work-groups with a local plane); on the GPUs 1,
        // 2 or 4 lanes, at most those asked and 16 bytes, one where the row pitch is odd; no
        // lanes on OpenMP.
        EXPECT_TRUE(ran.tile[0] >= 1 && ran.tile[0] <= g.ni && ran.tile[1] >= 1 && ran.tile[1] <= g.nj &&
                    ran.tile[2] >= 1 && ran.tile[2] <= g.nk)
            << what << " asked " << shape_text;
        if (backend == "opencl")
          EXPECT_TRUE(ran.ahead >= 1 && ran.ahead <= 4 && ran.tile[2] >= 2) << what << " asked " << shape_text;
        if (backend == "opencl" || backend == "cuda") {
          // Rows of whole groups: the lanes asked run as asked, within 16 bytes, where the
          // variant's work-items own several (own.lanes > 1; CUDA's always may).
          if (rows_of_whole_groups && (own.lanes > 1 || backend == "cuda") && asked.lanes > 0)
            EXPECT_EQ(ran.lanes, std::min(asked.lanes, 16 / static_cast<int>(sizeof(CCTK_REAL))))
                << what << " asked " << shape_text;
          EXPECT_TRUE((ran.lanes == 1 || ran.lanes == 2 || ran.lanes == 4) &&
                      ran.lanes * static_cast<int>(sizeof(CCTK_REAL)) <= 16 && (asked.lanes == 0 || ran.lanes <= asked.lanes) &&
                      (g.row_pitch() % 2 == 0 || ran.lanes == 1))
              << what << " asked " << shape_text << ", ran lanes " << ran.lanes;
        } else {
          EXPECT_EQ(ran.lanes, 0) << what << " asked " << shape_text;
        }
        if (backend == "cuda") {
          // Every variant has a depth (a ring's planes copied ahead, 2 or 3; the windows' planes
          // loaded ahead, 1) and runs its own or, asked for more, one plane deeper.
          if (variant.template_name == "3dblock_ring")
            EXPECT_TRUE(own.ahead == 2 || own.ahead == 3) << what;
          else
            EXPECT_EQ(own.ahead, 1) << what;
          EXPECT_TRUE(ran.tile[0] == own.tile[0] && ran.tile[1] == own.tile[1]) << what << " asked " << shape_text;
          EXPECT_EQ(ran.ahead, asked.ahead > own.ahead ? own.ahead + 1 : own.ahead) << what << " asked " << shape_text;
          // Slabs as asked, evened out (at most the planes asked), or its own where the call asks
          // for no tile.
          opuntia::kernel_call asking;
          asking.shape = asked;
          if (opuntia::asks_for_tile(asking))
            EXPECT_LE(ran.tile[2], std::clamp(asked.tile[2], 1, g.nk)) << what << " asked " << shape_text;
          else
            EXPECT_EQ(ran.tile[2], own.tile[2]) << what << " asked " << shape_text;
        }
        for (std::size_t a = 0; a < result.size(); ++a) {
          std::size_t wrong = 0;
          for (std::size_t c = 0; c < result[a].size(); ++c) wrong += std::memcmp(&result[a][c], &whole[a][c], sizeof(CCTK_REAL)) != 0;
          EXPECT_EQ(wrong, 0u) << what << ", array " << a << ", asked " << shape_text;
        }
      }
    }
  }
  EXPECT_GT(shaped, 0) << "no variant of VariantCheck takes a shape on " << backend;
  if ((backend == "opencl" || backend == "cuda") && rows_of_whole_groups)
    EXPECT_GT(several_lanes, 0) << "no " << backend << " variant of VariantCheck ran with several lanes on rows of whole groups";
}

/// One grid a backend (odd sizes: each shape is a program for pocl to build), and for OpenCL and
/// CUDA one whose rows are whole groups of 2 and 4 points too, where the lanes asked run as asked.
std::vector<variant_check::backend_case> grids_of_each_backend() {
  std::vector<variant_check::backend_case> cases;
  for (const auto& c : variant_check::backend_cases(true)) {
    if (c.grid.ni % 2 == 1 || c.backend == "opencl" || c.backend == "cuda") cases.push_back(c);
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(backend, launch_shape, ::testing::ValuesIn(grids_of_each_backend()),
                         [](const auto& info) { return variant_check::case_name(info.param); });

}  // namespace
