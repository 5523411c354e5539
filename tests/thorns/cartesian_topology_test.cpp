#include <gtest/gtest.h>

#include <numeric>

#include "flesh/runtime/parameters_error.hpp"
#include "thorns/Driver/src/cartesian_topology.hpp"

namespace opuntia::thorns::Driver {
namespace {

using topology = std::array<int, 3>;

TEST(cartesian_topology, automatic_is_as_cubic_as_possible_and_splits_x_last) {
  EXPECT_EQ(choose_topology(1, {64, 64, 64}, topology_kind::automatic, {}), (topology{1, 1, 1}));
  EXPECT_EQ(choose_topology(2, {64, 64, 64}, topology_kind::automatic, {}), (topology{1, 1, 2}));
  EXPECT_EQ(choose_topology(4, {64, 64, 64}, topology_kind::automatic, {}), (topology{1, 2, 2}));
  EXPECT_EQ(choose_topology(8, {64, 64, 64}, topology_kind::automatic, {}), (topology{2, 2, 2}));
  EXPECT_EQ(choose_topology(12, {64, 64, 64}, topology_kind::automatic, {}), (topology{2, 2, 3}));
}

TEST(cartesian_topology, automatic_splits_the_longest_direction) {
  EXPECT_EQ(choose_topology(4, {400, 50, 50}, topology_kind::automatic, {}), (topology{4, 1, 1}));
  EXPECT_EQ(choose_topology(6, {30, 90, 30}, topology_kind::automatic, {}), (topology{1, 3, 2}));
}

TEST(cartesian_topology, prime_rank_counts_split_one_direction) {
  EXPECT_EQ(choose_topology(7, {33, 33, 33}, topology_kind::automatic, {}), (topology{1, 1, 7}));
  EXPECT_EQ(choose_topology(3, {33, 33, 33}, topology_kind::no_x_split, {}), (topology{1, 1, 3}));
}

TEST(cartesian_topology, no_x_split_keeps_x_whole) {
  EXPECT_EQ(choose_topology(8, {64, 64, 64}, topology_kind::no_x_split, {}), (topology{1, 2, 4}));
  EXPECT_EQ(choose_topology(4, {1000, 10, 10}, topology_kind::no_x_split, {}), (topology{1, 2, 2}));
}

TEST(cartesian_topology, manual_takes_the_given_ranks_and_fills_zeros) {
  EXPECT_EQ(choose_topology(6, {64, 64, 64}, topology_kind::manual, {3, 2, 1}), (topology{3, 2, 1}));
  EXPECT_EQ(choose_topology(8, {64, 64, 64}, topology_kind::manual, {2, 0, 0}), (topology{2, 2, 2}));
}

std::string error_of(int ranks, const topology& owned, topology_kind kind, const topology& manual) {
  try {
    choose_topology(ranks, owned, kind, manual);
  } catch (const parameters_error& e) {
    EXPECT_EQ(e.parameters().front().name, "processor_topology");
    return e.what();
  }
  return "no error";
}

TEST(cartesian_topology, a_manual_product_that_is_not_the_rank_count_is_an_error) {
  EXPECT_EQ(error_of(4, {64, 64, 64}, topology_kind::manual, {3, 1, 1}),
            "Driver::processor_topology = \"manual\" with processor_topology_3d_x/y/z = 3/1/1 does not split 4 ranks: "
            "their product is 3");
  EXPECT_EQ(error_of(5, {64, 64, 64}, topology_kind::manual, {2, 0, 0}),
            "Driver::processor_topology = \"manual\" with processor_topology_3d_x/y/z = 2/0/0 does not split 5 ranks: "
            "5 is not a multiple of 2");
}

TEST(cartesian_topology, more_ranks_than_points_along_a_direction_is_an_error) {
  EXPECT_EQ(error_of(5, {64, 64, 3}, topology_kind::manual, {1, 1, 5}),
            "5 ranks along z (topology 1x1x5, processor_topology = \"manual\") but only 3 points to split there: use "
            "fewer ranks or another topology");
}

TEST(cartesian_topology, uneven_blocks_cover_every_point_once) {
  for (const int owned : {1, 7, 10, 33, 64}) {
    for (int parts = 1; parts <= std::min(owned, 8); ++parts) {
      int next = 0;
      for (int index = 0; index < parts; ++index) {
        const auto block = block_along(owned, parts, index);
        EXPECT_EQ(block.begin, next);
        EXPECT_GE(block.count, owned / parts);
        EXPECT_LE(block.count, owned / parts + 1);
        next += block.count;
      }
      EXPECT_EQ(next, owned) << owned << " points in " << parts;
    }
  }
  EXPECT_EQ(block_along(10, 3, 0).count, 4);
  EXPECT_EQ(block_along(10, 3, 2).begin, 7);
}

TEST(cartesian_topology, ranks_are_ordered_x_fastest) {
  const topology t{2, 3, 2};
  EXPECT_EQ(rank_coordinates(0, t), (topology{0, 0, 0}));
  EXPECT_EQ(rank_coordinates(1, t), (topology{1, 0, 0}));
  EXPECT_EQ(rank_coordinates(2, t), (topology{0, 1, 0}));
  EXPECT_EQ(rank_coordinates(11, t), (topology{1, 2, 1}));
}

}  // namespace
}  // namespace opuntia::thorns::Driver
