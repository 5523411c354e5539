// opuntia::for_each_boundary_pass (flesh/include/opuntia/binding.hpp): the slabs each backend's
// boundary launcher updates, and which faces share a launch.
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
std::vector<std::string> passes(const kernel_call& call, const int (&exterior)[6], const int (&stencil)[6]) {
  std::vector<std::string> out;
  for_each_boundary_pass(call, exterior, stencil, [&](const boundary_pass& pass) {
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

}  // namespace
}  // namespace opuntia
