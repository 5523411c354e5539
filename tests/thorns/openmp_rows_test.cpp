#include <gtest/gtest.h>

#include "thorns/CaKernel/backends/openmp/rows.hpp"

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

TEST(openmp_rows, stream_points_writes_the_points_and_nothing_else) {
  // One vector loop's points: 8 doubles (a line), 16 floats (a line), 8 ints (half a line: the
  // CCTK_INT output of an fp64 kernel), 4 chars (not a whole 16-byte piece: ordinary stores).
  alignas(64) double line[8], target[24];
  alignas(64) float line_f[16], target_f[48];
  alignas(64) int line_i[8], target_i[24];
  alignas(64) char line_c[4], target_c[12];
  for (int i = 0; i < 8; ++i) line[i] = 1.5 * i - 3.0, line_i[i] = 7 * i - 20;
  for (int i = 0; i < 16; ++i) line_f[i] = 0.25f * i + 7.0f;
  for (int i = 0; i < 4; ++i) line_c[i] = static_cast<char>('a' + i);
  for (double& t : target) t = -1.0;
  for (float& t : target_f) t = -1.0f;
  for (int& t : target_i) t = -1;
  for (char& t : target_c) t = '-';
  opuntia::openmp::stream_points(target + 8, line);
  opuntia::openmp::stream_points(target_f + 16, line_f);
  opuntia::openmp::stream_points(target_i + 16, line_i);
  opuntia::openmp::stream_points(target_c + 4, line_c);
  opuntia::openmp::stream_fence();
  for (int i = 0; i < 24; ++i) EXPECT_EQ(target[i], i >= 8 && i < 16 ? line[i - 8] : -1.0) << i;
  for (int i = 0; i < 48; ++i) EXPECT_EQ(target_f[i], i >= 16 && i < 32 ? line_f[i - 16] : -1.0f) << i;
  for (int i = 0; i < 24; ++i) EXPECT_EQ(target_i[i], i >= 16 ? line_i[i - 16] : -1) << i;
  for (int i = 0; i < 12; ++i) EXPECT_EQ(target_c[i], i >= 4 && i < 8 ? line_c[i - 4] : '-') << i;
}

TEST(openmp_rows, output_points_index_from_their_origin) {
  double stack[8] = {};
  const opuntia::openmp::output_points<double> row{stack, 1000};
  row[1000] = 1.0;
  row[1007] = 8.0;
  EXPECT_EQ(stack[0], 1.0);
  EXPECT_EQ(stack[7], 8.0);
  double array[4] = {};
  const opuntia::openmp::output_points<double> whole{array, 0};
  whole[2] = 3.0;
  EXPECT_EQ(array[2], 3.0);
}

TEST(openmp_rows, streaming_pays_only_past_the_threshold_and_only_on_lines) {
  auto& threshold = opuntia::openmp::streaming_threshold_bytes();
  const std::size_t saved = threshold;
  EXPECT_GT(opuntia::openmp::last_level_cache_bytes(), std::size_t{0});
  EXPECT_EQ(saved, opuntia::openmp::last_level_cache_bytes());  // the default
  threshold = 1000;
  EXPECT_FALSE(opuntia::openmp::streaming_pays(1000));
  EXPECT_FALSE(opuntia::openmp::streaming_pays(0));  // a kernel with no outputs
  EXPECT_EQ(opuntia::openmp::streaming_pays(1001), OPUNTIA_OPENMP_HAS_STREAMING_STORES == 1);
  threshold = 0;
  EXPECT_FALSE(opuntia::openmp::streaming_pays(0));
  EXPECT_EQ(opuntia::openmp::streaming_pays(8), OPUNTIA_OPENMP_HAS_STREAMING_STORES == 1);
  threshold = saved;
  alignas(64) char bytes[128];
  EXPECT_TRUE(opuntia::openmp::starts_on_line(bytes));
  EXPECT_TRUE(opuntia::openmp::starts_on_line(bytes + 64));
  EXPECT_FALSE(opuntia::openmp::starts_on_line(bytes + 8));
  EXPECT_FALSE(opuntia::openmp::starts_on_line(bytes + 16));
}
