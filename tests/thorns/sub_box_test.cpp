// A launch on a sub-box (kernel_call::box) writes only that box: every kernel variant of
// tests/thorns/VariantCheck (3D kernels with off-axis, cardinal, radius-8 and one-sided stencils,
// a boundary kernel with uneven EXTERIOR; every intent), on every backend of the build, launched
// on boxes that an interior/rim split makes (an interior, thin rim pieces, boxes whose x edges
// are not multiples of a GPU thread's points), from arrays that hold random values everywhere.
// Inside the box each array must hold, to the bit, what a launch over the whole grid gives;
// outside it, what it held before. One CTest test per backend (sub_box.openmp, sub_box.opencl,
// sub_box.cuda); CUDA's needs a GPU (label gpu), and each skips where the machine has no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "VariantCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "backend_cases.hpp"

namespace {

using namespace opuntia::thorns::VariantCheck;

using variant_check::field;
using variant_check::grid_size;

bool inside(const opuntia::index_range& box, int i, int j, int k) {
  return i >= box.begin[0] && i < box.end[0] && j >= box.begin[1] && j < box.end[1] && k >= box.begin[2] &&
         k < box.end[2];
}

/// Boxes of an interior/rim split of `grid` (rim 3 points deep), and one whose x edges are off
/// the multiples of 2 and 4 (a GPU thread's x points in fp64 and fp32). Few, as each is a program
/// for OpenCL to build.
std::vector<opuntia::index_range> boxes(const grid_size& g) {
  return {
      {{3, 3, 3}, {g.ni - 3, g.nj - 3, g.nk - 3}},   // interior
      {{9, 9, 9}, {g.ni - 9, g.nj - 9, g.nk - 9}},   // deep interior: narrower than a radius-8 star's points
      {{0, 0, 0}, {3, g.nj, g.nk}},                  // the rim's x low piece
      {{3, 0, 0}, {g.ni - 3, 3, g.nk}},              // y low
      {{5, 2, 1}, {g.ni - 6, 11, g.nk - 2}},         // odd x edges
  };
}

class sub_box : public ::testing::TestWithParam<variant_check::backend_case> {};

TEST_P(sub_box, a_launch_on_a_box_writes_only_that_box) {
  const std::string& backend = GetParam().backend;
  const grid_size& g = GetParam().grid;
  auto device = variant_check::make_device(backend);
  if (!device) GTEST_SKIP() << "the build has " << backend << ", the machine no device for it";
  const auto b = binding();
  const parameters p{};
  int launches = 0;
  std::size_t box_points_written = 0;
  for (const auto& k : b.kernels) {
    for (const auto& variant : k.variants) {
      if (variant.backend != backend) continue;
      const auto before = variant_check::random_arrays(g, k, 17);
      const auto whole = variant_check::launched_through(*device, variant, g, before, &p);
      for (const auto& box : boxes(g)) {
        ++launches;
        const auto result = variant_check::launched_through(*device, variant, g, before, &p, box);
        for (std::size_t a = 0; a < result.size(); ++a) {
          std::size_t wrong = 0;
          std::string first;
          // Every element, a padded row's and plane's padding too (x from -lead on, y up to
          // the plane's rows): none outside the box changes.
          for (int kk = 0; kk < g.nk; ++kk)
            for (int j = 0; j < g.rows_per_plane(); ++j)
              for (int i = -g.lead; i < g.row_pitch() - g.lead; ++i) {
                const std::size_t c = g.index(i, j, kk);
                const bool in = i >= 0 && i < g.ni && inside(box, i, j, kk);
                const CCTK_REAL expected = in ? whole[a][c] : before[a][c];
                if (in && whole[a][c] != before[a][c]) ++box_points_written;
                if (std::memcmp(&result[a][c], &expected, sizeof expected) != 0 && wrong++ == 0) {
                  first = "(" + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(kk) + ") " +
                          (in ? "inside" : "outside") + ": " + std::to_string(result[a][c]) + ", expected " +
                          std::to_string(expected);
                }
              }
          EXPECT_EQ(wrong, 0u) << backend << "/" << variant.template_name << " kernel " << k.name << ", array " << a
                               << ", box [" << box.begin[0] << ", " << box.end[0] << ") x [" << box.begin[1] << ", "
                               << box.end[1] << ") x [" << box.begin[2] << ", " << box.end[2] << "): " << first;
        }
      }
    }
  }
  EXPECT_GT(launches, 0) << "no variant of VariantCheck for " << backend;
  EXPECT_GT(box_points_written, 0u) << "the boxes hold points the kernels write";
}

INSTANTIATE_TEST_SUITE_P(backend, sub_box, ::testing::ValuesIn(variant_check::backend_cases(true, true)),
                         [](const auto& info) { return variant_check::case_name(info.param); });

}  // namespace
