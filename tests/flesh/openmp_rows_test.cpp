#include <gtest/gtest.h>

#include "opuntia/openmp_rows.hpp"

using opuntia::openmp::first_on_line;

TEST(openmp_rows, the_vector_loop_starts_on_the_next_line_of_the_row) {
  // A row at flat index 0: lines start at x = 0, 8, 16, ... (fp64) and 0, 16, ... (fp32).
  EXPECT_EQ(first_on_line<double>(1, 255, 0), 8);
  EXPECT_EQ(first_on_line<double>(8, 255, 0), 8);
  EXPECT_EQ(first_on_line<double>(4, 255, 0), 8);
  EXPECT_EQ(first_on_line<float>(1, 255, 0), 16);
  // Rows that do not start on a line (an x size that is not a multiple of a line's points).
  EXPECT_EQ(first_on_line<double>(1, 100, 41 * 3), 5);  // 5 + 123 = 128
  EXPECT_EQ(first_on_line<double>(0, 100, 7), 1);
  EXPECT_EQ(first_on_line<double>(3, 100, 5), 3);
  // A run that ends before the next line: every point runs one by one.
  EXPECT_EQ(first_on_line<double>(1, 5, 0), 5);
  EXPECT_EQ(first_on_line<double>(1, 1, 0), 1);
  // Rows far into a large grid (flat indices past 2^31).
  EXPECT_EQ(first_on_line<double>(4, 1000, std::ptrdiff_t{3} << 31), 8);
  EXPECT_EQ(first_on_line<double>(4, 1000, (std::ptrdiff_t{3} << 31) + 1), 7);
}

TEST(openmp_rows, a_line_holds_64_bytes) {
  EXPECT_EQ(opuntia::openmp::line_points<double>, 8);
  EXPECT_EQ(opuntia::openmp::line_points<float>, 16);
}
