// opuntia::for_each_boundary_pass (flesh/include/opuntia/binding.hpp): the slabs each backend's
// boundary launcher updates, and which faces share a launch.
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "opuntia/binding.hpp"

namespace opuntia {
namespace {

kernel_call call_on(int ni, int nj, int nk) {
  kernel_call call;
  call.grid.ni = ni;
  call.grid.nj = nj;
  call.grid.nk = nk;
  return call;
}

/// Each launch as "face[lo..hi) face[lo..hi)": the passes in order.
std::vector<std::string> passes(const kernel_call& call, const int (&exterior)[6], const int (&stencil)[6],
                                bool faces_in_any_order = false) {
  std::vector<std::string> out;
  for_each_boundary_pass(call, exterior, stencil, faces_in_any_order, [&](const boundary_pass& pass) {
    std::string text;
    long long points = 0;
    for (int s = 0; s < pass.count; ++s) {
      const auto& b = pass.slabs[s];
      EXPECT_EQ(b.points, static_cast<long long>(b.hi[0] - b.lo[0]) * (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2]));
      points += b.points;
      text += fmt::format("{}{}[{},{},{}..{},{},{})", s ? " " : "", b.face, b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1],
                          b.hi[2]);
    }
    EXPECT_EQ(pass.points(), points);  // a thread a point of the launch
    out.push_back(text);
  });
  return out;
}

constexpr int one_deep[6] = {1, 1, 1, 1, 1, 1};
constexpr int no_reach[6] = {0, 0, 0, 0, 0, 0};

TEST(boundary_pass, the_faces_of_an_axis_share_a_launch_in_axis_order) {
  EXPECT_EQ(passes(call_on(8, 6, 5), one_deep, no_reach),
            (std::vector<std::string>{"0[0,0,0..1,6,5) 1[7,0,0..8,6,5)", "2[0,0,0..8,1,5) 3[0,5,0..8,6,5)",
                                      "4[0,0,0..8,6,1) 5[0,0,4..8,6,5)"}));
}

TEST(boundary_pass, faces_whose_reach_meets_run_one_after_the_other) {
  // Along x, 4 points and slabs of 1: a reach of one point each way leaves them apart (points 0
  // and 3 reach 1 and 2); of two points down and one up, both reach point 1.
  const int reach_one[6] = {1, 1, 0, 0, 0, 0}, reach_two[6] = {2, 1, 0, 0, 0, 0};
  EXPECT_EQ(passes(call_on(4, 3, 3), one_deep, reach_one).front(), "0[0,0,0..1,3,3) 1[3,0,0..4,3,3)");
  const auto apart = passes(call_on(4, 3, 3), one_deep, reach_two);
  EXPECT_EQ(std::vector<std::string>(apart.begin(), apart.begin() + 2),
            (std::vector<std::string>{"0[0,0,0..1,3,3)", "1[3,0,0..4,3,3)"}));
  // Slabs that overlap (a grid thinner than the two EXTERIORs) never share a launch.
  const int deep[6] = {3, 3, 1, 1, 1, 1};
  const auto thin = passes(call_on(5, 3, 3), deep, no_reach);
  EXPECT_EQ(std::vector<std::string>(thin.begin(), thin.begin() + 2),
            (std::vector<std::string>{"0[0,0,0..3,3,3)", "1[2,0,0..5,3,3)"}));
}

TEST(boundary_pass, only_physical_faces_and_the_call_s_box) {
  auto call = call_on(8, 8, 8);
  call.grid.physical[1] = call.grid.physical[2] = call.grid.physical[3] = false;  // a rank's inner faces
  call.box = index_range{{0, 0, 0}, {8, 8, 2}};
  EXPECT_EQ(passes(call, one_deep, no_reach),
            (std::vector<std::string>{"0[0,0,0..1,8,2)", "4[0,0,0..8,8,1)"}));
}

TEST(boundary_pass, faces_in_any_order_share_one_launch_each_point_on_its_last_face) {
  // Each point once, in the slab of the last face (xn, xp, yn, yp, zn, zp) whose slab holds it:
  // the z faces whole, the y faces less the z faces' planes, the x faces less both.
  EXPECT_EQ(passes(call_on(8, 6, 5), one_deep, no_reach, true),
            (std::vector<std::string>{"0[0,1,1..1,5,4) 1[7,1,1..8,5,4) 2[0,0,1..8,1,4) 3[0,5,1..8,6,4) "
                                      "4[0,0,0..8,6,1) 5[0,0,4..8,6,5)"}));
  // Every point of every slab of the faces one after the other, and no other, once.
  const int deep[6] = {2, 1, 3, 1, 1, 2};
  for (const auto& [ni, nj, nk] : {std::array{8, 6, 5}, std::array{3, 3, 3}, std::array{1, 9, 4}}) {
    auto call = call_on(ni, nj, nk);
    call.grid.physical[3] = false;  // an inner face of a rank
    call.box = index_range{{0, 1, 0}, {ni, nj, nk}};
    std::vector<int> last_face(static_cast<std::size_t>(ni * nj * nk), -1), covered(last_face.size(), 0);
    for (int face = 0; face < 6; ++face) {
      int lo[3], hi[3];
      if (!boundary_slab(call.grid, face, deep[face], lo, hi) || !clip_to_box(call, lo, hi)) continue;
      for (int k = lo[2]; k < hi[2]; ++k)
        for (int j = lo[1]; j < hi[1]; ++j)
          for (int i = lo[0]; i < hi[0]; ++i) last_face[static_cast<std::size_t>(i + ni * (j + nj * k))] = face;
    }
    int launches = 0;
    for_each_boundary_pass(call, deep, no_reach, true, [&](const boundary_pass& pass) {
      ++launches;
      for (int s = 0; s < pass.count; ++s) {
        const auto& b = pass.slabs[s];
        for (int k = b.lo[2]; k < b.hi[2]; ++k)
          for (int j = b.lo[1]; j < b.hi[1]; ++j)
            for (int i = b.lo[0]; i < b.hi[0]; ++i) {
              const auto at = static_cast<std::size_t>(i + ni * (j + nj * k));
              ++covered[at];
              EXPECT_EQ(last_face[at], b.face) << ni << "x" << nj << "x" << nk << " point " << i << "," << j << "," << k;
            }
      }
    });
    EXPECT_EQ(launches, 1);
    for (std::size_t at = 0; at < last_face.size(); ++at) EXPECT_EQ(covered[at], last_face[at] >= 0 ? 1 : 0) << at;
  }
}

}  // namespace
}  // namespace opuntia
