// What a generated OpenCL launcher asks of thorns/CaKernel/backends/opencl/launch.hpp without a
// device: the width of 3dblock_ring's asynchronous copies, where its tensor copies serve, a
// work-item's lanes and where its groups start, and the build options that say them.
#include <gtest/gtest.h>

#include <string>

#include "thorns/CaKernel/backends/opencl/launch.hpp"

namespace {

using opuntia::opencl::compute_unit_limits;
using opuntia::opencl::lanes_for;
using opuntia::opencl::lanes_origin;
using opuntia::opencl::nvidia_sm_limits;
using opuntia::opencl::own_lanes;
using opuntia::opencl::program_sizes;
using opuntia::opencl::ring_copy_bytes;
using opuntia::opencl::tensor_boxes_fit;
using opuntia::opencl::tensor_halo_points;
using opuntia::opencl::tensor_ring_shape;
using opuntia::opencl::tensor_slot_bytes;
using opuntia::opencl::tensor_slot_rows;
using opuntia::opencl::tensor_split_boxes_fit;
using opuntia::opencl::tensor_split_x_halo;
using opuntia::opencl::work_groups_per_unit;

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

TEST(opencl_launch, tensor_copies_fill_rings_whose_boxes_and_slots_the_copy_engine_takes_aligned) {
  // The radius-4 star: 32 x 8 points, 40 x 16 a slot; fp64 and fp32 from a 16-byte aligned start.
  EXPECT_TRUE(tensor_boxes_fit(8, 0, 32, 40, 16, 512));
  EXPECT_TRUE(tensor_boxes_fit(4, 4, 32, 40, 16, 512));
  EXPECT_TRUE(tensor_boxes_fit(8, -2, 32, 40, 16, 512));  // a box may start before the row: zeros come in
  // A box row that is no multiple of 16 bytes (fp64, 41 points), or wider than 256 points.
  EXPECT_FALSE(tensor_boxes_fit(8, 0, 32, 41, 16, 512));
  EXPECT_FALSE(tensor_boxes_fit(4, 0, 256, 264, 16, 512));
  // Rows must stride by 16 bytes (a map's stride): 44 floats do, 42 do not ...
  EXPECT_TRUE(tensor_boxes_fit(4, 0, 32, 40, 16, 44));
  EXPECT_FALSE(tensor_boxes_fit(4, 0, 32, 40, 16, 42));
  // A slot of 36 x 13 doubles is no multiple of 128 bytes: its rows are padded (tensor_slot_rows).
  EXPECT_TRUE(tensor_boxes_fit(8, 0, 32, 36, 13, 512));
  // ... and boxes that start 56 bytes into a row, or whose tiles move them by 8 bytes, stay with cp.async.
  EXPECT_FALSE(tensor_boxes_fit(4, 14, 32, 40, 16, 512));
  EXPECT_FALSE(tensor_boxes_fit(8, 0, 31, 40, 16, 512));
  // Nothing for no points.
  EXPECT_FALSE(tensor_boxes_fit(8, 0, 32, 0, 16, 512));
  EXPECT_FALSE(tensor_boxes_fit(0, 0, 32, 40, 16, 512));
}

TEST(opencl_launch, a_ring_that_tensor_copies_fill_starts_from_rows_of_64_points_as_deep_as_cudas) {
  // Three planes ahead in fp32 (split slots) with 16 bytes a work-item, two in fp64, as CUDA's
  // ring's own depth.
  EXPECT_EQ(tensor_ring_shape({32, 16, 512}, 4), (opuntia::launch_shape{{64, 16, 512}, 3, 4}));
  EXPECT_EQ(tensor_ring_shape({32, 16, 512}, 8), (opuntia::launch_shape{{64, 16, 512}, 2, 2}));
  EXPECT_EQ(tensor_ring_shape({16, 8, 4}, 8), (opuntia::launch_shape{{64, 8, 4}, 2, 2}));
}

TEST(opencl_launch, a_tensor_copied_slot_keeps_rows_enough_to_end_on_128_bytes) {
  EXPECT_EQ(tensor_slot_rows(16, 40 * 8), 16);  // 5120 bytes
  EXPECT_EQ(tensor_slot_rows(6, 66 * 8), 8);    // the cavity's momentum in fp64: 3168 bytes, 4224 padded
  EXPECT_EQ(tensor_slot_rows(13, 36 * 8), 16);  // 288-byte rows: 4 make 1152 = 9 x 128
  EXPECT_EQ(tensor_slot_rows(9, 16), 16);       // 16-byte rows: 8 a 128 bytes
  EXPECT_EQ(tensor_slot_rows(3, 128), 3);       // whole lines
  for (int rows = 1; rows < 40; ++rows)
    for (int row_bytes = 16; row_bytes <= 512; row_bytes += 16) {
      const int padded = tensor_slot_rows(rows, row_bytes);
      EXPECT_EQ(padded * row_bytes % 128, 0);
      EXPECT_GE(padded, rows);
      EXPECT_LT(padded, rows + 8);
    }
}

TEST(opencl_launch, a_ring_three_planes_ahead_splits_its_x_halo_into_boxes_of_whole_16_bytes) {
  EXPECT_FALSE(tensor_split_x_halo(1));
  EXPECT_FALSE(tensor_split_x_halo(2));
  EXPECT_TRUE(tensor_split_x_halo(3));
  EXPECT_TRUE(tensor_split_x_halo(4));
  EXPECT_EQ(tensor_halo_points(4, 4), 4);  // the radius-4 star in fp32: 16 bytes
  EXPECT_EQ(tensor_halo_points(4, 8), 4);  // in fp64: 32 bytes
  EXPECT_EQ(tensor_halo_points(1, 4), 4);  // a radius-1 star: one point rounded up to 16 bytes
  EXPECT_EQ(tensor_halo_points(1, 8), 2);
  EXPECT_EQ(tensor_halo_points(0, 4), 0);  // no halo: no box
  EXPECT_EQ(tensor_halo_points(5, 4), 8);
}

TEST(opencl_launch, a_split_slot_keeps_three_boxes_each_on_128_bytes) {
  // fp32 radius 4, 32 x 16 points (24 rows with the y halo): 40-point rows in one box, or
  // 32 + 4 + 4 points a row in three; 3840 bytes either way.
  EXPECT_EQ(tensor_slot_bytes(4, 32, 24, 4, 4, false), 3840);
  EXPECT_EQ(tensor_slot_bytes(4, 32, 24, 4, 4, true), 3072 + 384 + 384);
  // fp64 radius 1, 32 x 8 points (10 rows): 2560 bytes of points, each halo box 2 doubles a row
  // (160 bytes, padded to 256); one box: 34-double rows, 16 of them to end on 128 bytes.
  EXPECT_EQ(tensor_slot_bytes(8, 32, 10, 1, 1, true), 2560 + 256 + 256);
  EXPECT_EQ(tensor_slot_bytes(8, 32, 10, 1, 1, false), 16 * 34 * 8);
  // A halo on one side only keeps no box on the other.
  EXPECT_EQ(tensor_slot_bytes(4, 32, 24, 0, 4, true), 3072 + 384);
}

TEST(opencl_launch, split_boxes_start_at_the_work_groups_first_points_on_16_bytes) {
  EXPECT_TRUE(tensor_split_boxes_fit(4, 32, 32, 24, 4, 4, 288));
  EXPECT_TRUE(tensor_split_boxes_fit(8, 16, 32, 16, 4, 4, 272));
  // The first point 8 bytes into a group, a tile of 30 floats, or rows of 286 floats: not 16 bytes.
  EXPECT_FALSE(tensor_split_boxes_fit(4, 30, 32, 24, 4, 4, 288));
  EXPECT_FALSE(tensor_split_boxes_fit(4, 32, 30, 24, 4, 4, 288));
  EXPECT_FALSE(tensor_split_boxes_fit(4, 32, 32, 24, 4, 4, 286));
  // A main box wider than 256 points, or more than 256 rows.
  EXPECT_FALSE(tensor_split_boxes_fit(4, 0, 264, 24, 4, 4, 288));
  EXPECT_FALSE(tensor_split_boxes_fit(4, 0, 32, 264, 4, 4, 288));
}

TEST(opencl_launch, tensor_copies_are_a_build_option_and_part_of_the_program_key) {
  program_sizes copies{{16, 8, 16}, {64, 64, 64}};
  copies.ring_copy = 16;
  program_sizes tensor = copies;
  tensor.ring_copy = 0;
  tensor.tensor_copy = true;
  EXPECT_EQ(copies.options().find("CAKERNEL_TENSOR_COPY"), std::string::npos);
  EXPECT_NE(tensor.options().find(" -DCAKERNEL_TENSOR_COPY=1"), std::string::npos);
  EXPECT_EQ(tensor.options().find("CAKERNEL_ASYNC_COPY"), std::string::npos);
  EXPECT_NE(copies, tensor);
  // Three boxes a slot: an option of its own, and another program.
  program_sizes split = tensor;
  split.split_x_halo = true;
  EXPECT_EQ(tensor.options().find("CAKERNEL_SPLIT_X_HALO"), std::string::npos);
  EXPECT_NE(split.options().find(" -DCAKERNEL_SPLIT_X_HALO=1"), std::string::npos);
  EXPECT_NE(split, tensor);
}

TEST(opencl_launch, a_work_item_owns_up_to_16_bytes_of_points_where_the_rows_are_whole_groups) {
  EXPECT_EQ(lanes_for(8, 512), 2);
  EXPECT_EQ(lanes_for(4, 516), 4);
  EXPECT_EQ(lanes_for(4, 514), 2);  // 514 floats: rows of 4-float groups would not stay aligned
  EXPECT_EQ(lanes_for(4, 515), 1);
  EXPECT_EQ(lanes_for(4, 516, 2), 2);  // autotuning's choice, within what the rows allow
  EXPECT_EQ(lanes_for(4, 516, 3), 2);
  EXPECT_EQ(lanes_for(4, 514, 4), 2);
  EXPECT_EQ(lanes_for(8, 512, 1), 1);
  EXPECT_EQ(lanes_for(8, 512, 8), 2);  // at most 16 bytes
  EXPECT_EQ(lanes_for(8, 41), 1);
}

TEST(opencl_launch, without_autotuning_a_work_item_owns_two_points_where_its_windows_stay_within_128_bytes_or_it_keeps_a_ring) {
  EXPECT_EQ(own_lanes(4 * 8, 0), 2);       // the 7-point star's 3dstencil in fp64: 3 planes and 1 ahead
  EXPECT_EQ(own_lanes(2 * 4 * 8, 0), 2);   // ... its 3dblock_rows, two rows a work-item: 128 bytes with two
  EXPECT_EQ(own_lanes(10 * 4, 0), 2);      // the radius-4 star's 3dstencil in fp32
  EXPECT_EQ(own_lanes(10 * 8, 0), 1);      // ... in fp64
  EXPECT_EQ(own_lanes(2 * 10 * 4, 0), 1);  // ... its 3dblock_rows in fp32
  EXPECT_EQ(own_lanes(0, 0), 2);           // no cached variable: no windows
  EXPECT_EQ(own_lanes(4 * 8, 1), 1);       // the 7-point star's 3dblock: its local plane gives the x neighbours
  EXPECT_EQ(own_lanes(0, 1), 1);
  EXPECT_EQ(own_lanes(9 * 8, 2), 2);       // the radius-4 star's ring in fp64: its windows take planes from the ring
  // The launcher then asks lanes_for for that many, within what the rows allow.
  EXPECT_EQ(lanes_for(4, 516, own_lanes(16, 0)), 2);
  EXPECT_EQ(lanes_for(4, 515, own_lanes(16, 0)), 1);
}

TEST(opencl_launch, groups_start_at_or_below_the_first_point_on_a_whole_group_of_the_row) {
  EXPECT_EQ(lanes_origin(4, 1, 0), 0);
  EXPECT_EQ(lanes_origin(4, 4, 0), 4);
  EXPECT_EQ(lanes_origin(4, 1, 2), -2);  // a lead of 2: element 0 of the row's allocation
  EXPECT_EQ(lanes_origin(2, 1, 15), 1);  // element 16
  EXPECT_EQ(lanes_origin(1, 5, 7), 5);
  for (int lead : {0, 1, 3, 8, 15})
    for (int first : {0, 1, 2, 4})
      for (int lanes : {1, 2, 4}) {
        const int origin = lanes_origin(lanes, first, lead);
        EXPECT_EQ((lead + origin) % lanes, 0);
        EXPECT_LE(origin, first);
        EXPECT_GT(origin + lanes, first);
        EXPECT_GE(lead + origin, 0);
      }
}

TEST(opencl_launch, lanes_and_their_origin_are_build_options_and_part_of_the_program_key) {
  program_sizes one{{32, 8, 16}, {64, 64, 64}};
  program_sizes four = one;
  four.lanes = 4;
  four.origin_x = -2;
  EXPECT_EQ(one.options().find("CAKERNEL_LANES"), std::string::npos);
  EXPECT_NE(four.options().find(" -DCAKERNEL_LANES=4 -DCAKERNEL_OX=-2"), std::string::npos);
  EXPECT_NE(one, four);
}

TEST(opencl_launch, an_nvidia_sm_holds_work_groups_by_its_shared_memory_threads_and_block_limit) {
  const auto hopper = nvidia_sm_limits(9, 0);
  ASSERT_TRUE(hopper.has_value());
  // The radius-4 ring in fp32 on 32 x 16 points, two a work-item, two planes ahead: 256 work-items
  // and 7 planes of 40 x 24 floats (26880 bytes), eight an SM by its 228 KiB and 2048 threads,
  // where the work-group's 48 KiB (CL_DEVICE_LOCAL_MEM_SIZE) taken as the SM's gave one.
  EXPECT_EQ(work_groups_per_unit(*hopper, 256, 26880), 8u);
  // Each work-group costs the platform's 1 KiB as well: four groups of 58000 bytes would fit
  // 228 KiB, three do with it.
  EXPECT_EQ(work_groups_per_unit(*hopper, 128, 58000), 3u);
  // Small work-groups without local memory: the SM's 32 blocks, not 2048 / 32 = 64.
  EXPECT_EQ(work_groups_per_unit(*hopper, 32, 0), 32u);
  // An A100 and a GA10x part differ in shared memory, threads and blocks.
  EXPECT_EQ(work_groups_per_unit(*nvidia_sm_limits(8, 0), 256, 26880), 6u);
  EXPECT_EQ(work_groups_per_unit(*nvidia_sm_limits(8, 6), 256, 26880), 3u);
  EXPECT_EQ(work_groups_per_unit(*nvidia_sm_limits(8, 6), 64, 0), 16u);
  // A capability the table does not know: the device's own figures serve instead.
  EXPECT_FALSE(nvidia_sm_limits(3, 5).has_value());
  EXPECT_FALSE(nvidia_sm_limits(12, 0).has_value());
  // A work-group larger than the unit's local memory still runs, alone.
  EXPECT_EQ(work_groups_per_unit(compute_unit_limits{48 * 1024, 0, 2048, 1000}, 1024, 64 * 1024), 1u);
}

}  // namespace
