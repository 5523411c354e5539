// The ghost-layer bookkeeping that lets a SYNC skip its exchange (flesh/runtime/ghost_depths.hpp).
#include "flesh/runtime/ghost_depths.hpp"

#include <gtest/gtest.h>

namespace opuntia {
namespace {

using faces = ghost_depths::faces;
const buffer_key u{0, 0}, u_out{0, 1}, v{1, 0};
const faces radius_1{1, 1, 1, 1, 1, 1};

TEST(ghost_depths, unknown_buffers_are_exchanged_and_count_as_no_layer) {
  ghost_depths depths(faces{2, 2, 2, 2, 2, 2});
  EXPECT_EQ(depths.find(u), nullptr);
  EXPECT_TRUE(depths.short_of(u, radius_1));
  EXPECT_FALSE(depths.stale_face(u, radius_1).has_value());  // a host routine may have filled them
  EXPECT_EQ(depths.computed({u}, radius_1).depth, faces{});   // nothing computed from them counts
}

TEST(ghost_depths, ghosts_k_times_the_radius_exchange_every_kth_sync) {
  for (int k = 1; k <= 4; ++k) {
    ghost_depths depths(faces{k, k, k, k, 0, 0});  // z not split: never tracked
    depths.exchanged(u, "init");
    int exchanges = 0;
    buffer_key current = u, other = u_out;
    for (int step = 0; step < 12; ++step) {  // a separateinout update, then its SYNC
      depths.kernel_wrote(other, depths.computed({current}, radius_1), "update");
      std::swap(current, other);
      EXPECT_FALSE(depths.stale_face(current, faces{}).has_value());
      if (depths.short_of(current, radius_1)) {
        depths.exchanged(current, "sync");
        ++exchanges;
      }
    }
    EXPECT_EQ(exchanges, 12 / k) << "ghost zones " << k << " wide";
  }
}

TEST(ghost_depths, the_shallowest_read_less_the_stencil_per_face) {
  ghost_depths depths(faces{3, 3, 3, 3, 3, 3});
  depths.exchanged(u, "sync");
  depths.kernel_wrote(v, {faces{3, 1, 2, 3, 3, 0}, faces{3, 1, 2, 3, 3, 0}}, "k");
  EXPECT_EQ(depths.computed({u, v}, faces{1, 0, 2, 1, 0, 0}).depth, (faces{2, 1, 0, 2, 3, 0}));
  EXPECT_EQ(depths.computed({}, faces{1, 1, 0, 0, 3, 4}).depth, (faces{2, 2, 3, 3, 0, 0}));  // where it fits
}

TEST(ghost_depths, layers_computed_across_a_periodic_face_do_not_spare_an_exchange) {
  ghost_depths depths(faces{2, 2, 2, 2, 0, 0}, {false, false, true, true, false, false});
  depths.exchanged(u, "sync");
  const auto layers = depths.computed({u}, radius_1);
  EXPECT_EQ(layers.depth, (faces{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(layers.readable, (faces{1, 1, 1, 1, 0, 0}));  // but a kernel may read them
  depths.kernel_wrote(v, layers, "update");
  EXPECT_TRUE(depths.short_of(v, radius_1));  // y is periodic: its SYNC exchanges every time
  EXPECT_FALSE(depths.stale_face(v, radius_1).has_value());
}

TEST(ghost_depths, a_boundary_kernel_keeps_no_more_than_was_there) {
  ghost_depths depths(faces{2, 2, 2, 2, 2, 2}, {true, true, false, false, false, false});
  depths.exchanged(u, "sync");
  depths.boundary_wrote(u, depths.computed({}, faces{}), radius_1, "boundary");
  EXPECT_EQ(depths.find(u)->depth, (faces{0, 0, 2, 2, 2, 2}));     // the edges across x are its own
  EXPECT_EQ(depths.find(u)->readable, (faces{2, 2, 2, 2, 2, 2}));  // the faces' layers are not touched
  EXPECT_EQ(depths.find(u)->writer, "boundary");
  depths.boundary_wrote(v, depths.computed({}, faces{}), radius_1, "boundary");
  EXPECT_EQ(depths.find(v), nullptr);  // unknown before: unknown after
}

TEST(ghost_depths, a_boundary_slab_past_a_thin_block_stales_its_neighbours_ghosts) {
  // Split along x: the last block, at the physical upper x face, holds 2 points; the first 5.
  ghost_depths depths(faces{1, 1, 0, 0, 0, 0}, {}, faces{5, 2, 0, 0, 0, 0});
  depths.exchanged(u, "sync");
  depths.boundary_wrote(u, depths.computed({}, faces{}), radius_1, "boundary");
  EXPECT_EQ(depths.find(u)->readable, (faces{1, 1, 0, 0, 0, 0}));  // one point deep: 2 - 1 layers kept
  EXPECT_EQ(depths.find(u)->thin_blocks, (std::array<std::string, 6>{}));
  depths.boundary_wrote(u, depths.computed({}, faces{}), faces{2, 2, 1, 1, 1, 1}, "walls");
  EXPECT_EQ(depths.find(u)->readable, (faces{1, 0, 0, 0, 0, 0}));  // its neighbour's upper ghost is rewritten
  EXPECT_EQ(depths.find(u)->depth, (faces{1, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(depths.short_of(u, radius_1));  // a SYNC after it exchanges
  EXPECT_EQ(depths.stale_face(u, radius_1), 1);
  const std::string why =
      "the blocks at the physical upper x face are 2 points thick, and walls rewrites the 2 nearest that face, which "
      "the neighbouring blocks hold as ghosts";
  EXPECT_EQ(depths.find(u)->thin_blocks[1], why);
  EXPECT_EQ(depths.find(u)->thin_blocks[0], "");
  // A boundary kernel after it keeps the reason: the layers are still stale.
  depths.boundary_wrote(u, depths.computed({}, faces{}), radius_1, "other_walls");
  EXPECT_EQ(depths.find(u)->thin_blocks[1], why);
  EXPECT_EQ(depths.find(u)->readable, (faces{1, 0, 0, 0, 0, 0}));
  // Deeper than the block: its own ghosts across the opposite face are rewritten too.
  depths.exchanged(u, "sync");
  depths.boundary_wrote(u, depths.computed({}, faces{}), faces{1, 3, 1, 1, 1, 1}, "deep");
  EXPECT_EQ(depths.find(u)->readable, (faces{0, 0, 0, 0, 0, 0}));
}

TEST(ghost_depths, a_read_beyond_the_readable_layers_names_the_face) {
  ghost_depths depths(faces{0, 0, 1, 1, 1, 1});
  depths.exchanged(v, "sync");
  depths.kernel_wrote(u, depths.computed({v}, faces{0, 0, 0, 1, 0, 0}), "update");
  EXPECT_EQ(depths.stale_face(u, radius_1), 3);  // x is not tracked: the upper y face
  EXPECT_TRUE(depths.short_of(u, radius_1));
  EXPECT_FALSE(depths.stale_face(u, faces{1, 1, 1, 0, 1, 1}).has_value());
  depths.forget(u);  // a host routine wrote it
  EXPECT_FALSE(depths.stale_face(u, radius_1).has_value());
}

}  // namespace
}  // namespace opuntia
