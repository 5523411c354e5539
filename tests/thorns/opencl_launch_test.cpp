// What a generated OpenCL launcher asks of thorns/CaKernel/backends/opencl/launch.hpp without a
// device: the width of 3dblock_ring's asynchronous copies, and the build options that say it.
#include <gtest/gtest.h>

#include <string>

#include "thorns/CaKernel/backends/opencl/launch.hpp"

namespace {

using opuntia::opencl::program_sizes;
using opuntia::opencl::ring_copy_bytes;

TEST(opencl_launch, ring_copies_are_as_wide_as_every_copy_stays_aligned) {
  // fp64, the radius-4 star of bench/experiments/opencl_ring_probe.cpp: 32 x 8 tiles, 40-point local rows.
  EXPECT_EQ(ring_copy_bytes(true, 8, 0, 32, 512, 40), 16);
  // An odd lead, box start, pitch, tile or local row moves some pair off 16 bytes: a point a copy.
  EXPECT_EQ(ring_copy_bytes(true, 8, 1, 32, 512, 40), 8);
  EXPECT_EQ(ring_copy_bytes(true, 8, 0, 32, 513, 40), 8);
  EXPECT_EQ(ring_copy_bytes(true, 8, 0, 11, 512, 40), 8);
  EXPECT_EQ(ring_copy_bytes(true, 8, 0, 32, 512, 41), 8);
  // fp32: four points a 16-byte copy, two an 8-byte one, else one.
  EXPECT_EQ(ring_copy_bytes(true, 4, 4, 32, 512, 40), 16);
  EXPECT_EQ(ring_copy_bytes(true, 4, 2, 32, 512, 40), 8);
  EXPECT_EQ(ring_copy_bytes(true, 4, 0, 32, 514, 40), 8);
  EXPECT_EQ(ring_copy_bytes(true, 4, 1, 32, 512, 40), 4);
  // A platform without cp.async (pocl): plain loads.
  EXPECT_EQ(ring_copy_bytes(false, 8, 0, 32, 512, 40), 0);
}

TEST(opencl_launch, a_ring_copy_width_is_a_build_option_and_part_of_the_program_key) {
  program_sizes loads{{32, 8, 16}, {64, 64, 64}};
  loads.planes_ahead = 2;
  program_sizes copies = loads;
  copies.ring_copy = 16;
  EXPECT_EQ(loads.options().find("CAKERNEL_ASYNC_COPY"), std::string::npos);
  EXPECT_NE(copies.options().find(" -DCAKERNEL_ASYNC_COPY=16"), std::string::npos);
  EXPECT_NE(loads, copies);
}

}  // namespace
