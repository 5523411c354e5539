#include <gtest/gtest.h>

#include "thorns/CaKernel/backends/tensor_boxes.hpp"

using opuntia::tensor_box_fits;

// The copy engine's box: rows of whole 16-byte groups, 1 to 256 elements a side. CUDA's and
// OpenCL's rings both ask this one rule (templates/cuda/3dblock.h.tpl, opencl::tensor_boxes_fit).
TEST(tensor_boxes, a_row_is_whole_16_byte_groups) {
  EXPECT_TRUE(tensor_box_fits(8, 40, 16));   // the radius-4 ring's 32 + 8 doubles
  EXPECT_TRUE(tensor_box_fits(4, 40, 16));   // 160 bytes
  EXPECT_FALSE(tensor_box_fits(8, 41, 16));  // 328 bytes
  EXPECT_FALSE(tensor_box_fits(4, 2, 16));   // 8 bytes
  EXPECT_TRUE(tensor_box_fits(4, 4, 1));
}

TEST(tensor_boxes, a_side_holds_1_to_256_elements) {
  EXPECT_TRUE(tensor_box_fits(4, 256, 256));
  EXPECT_FALSE(tensor_box_fits(4, 264, 16));
  EXPECT_FALSE(tensor_box_fits(8, 40, 257));
  EXPECT_FALSE(tensor_box_fits(8, 0, 16));
  EXPECT_FALSE(tensor_box_fits(8, 40, 0));
  EXPECT_FALSE(tensor_box_fits(0, 40, 16));
  EXPECT_FALSE(tensor_box_fits(-8, -40, 16));
}

// Asked at compile time, as the CUDA template asks it.
static_assert(tensor_box_fits(8, 64, 8) && !tensor_box_fits(8, 63, 8));
