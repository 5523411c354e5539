// The host side of thorns/CaKernel/backends/cuda/lanes.cuh, which the generated CUDA launchers
// choose their kernels and blocks by: with_lanes (the compiled kernel for the lanes a launch
// runs: the most, a power of two up to the widest, at most those asked), align_down / align_up,
// and block_origin_x (where the blocks of a row start: a 128-byte line). No GPU needed.
#include <gtest/gtest.h>

#include <type_traits>

#include "thorns/CaKernel/backends/cuda/lanes.cuh"

namespace {

template <int widest>
int lanes_run_for(int asked) {
  int ran = 0;
  opuntia::cuda::with_lanes<widest>(asked, [&](auto lanes) { ran = decltype(lanes)::value; });
  return ran;
}

TEST(cuda_lanes, a_launch_runs_the_most_compiled_lanes_at_most_those_asked) {
  EXPECT_EQ(lanes_run_for<4>(4), 4);
  EXPECT_EQ(lanes_run_for<4>(8), 4);  // past the widest: the widest
  EXPECT_EQ(lanes_run_for<4>(3), 2);  // not a power of two: the one below
  EXPECT_EQ(lanes_run_for<4>(2), 2);
  EXPECT_EQ(lanes_run_for<4>(1), 1);
  EXPECT_EQ(lanes_run_for<4>(0), 1);  // nothing asked below one: one
  EXPECT_EQ(lanes_run_for<4>(-3), 1);
  EXPECT_EQ(lanes_run_for<2>(4), 2);
  EXPECT_EQ(lanes_run_for<2>(1), 1);
  EXPECT_EQ(lanes_run_for<1>(4), 1);
  // What the call returns, for the lanes it ran.
  EXPECT_EQ(opuntia::cuda::with_lanes<4>(3, [](auto lanes) { return 10 * decltype(lanes)::value; }), 20);
}

TEST(cuda_lanes, the_widest_lanes_fill_16_bytes) {
  EXPECT_EQ(opuntia::cuda::lanes_per_16_bytes<double>, 2);
  EXPECT_EQ(opuntia::cuda::lanes_per_16_bytes<float>, 4);
}

TEST(cuda_lanes, groups_are_aligned_for_either_sign) {
  EXPECT_EQ(opuntia::cuda::align_down(5, 4), 4);
  EXPECT_EQ(opuntia::cuda::align_down(-1, 4), -4);
  EXPECT_EQ(opuntia::cuda::align_down(-4, 4), -4);
  EXPECT_EQ(opuntia::cuda::align_up(5, 4), 8);
  EXPECT_EQ(opuntia::cuda::align_up(0, 4), 0);
}

TEST(cuda_lanes, the_blocks_of_a_row_start_on_a_128_byte_line) {
  // A row whose point 0 lies 31 doubles into its allocation (a lead of 31): point 1 starts a
  // line of 16 doubles, so blocks that compute from x = 1 start there, and from x = 20 too.
  EXPECT_EQ(opuntia::cuda::block_origin_x<double>(1, 31), 1);
  EXPECT_EQ(opuntia::cuda::block_origin_x<double>(20, 31), 17);
  // No lead: the lines start at x = 0, 32 (floats).
  EXPECT_EQ(opuntia::cuda::block_origin_x<float>(4, 0), 0);
  EXPECT_EQ(opuntia::cuda::block_origin_x<float>(33, 0), 32);
}

}  // namespace
