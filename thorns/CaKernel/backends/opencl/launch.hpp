#pragma once
// What a generated OpenCL launcher (templates/opencl) needs from the OpenCL backend of the
// CaKernel runtime (thorns/CaKernel/backends/opencl), which defines these functions:
//   cl_kernel k = opuntia::opencl::kernel(source, sizes, "CAKERNEL_K_3dblock_kernel", "K_3dblock");
//   unsigned next = opuntia::opencl::set_arguments(k, &params, sizeof params, call.arrays, 3);
//   opuntia::opencl::enqueue(call.queue, k, 3, global, local);
#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "opuntia/binding.hpp"
#include "thorns/CaKernel/backends/opencl/check.hpp"
#include "thorns/CaKernel/backends/tensor_boxes.hpp"

/// The text of a macro's expansion as a string literal: the generated headers declare a
/// kernel's Params once, as a macro, and hand the same member list to C++ and to OpenCL C.
#define OPUNTIA_OPENCL_TEXT(...) #__VA_ARGS__
#define OPUNTIA_OPENCL_EXPANDED_TEXT(...) OPUNTIA_OPENCL_TEXT(__VA_ARGS__)

namespace opuntia::opencl {

/// One OpenCL C program of a generated kernel variant.
struct program_request {
  const std::string& source;   // the whole OpenCL C text: generated macros, then the body
  const std::string& options;  // build options; sizes as -D defines so the compiler sees constants
  const char* kernel_name;     // the __kernel function to return
  const char* label;           // for messages and file names, e.g. "Heat_Update_3dblock"
};

/// The kernel of `request`'s program on the active OpenCL device. The program is built once per
/// (source, options): from the on-disk cache when it holds it, else compiled and cached. A build
/// failure throws with the compiler's log (body lines as `file:line`) and the path where the
/// full source was written.
cl_kernel kernel(const program_request& request);

/// The largest work-group the active device runs (launchers shrink tiles to fit it).
std::size_t max_work_group_size();

/// The bytes of local memory a work-group of the active device may keep (CL_DEVICE_LOCAL_MEM_SIZE).
std::size_t local_memory_size();

/// Whether the active platform copies from global to local memory asynchronously with inline PTX
/// cp.async (NVIDIA's: its name contains "NVIDIA"), as 3dblock_ring's ring is then filled.
bool asynchronous_copies();

/// The bytes of each cp.async copy that fills a 3dblock_ring ring (CAKERNEL_ASYNC_COPY) of rows of
/// `point_bytes` points, where the platform has them (`asynchronous`), else 0 (plain loads): the
/// widest of 16, 8 and 4 that holds whole points and whose points divide the element offset of
/// the work-groups' first halo points from a buffer's start (`first`: the lead and the first
/// halo point of the first work-group; the others lie a multiple of `tile_x` further), the row
/// `pitch` and the ring's local rows (`local_x`), so that every copy's global and local addresses
/// are multiples of its bytes (buffers and the ring are 16-byte aligned).
///   ring_copy_bytes(true, 8, 0, 32, 512, 40) == 16; ring_copy_bytes(true, 8, 1, 32, 512, 40) == 8
inline int ring_copy_bytes(bool asynchronous, int point_bytes, int first, int tile_x, int pitch, int local_x) {
  if (!asynchronous) return 0;
  for (const int bytes : {16, 8, 4}) {
    const int points = bytes / point_bytes;
    if (bytes % point_bytes == 0 && first % points == 0 && tile_x % points == 0 && pitch % points == 0 &&
        local_x % points == 0)
      return bytes;
  }
  return 0;
}

/// Whether the active device fills 3dblock_ring's rings by tensor copies (cp.async.bulk.tensor,
/// one a plane and cached variable, issued by one work-item): an NVIDIA GPU of compute capability
/// 9.0 or later whose CUDA driver encodes the maps (thorns/CaKernel/backends/opencl/tensor_maps.hpp).
bool tensor_copies();

/// Whether a ring of `box_x` x `box_y` points a slot can be filled by tensor copies of arrays of
/// `element_bytes` points with rows of `pitch` elements, whose work-groups' boxes start
/// `box_start` elements into a row (the lead and the first work-group's first halo point; the
/// others `tile_x` further): boxes the copy engine moves (tensor_box_fits), the pitch a multiple
/// of 16 bytes (a map's stride must be), and every box's first point on 16 bytes (the slots are padded to start on 128: tensor_slot_rows). The
/// copy engine takes unaligned starts, but the last rule keeps OpenCL where it was measured:
/// CUDA's rings start their boxes aligned, and until a float ring whose boxes began 56 bytes into
/// their rows ran wrong on an H200 (2026-12-03, not yet understood) those are left to cp.async.
///   tensor_boxes_fit(8, 0, 32, 40, 16, 512) && !tensor_boxes_fit(4, 14, 32, 40, 16, 512)
constexpr bool tensor_boxes_fit(int element_bytes, int box_start, int tile_x, int box_x, int box_y, int pitch) {
  return tensor_box_fits(element_bytes, box_x, box_y) && pitch * element_bytes % 16 == 0 &&
         box_start * element_bytes % 16 == 0 && tile_x * element_bytes % 16 == 0;
}

/// The rows of a ring slot that tensor copies fill, for boxes of `rows` rows of `row_bytes` (a
/// multiple of 16): `rows`, padded so that every slot starts on 128 bytes, as a copy's destination
/// must (the template's CAKERNEL_SLOT_ROWS). The cavity's momentum ring in fp64, 66 x 6 points a
/// slot (3168 bytes), keeps 8 rows.
///   tensor_slot_rows(16, 320) == 16; tensor_slot_rows(6, 528) == 8; tensor_slot_rows(9, 48) == 16
constexpr int tensor_slot_rows(int rows, int row_bytes) {
  int padded = rows;
  while (row_bytes > 0 && padded * row_bytes % 128 != 0 && padded < rows + 8) ++padded;
  return padded;
}

/// Whether a ring that tensor copies fill `ahead` planes ahead keeps each slot as three boxes, each
/// copied by a tensor copy of its own (the template's CAKERNEL_SPLIT_X_HALO): the work-group's
/// points of each row (the main box, from its first point) and the x halo left and right of them.
/// A box whose rows begin the x halo's width before the work-group's points holds the copy engine
/// back once three planes are in flight, as on CUDA (templates/cuda/3dblock.h.tpl, split_x_halo:
/// CUDA's radius-4 ring in fp32 ran at 76-77% of copy two planes ahead, collapsed to 58-60%
/// three ahead with one box and reached 85.6-87.8% with the halo apart; H100, bench/RESULTS.md,
/// 2026-11-25). OpenCL's one box showed the same: 75.8% two ahead, 71.8% three (2026-12-07).
///   !tensor_split_x_halo(2) && tensor_split_x_halo(3)
constexpr bool tensor_split_x_halo(int ahead) { return ahead >= 3; }

/// The points of an x halo box of `halo` points of `element_bytes` each (split slots): rounded up
/// to 16 bytes, as a copy's rows must be (the template's CAKERNEL_HALO_BOX_X).
///   tensor_halo_points(4, 4) == 4 && tensor_halo_points(1, 4) == 4 && tensor_halo_points(1, 8) == 2
constexpr int tensor_halo_points(int halo, int element_bytes) {
  const int per_16 = element_bytes > 0 && element_bytes < 16 ? 16 / element_bytes : 1;
  return (halo + per_16 - 1) / per_16 * per_16;
}

/// The bytes of one ring slot that tensor copies fill with points of `element_bytes`, for a
/// work-group of `tile_x` points and `rows` rows (its y halo included) and an x halo of `halo_lo`
/// points left and `halo_hi` right: one box of the rows with their x halo, in tensor_slot_rows
/// rows, or (`split`, tensor_split_x_halo) the main box and the two halo boxes of
/// tensor_halo_points each, every box starting on 128 bytes (the template's CAKERNEL_SLOT_POINTS).
///   tensor_slot_bytes(4, 32, 24, 4, 4, false) == 3840 && tensor_slot_bytes(4, 32, 24, 4, 4, true) == 3840
///   tensor_slot_bytes(8, 32, 10, 1, 1, true) == 2560 + 256 + 256
constexpr int tensor_slot_bytes(int element_bytes, int tile_x, int rows, int halo_lo, int halo_hi, bool split) {
  if (!split) {
    const int row_bytes = (tile_x + halo_lo + halo_hi) * element_bytes;
    return tensor_slot_rows(rows, row_bytes) * row_bytes;
  }
  const auto box = [&](int points) { return (points * rows * element_bytes + 127) / 128 * 128; };
  return box(tile_x) + box(tensor_halo_points(halo_lo, element_bytes)) + box(tensor_halo_points(halo_hi, element_bytes));
}

/// Whether a ring slot split into three boxes (tensor_split_x_halo) can be filled by tensor copies
/// of arrays of `element_bytes` points with rows of `pitch` elements, whose work-groups' points
/// start `first` elements into a row (the lead and the first work-group's first point; the others
/// `tile_x` further) and keep `rows` rows and an x halo of `halo_lo` and `halo_hi` points: every
/// box one the copy engine moves, the pitch a multiple of 16 bytes, and every box's first point on
/// 16 bytes (as tensor_boxes_fit asks of one box).
///   tensor_split_boxes_fit(4, 32, 32, 24, 4, 4, 288) && !tensor_split_boxes_fit(4, 30, 32, 24, 4, 4, 288)
constexpr bool tensor_split_boxes_fit(int element_bytes, int first, int tile_x, int rows, int halo_lo, int halo_hi,
                                      int pitch) {
  const int lo = tensor_halo_points(halo_lo, element_bytes), hi = tensor_halo_points(halo_hi, element_bytes);
  return tensor_boxes_fit(element_bytes, first, tile_x, tile_x, rows, pitch) &&
         (lo == 0 || tensor_box_fits(element_bytes, lo, rows)) && (hi == 0 || tensor_box_fits(element_bytes, hi, rows));
}

/// The shape a ring that tensor copies fill starts from (its launcher's own, autotuning's first):
/// a work-group's row of 64 points, 16 bytes a work-item, and CUDA's ring's depth (below); y and
/// z are the descriptor's (the launcher then keeps as many rows as the local memory holds, and
/// cuts z into slabs). Two planes ahead, with the driver's padded rows, the fp32 radius-4 star's
/// ring on the H100 (bench/RESULTS.md, 2026-12-06, % of copy):
/// - rows of 128 points (a warp of 4-float work-items) left it half the rows: 56.8-57.2% at
///   512^3 on 128 x 4, against 72.8-76.3% on 64 x 16 x 128 (lanes 4 or 2) and 74.3-74.9% on
///   64 x 16 x 64; at 256^3 60.4-60.6% against 72.4-73.0% on 64 x 16 x 64 (the H200 alike:
///   50.5-50.7% on 128 x 4 at 512^3, 64.4% on 64 x 16 x 128 with lanes 4);
/// - on 64 x 16 with the launcher's own slabs (252 planes at 512^3, 31 at 256^3), four floats a
///   work-item (16 bytes, 256 work-items) ran at 58.1-58.4% and 56.4% of copy, two (512
///   work-items) at 77.3-77.4% and 67.7% (CUDA's ring 88.3% and 83.6% in the same runs; on the
///   bare array 40.4 against 72.4-73.2% at 512^3).
/// In fp64 the rule gives 64 x 4 lanes 2 as before, the best shape tried on the H100 (77.1%,
/// 2026-12-05).
/// Its depth is CUDA's ring's own: three planes ahead for points of 4 bytes or fewer (each slot
/// then three boxes, tensor_split_x_halo), two for wider; a work-item owns 16 bytes (four
/// floats, where two were the rule two planes ahead, above). On the H100 the fp32 radius-4
/// ring went from 74.9% of copy two ahead to 78.7% three ahead (64 x 8 x 62, 256^3; 85.1% with
/// four lanes) and from 73.5% to 84.4% at 512^3 (64 x 8 x 56); on the shape this rule gives,
/// 64 x 16 shrunk to 64 x 8 by the local memory, four lanes ran at 89.5% of copy at 512^3 (101%
/// of CUDA's ring in the same run) and 69.6-71.5% at 256^3 on its own slabs of 42 planes, two
/// lanes at 82.8% and 64.9-66.0%. In fp64 three ahead gained at 256^3 (82.2 to 89.0% on
/// 32 x 8 x 124) and lost at 512^3 (78.5 to 76.5%) (bench/RESULTS.md, 2026-12-07, 6bc07d1 and
/// f307197).
///   tensor_ring_shape({32, 16, 512}, 4) == launch_shape{{64, 16, 512}, 3, 4}
///   tensor_ring_shape({32, 16, 512}, 8) == launch_shape{{64, 16, 512}, 2, 2}
inline launch_shape tensor_ring_shape(const std::array<int, 3>& descriptor_tile, int point_bytes) {
  // 16 bytes a work-item (four floats, two doubles), at most the template's four lanes.
  const int lanes = point_bytes > 0 && point_bytes <= 8 ? std::min(16 / point_bytes, 4) : 1;
  return launch_shape{{64, descriptor_tile[1], descriptor_tile[2]}, point_bytes <= 4 ? 3 : 2, lanes};
}

/// The tensor maps of a ring's launch: for each of a kernel's arrays (kernel_call::arrays order)
/// the buffer a ring copies from, or nullptr where it copies none, with its points' bytes; the
/// arrays' dims in elements (the allocated row pitch, nj, nk), the rows from one plane to the
/// next (kernel_grid::ashj) and a slot's box (x, y): the whole slot, or where `split_x_halo`
/// gives the x halo's points left and right (tensor_split_x_halo), the main box, beside which
/// each array has the maps of its halo boxes (tensor_halo_points wide; none where 0).
struct tensor_map_request {
  std::span<void* const> arrays;
  std::span<const int> element_bytes;
  std::array<std::uint64_t, 3> dims{};
  std::uint64_t plane_rows = 0;
  std::array<std::uint32_t, 2> box{};
  std::optional<std::array<int, 2>> split_x_halo;
  /// The maps an array has: one box a slot, or three (main, left halo, right halo).
  int maps_per_array() const { return split_x_halo ? 3 : 1; }
};

/// A buffer of `request`'s maps, 128 bytes each, maps_per_array() an array in the arrays' order
/// (the kernel's argument after the arrays), made at the first launch with those arrays and kept
/// until one of them is released; nullptr where tensor copies are off or the driver refused a map
/// (the ring then copies with cp.async).
cl_mem tensor_maps(const tensor_map_request& request);

/// Sets argument `index` of `kernel` to `buffer`.
void set_buffer_argument(cl_kernel kernel, unsigned index, cl_mem buffer);

/// The x points each work-item of a 3D kernel owns (CAKERNEL_LANES): the most, a power of two,
/// of `point_bytes` points that fit 16 bytes (2 doubles, 4 floats) and at most `asked` where that
/// is set, so that each row's points move with one vector access, and of which the row `pitch` is
/// a whole number (the groups then start aligned wherever lanes_origin puts them, as the buffers
/// start 16-byte aligned).
///   lanes_for(8, 512) == 2; lanes_for(4, 516) == 4; lanes_for(4, 514) == 2; lanes_for(4, 516, 1) == 1
inline int lanes_for(int point_bytes, int pitch, int asked = 0) {
  const int most = point_bytes <= 0 ? 1 : asked > 0 ? std::min(16 / point_bytes, asked) : 16 / point_bytes;
  int lanes = 1;
  while (2 * lanes <= most && pitch % (2 * lanes) == 0) lanes *= 2;
  return lanes;
}

/// The x points a work-item of a 3D kernel owns without autotuning's choice, given the bytes of
/// its windows with one (the variant's window_bytes) and the local plane its work-group keeps
/// (CAKERNEL_LOCAL_PLANE: 0 none, 1 a staged plane as 3dblock's, 2 a ring as 3dblock_ring's): two
/// where it has none and its windows stay within 128 bytes with two, two for a ring, else one.
/// On an H200 (NVIDIA's OpenCL, 512^3 and 256^3, bench/RESULTS.md 2026-12-02) two points a
/// work-item ran the 7-point star's 3dstencil and 3dblock_rows at 83-93% of copy against 66-81%
/// with one, in fp32 and fp64, and four floats at 62-69%; where the windows grew past 128 bytes
/// (the radius-4 star in fp64, or its two rows a work-item in fp32) two ran slower than one
/// (27.6% against 45.5%: 108-134 registers against 60). Where a staged plane already gives the x
/// neighbours, a second point only adds its staging: the 7-point star's 3dblock ran at 67-76%
/// with two against 69-80% with one. A ring's windows take their planes from the ring and its
/// lanes read it a group at a time: the radius-4 star's ring ran at 41.5 / 56.7% (fp32 / fp64,
/// 512^3) and 31.0 / 46.8% (256^3) with two against 38.6 / 54.4% and 29.4 / 38.3% with one
/// (bench/RESULTS.md, 2026-12-03). Autotuning tries the others.
///   own_lanes(32, 0) == 2 (the 7-point star, 4 planes of doubles); own_lanes(80, 0) == 1;
///   own_lanes(32, 1) == 1; own_lanes(80, 2) == 2
inline int own_lanes(int one_lane_window_bytes, int local_plane) {
  if (local_plane == 2) return 2;
  return local_plane == 0 && 2 * one_lane_window_bytes <= 128 ? 2 : 1;
}

/// The first point of the first group of `lanes` x points at or below `first`, given the `lead`
/// before a row's point 0: where the work-items' groups start so that each is 16-byte aligned.
///   lanes_origin(4, 1, 2) == -2 (a lead of 2 and point -2: element 0); lanes_origin(1, 5, 7) == 5
inline int lanes_origin(int lanes, int first, int lead) { return first - (lead + first) % lanes; }

/// What one compute unit of a GPU holds at once: the estimate of the work-groups a device runs
/// together (resident_work_groups) rests on it, as OpenCL has no occupancy query.
struct compute_unit_limits {
  std::size_t local_bytes = 0;      // local memory its work-groups share
  std::size_t local_reserved = 0;   // local memory the platform keeps for each work-group
  std::size_t items = 0;            // work-items
  std::size_t work_groups = 0;      // work-groups
};

/// An NVIDIA GPU's SM, by compute capability, where the CUDA C++ Programming Guide's table
/// ("Technical Specifications per Compute Capability") is known here; else nothing. OpenCL says
/// a work-group's limit, CL_DEVICE_LOCAL_MEM_SIZE 48 KiB, where a Hopper SM holds 228 KiB of
/// shared memory: taken as a compute unit's, it let the OpenCL launchers reckon one work-group of
/// the radius-4 ring (fp32, 32 x 16 points) an SM where eight fit, and so keep its columns whole
/// at half the SM's threads.
///   nvidia_sm_limits(9, 0)->local_bytes == 228 * 1024; !nvidia_sm_limits(3, 5)
inline std::optional<compute_unit_limits> nvidia_sm_limits(unsigned major, unsigned minor) {
  constexpr std::size_t KiB = 1024;
  switch (major * 10 + minor) {
    case 70: return compute_unit_limits{96 * KiB, 0, 2048, 32};
    case 75: return compute_unit_limits{64 * KiB, 0, 1024, 16};
    case 80: return compute_unit_limits{164 * KiB, 1 * KiB, 2048, 32};
    case 86: return compute_unit_limits{100 * KiB, 1 * KiB, 1536, 16};
    case 89: return compute_unit_limits{100 * KiB, 1 * KiB, 1536, 24};
    case 90: return compute_unit_limits{228 * KiB, 1 * KiB, 2048, 32};
    default: return std::nullopt;
  }
}

/// The work-groups of `items` work-items and `local_bytes` of local memory that one compute unit
/// of `unit`'s limits holds at once: at least one (a launch runs whatever it asks).
///   work_groups_per_unit({228 * 1024, 1024, 2048, 32}, 256, 26880) == 8
inline std::size_t work_groups_per_unit(const compute_unit_limits& unit, std::size_t items, std::size_t local_bytes) {
  std::size_t groups = std::min(unit.work_groups, unit.items / std::max<std::size_t>(items, 1));
  if (local_bytes > 0) groups = std::min(groups, unit.local_bytes / (local_bytes + unit.local_reserved));
  return std::max<std::size_t>(groups, 1);
}

/// About how many work-groups of `items` work-items and `local_bytes` of local memory the active
/// device runs at once (an estimate: registers are not counted), by which the 3D launchers cut z
/// into slabs (thorns/CaKernel/backends/slabs.hpp).
std::int64_t resident_work_groups(std::size_t items, std::size_t local_bytes);

/// Sets argument 0 to the `params_size` bytes at `params` and arguments 1..`array_count` to the
/// buffers in `arrays` (cl_mem, as the OpenCL backend allocates them); returns the next index.
unsigned set_arguments(cl_kernel kernel, const void* params, std::size_t params_size, void* const* arrays,
                       unsigned array_count);

/// The sizes a generated launcher's program is built with, as compile-time constants (-D
/// options): the work-group tile (CAKERNEL_TX, _TY, _TZ; a tile z of 0 leaves the slab to the
/// launch: the program's work-groups even the planes over as many as run in z), this block's
/// array sizes (CAKERNEL_NI, _NJ, _NK), the rows and planes in memory (CAKERNEL_ASHI, _LEADI, _ASHJ), the planes ahead (CAKERNEL_PF), a
/// ring's copies (CAKERNEL_ASYNC_COPY, or CAKERNEL_TENSOR_COPY) and, for a call's box, the points a 3D kernel computes ([CAKERNEL_ILO, CAKERNEL_IHI)
/// in x, JLO/JHI in y, KLO/KHI in z; without them, every point the STENCIL allows).
struct program_sizes {
  std::array<std::size_t, 3> tile{1, 1, 1};
  std::array<int, 3> grid{};
  bool bounded = false;
  std::array<int, 3> lo{}, hi{};
  int planes_ahead = 0;  // CAKERNEL_PF where nonzero, else the program's own
  int pitch = 0, lead = 0;  // the rows in memory (kernel_grid::ashi, leadi); pitch 0: grid[0]
  int plane_rows = 0;       // the planes in memory (kernel_grid::ashj); 0: grid[1]
  int ring_copy = 0;        // CAKERNEL_ASYNC_COPY where nonzero: a ring's cp.async bytes (ring_copy_bytes)
  int lanes = 1, origin_x = 0;  // CAKERNEL_LANES and CAKERNEL_OX where lanes > 1 (lanes_for, lanes_origin)
  bool tensor_copy = false;     // CAKERNEL_TENSOR_COPY: a ring filled by tensor copies (tensor_maps)
  bool split_x_halo = false;    // CAKERNEL_SPLIT_X_HALO: its slots three boxes (tensor_split_x_halo)
  auto operator<=>(const program_sizes&) const = default;
  /// The -D options that say them.
  std::string options() const {
    std::string text = "-DCAKERNEL_TX=" + std::to_string(tile[0]) + " -DCAKERNEL_TY=" + std::to_string(tile[1]) +
                       (tile[2] > 0 ? " -DCAKERNEL_TZ=" + std::to_string(tile[2]) : std::string()) +
                       " -DCAKERNEL_NI=" + std::to_string(grid[0]) +
                       " -DCAKERNEL_NJ=" + std::to_string(grid[1]) + " -DCAKERNEL_NK=" + std::to_string(grid[2]) +
                       " -DCAKERNEL_ASHI=" + std::to_string(pitch > 0 ? pitch : grid[0]) +
                       " -DCAKERNEL_LEADI=" + std::to_string(lead) +
                       " -DCAKERNEL_ASHJ=" + std::to_string(plane_rows > 0 ? plane_rows : grid[1]);
    const char* axes[3] = {"I", "J", "K"};
    if (planes_ahead > 0) text += " -DCAKERNEL_PF=" + std::to_string(planes_ahead);
    if (ring_copy > 0) text += " -DCAKERNEL_ASYNC_COPY=" + std::to_string(ring_copy);
    if (lanes > 1) text += " -DCAKERNEL_LANES=" + std::to_string(lanes) + " -DCAKERNEL_OX=" + std::to_string(origin_x);
    if (tensor_copy) text += " -DCAKERNEL_TENSOR_COPY=1";
    if (split_x_halo) text += " -DCAKERNEL_SPLIT_X_HALO=1";
    for (int d = 0; bounded && d < 3; ++d) {
      text += std::string(" -DCAKERNEL_") + axes[d] + "LO=" + std::to_string(lo[d]) + " -DCAKERNEL_" + axes[d] +
              "HI=" + std::to_string(hi[d]);
    }
    return text;
  }
};

/// The kernel `kernel_name` of a generated launcher's program (its `source`, a string that lives
/// as long as the process) built with `sizes`. Launches after the first with the same sizes find
/// it without building its options or cache key (a launch's host time, issue 28).
cl_kernel kernel(const std::string& source, const program_sizes& sizes, const char* kernel_name, const char* label);

/// Enqueues `kernel` on `queue` (a cl_command_queue, as kernel_call::queue carries it; null: the
/// active backend's own queue) over `global` work-items in groups of `local` (nullptr: the device
/// chooses), returning before it runs.
void enqueue(void* queue, cl_kernel kernel, unsigned dimensions, const std::size_t* global, const std::size_t* local);

}  // namespace opuntia::opencl
