#pragma once
// What opuntia-gen emits for each thorn, as plain data: the flesh builds its parameter
// registry, grid-function registry and schedule from these. Nothing here runs anything.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "ccl/model/param_range.hpp"
#include "ccl/model/variable_kinds.hpp"
#include "opuntia/cctk_types.h"
#include "opuntia/grid.hpp"

namespace opuntia {

// What interface.ccl and cakernel.ccl say about a variable: the enums opuntia-gen reads them into.
using ccl::centering;
using ccl::centerings;
using ccl::data_type;
using ccl::group_type;
using ccl::kernel_intent;

/// A value of a thorn's typed `parameters` struct that tells the registry when code reads it, so
/// that `--parameter-level strict` can name parameters a parameter file sets but nothing reads.
/// It converts to `const T&` wherever a T is expected; `.get()` where a template needs the type.
template <typename T>
class tracked_parameter {
public:
  tracked_parameter() = default;
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U, T>>>
  tracked_parameter(U&& value) : value_(std::forward<U>(value)) {}  // NOLINT: a default in a struct initialiser
  tracked_parameter(T value, bool* read_flag) : value_(std::move(value)), read_flag_(read_flag) {}

  const T& get() const {
    if (read_flag_ != nullptr) *read_flag_ = true;
    return value_;
  }
  operator const T&() const { return get(); }  // NOLINT: reads like the plain value

  template <typename U>
  friend bool operator==(const tracked_parameter& a, const U& b) {
    return a.get() == b;
  }
  template <typename U>
  friend bool operator!=(const tracked_parameter& a, const U& b) {
    return a.get() != b;
  }

private:
  T value_{};
  bool* read_flag_ = nullptr;
};

/// Where generated code reads parameter values from (the flesh's parameter registry).
/// `owner` is the thorn (or implementation) that declares the parameter; `index` is the element
/// of an array parameter, -1 for a scalar one.
class parameter_source {
public:
  virtual ~parameter_source() = default;
  virtual CCTK_INT integer(std::string_view owner, std::string_view name, int index = -1) const = 0;
  virtual CCTK_REAL real(std::string_view owner, std::string_view name, int index = -1) const = 0;
  virtual std::string text(std::string_view owner, std::string_view name, int index = -1) const = 0;
  virtual bool boolean(std::string_view owner, std::string_view name, int index = -1) const = 0;
  /// The flag a tracked_parameter sets when code reads it; nullptr: reads are not tracked.
  virtual bool* read_flag(std::string_view owner, std::string_view name) const {
    (void)owner;
    (void)name;
    return nullptr;
  }
};

/// What a scheduled host routine receives (defined by the flesh).
class routine_context;
using routine_function = void (*)(routine_context&);

/// The grid as a kernel sees it through params.cagh_*; `physical[f]` tells whether face f
/// (xn, xp, yn, yp, zn, zp) of this rank's block is a physical boundary.
struct kernel_grid {
  CCTK_REAL dx = 0, dy = 0, dz = 0, dt = 0, time = 0;
  CCTK_REAL xmin = 0, ymin = 0, zmin = 0;           // coordinates of local point 0
  CCTK_REAL xorigin = 0, yorigin = 0, zorigin = 0;  // of global point 0: the domain's minimum
  CCTK_INT it = 0, ni = 0, nj = 0, nk = 0;
  // The arrays' rows and planes in memory (grid_layout::pitch, lead, plane_rows): point
  // (i, j, k) is element leadi + i + ashi * (j + ashj * k); ashi 0 (a grid made by hand) means
  // ni, ashj 0 means nj: no padding.
  CCTK_INT ashi = 0, leadi = 0, ashj = 0;
  CCTK_INT nghostsi = 0, nghostsj = 0, nghostsk = 0;
  CCTK_INT lbndi = 0, lbndj = 0, lbndk = 0;         // global index of local point 0
  CCTK_INT gni = 0, gnj = 0, gnk = 0;               // global points, Driver::global_nx ... (Cactus's cctk_gsh)
  bool physical[6] = {true, true, true, true, true, true};
};

/// Elements from one row of `grid`'s arrays to the next (kernel_grid::ashi, or ni where unset).
inline CCTK_INT row_pitch(const kernel_grid& grid) { return grid.ashi > 0 ? grid.ashi : grid.ni; }
/// Rows from one plane of `grid`'s arrays to the next (kernel_grid::ashj, or nj where unset).
inline CCTK_INT plane_rows(const kernel_grid& grid) { return grid.ashj > 0 ? grid.ashj : grid.nj; }

/// What autotuning may choose of a launch besides its variant: the tile (TILE's x points, y
/// rows and z planes), how many planes ahead of the one it computes a work-item loads, and how
/// many consecutive x points a work-item owns (the depth OpenCL's 3D templates, the lanes
/// OpenCL's and CUDA's; 0 where the template has no such choice).
struct launch_shape {
  std::array<int, 3> tile{};  // zeros: the descriptor's TILE
  int ahead = 0;              // 0: the template's own depth
  int lanes = 0;              // 0: the template's own x points a work-item

  // (C++17: nvcc compiles this header for the CUDA backend.)
  friend bool operator==(const launch_shape& a, const launch_shape& b) {
    return a.tile == b.tile && a.ahead == b.ahead && a.lanes == b.lanes;
  }
  friend bool operator!=(const launch_shape& a, const launch_shape& b) { return !(a == b); }
  friend bool operator<(const launch_shape& a, const launch_shape& b) {
    return a.tile != b.tile ? a.tile < b.tile : a.ahead != b.ahead ? a.ahead < b.ahead : a.lanes < b.lanes;
  }
};

/// One launch of a generated kernel. `arrays` holds one pointer per kernel variable in
/// descriptor order, then the second buffer of each separateinout variable in the same order;
/// `parameters` points to the owning thorn's generated `parameters` struct; `scalars` to the
/// current value of each grid scalar among the kernel's parameters (kernel_binding::scalars,
/// in that order: a CCTK_INT or a CCTK_REAL), which the launch copies into its params.
struct kernel_call {
  kernel_grid grid;
  void* const* arrays = nullptr;
  const void* parameters = nullptr;
  const void* const* scalars = nullptr;
  /// The queue the launch is enqueued on, returning before it runs: a cudaStream_t (CUDA), a
  /// cl_command_queue (OpenCL); null for OpenMP, which runs the kernel before returning.
  void* queue = nullptr;
  /// Where set, the kernel computes only the points of this box among those it would compute.
  std::optional<index_range> box;  // local indices: the interior while the halo is in flight, or a rim piece
  /// Autotuning (CaKernel::autotune): the shape to run instead of the template's own (see
  /// launch_shape). A launcher that chooses its shape at run time (the 3D templates: OpenMP's and
  /// OpenCL's all of it, CUDA's slab and lanes, its x and y being compiled in) makes it one that it and
  /// the device can run, and where `ran_shape` is set stores there the shape it runs, before it
  /// looks at the box: a call with an empty box asks without running anything. Launchers whose
  /// shape is compiled in (the boundary templates) ignore both, which tells the tuner so.
  launch_shape shape{};
  launch_shape* ran_shape = nullptr;
};
using kernel_launcher = void (*)(const kernel_call&);

/// Narrows [lo, hi) to `call.box` where the call has one; false when nothing is left. Every
/// backend's launcher applies it to the points it would compute without a box:
///   int lo[3] = {xn, yn, zn}, hi[3] = {ni - xp, nj - yp, nk - zp};
///   if (!opuntia::clip_to_box(call, lo, hi)) return;
inline bool clip_to_box(const kernel_call& call, int lo[3], int hi[3]) {
  bool points = true;
  for (int d = 0; d < 3; ++d) {
    if (call.box) {
      lo[d] = call.box->begin[d] > lo[d] ? call.box->begin[d] : lo[d];
      hi[d] = call.box->end[d] < hi[d] ? call.box->end[d] : hi[d];
    }
    points = points && lo[d] < hi[d];
  }
  return points;
}

/// Whether a call asks for a tile (kernel_call::shape) rather than the template's own.
inline bool asks_for_tile(const kernel_call& call) {
  return call.shape.tile[0] > 0 && call.shape.tile[1] > 0 && call.shape.tile[2] > 0;
}

/// The shape a launcher that chooses its shape at run time runs: `fit` (the launcher's rules) of
/// the call's tile, depth and lanes where it asks for them (kernel_call::shape), else of the
/// template's own (`own`: the descriptor's TILE, the template's depth and lanes); stored in
/// *call.ran_shape where the call asks. Called before the launcher looks at the call's box.
template <typename Fit>
launch_shape launch_shape_of(const kernel_call& call, const launch_shape& own, Fit&& fit) {
  const auto& asked = call.shape;
  const launch_shape shape = fit(launch_shape{asks_for_tile(call) ? asked.tile : own.tile,
                                              asked.ahead > 0 ? asked.ahead : own.ahead,
                                              asked.lanes > 0 ? asked.lanes : own.lanes});
  if (call.ran_shape != nullptr) *call.ran_shape = shape;
  return shape;
}

/// `tile` with each extent within [1, the grid's points along it]: a tile larger than the grid
/// runs as the grid's size, so that autotuning sees the two as one.
inline std::array<int, 3> tile_within_grid(std::array<int, 3> tile, const kernel_grid& grid) {
  const int extent[3] = {grid.ni, grid.nj, grid.nk};
  for (int d = 0; d < 3; ++d) {
    const int most = extent[d] > 1 ? extent[d] : 1;
    tile[d] = tile[d] < 1 ? 1 : tile[d] > most ? most : tile[d];
  }
  return tile;
}

/// The slab a boundary kernel updates on `face` (0..5: xn, xp, yn, yp, zn, zp) of `grid`: the
/// whole face, edges and corners included, `exterior` points deep (at least one), as [lo, hi).
/// False when `face` is not a physical boundary of this block. Shared by every backend's
/// boundary launcher. The slab is the same for every centering: along a cell-centred direction
/// its outermost point is a ghost cell on the upper face and the first interior cell on the
/// lower one (docs/writing-a-thorn.md, boundary kernels).
inline bool boundary_slab(const kernel_grid& grid, int face, int exterior, int lo[3], int hi[3]) {
  if (!grid.physical[face]) return false;
  const int size[3] = {grid.ni, grid.nj, grid.nk};
  const int axis = face / 2;
  const int width = exterior > 0 ? exterior : 1;
  for (int d = 0; d < 3; ++d) {
    lo[d] = 0;
    hi[d] = size[d];
  }
  if (face % 2 == 0) {
    hi[axis] = width < size[axis] ? width : size[axis];
  } else {
    lo[axis] = size[axis] > width ? size[axis] - width : 0;
  }
  return true;
}

/// One face's slab of a boundary launch: the face (0..5: xn, xp, yn, yp, zn, zp), the points
/// [lo, hi), and how many there are. Plain data: CUDA launchers pass it to their kernels.
struct boundary_slab_box {
  int face;
  int lo[3], hi[3];
  long long points;
};

/// The slabs one launch of a boundary kernel updates together, whose points lie apart: one
/// face's, the two opposite faces' of an axis, or every face's (for_each_boundary_pass).
struct boundary_pass {
  static constexpr int most = 6;
  boundary_slab_box slabs[most];
  int count;
  /// The points of its slabs together: one thread each.
  long long points() const {
    long long sum = 0;
    for (int s = 0; s < count; ++s) sum += slabs[s].points;
    return sum;
  }
};

/// The one loop of every backend's boundary launcher: `launch(pass)` for the slabs (boundary_slab,
/// `exterior[face]` deep, within `call.box` if the launch has one) of the faces that are physical
/// boundaries of `call.grid` and hold points, in the order xn, xp, yn, yp, zn, zp, so that edges
/// and corners keep the last face's values. Each launch saves the device a kernel's start and the
/// host a launch call (six launches of a few microseconds made a sixth of WaveToy's step at 256^3
/// on an H200, bench/RESULTS.md, 2026-11-27), so faces share one where the order allows:
/// - `faces_in_any_order` (opuntia-gen's, for a kernel with a STENCIL of 0 and no intent=inout
///   variable: a point's new values depend on nothing the kernel writes): one launch of every
///   face, each point in the slab of the last face that holds it, which is what the faces one
///   after the other leave there;
/// - otherwise the two faces of an axis form one pass where what each reads or writes (its slab
///   widened by the kernel's `stencil`, xn xp yn yp zn zp) lies apart from the other's slab so
///   widened: their points may then run in any order with the results of one face after the
///   other. Faces of different axes stay apart and in order.
template <typename Launch>
void for_each_boundary_pass(const kernel_call& call, const int (&exterior)[6], const int (&stencil)[6],
                            bool faces_in_any_order, Launch&& launch) {
  const auto add_slab = [&](boundary_pass& pass, int face, const int (&lo)[3], const int (&hi)[3]) {
    auto& slab = pass.slabs[pass.count];
    slab.face = face;
    for (int d = 0; d < 3; ++d) {
      slab.lo[d] = lo[d];
      slab.hi[d] = hi[d];
    }
    if (!clip_to_box(call, slab.lo, slab.hi)) return;
    slab.points = static_cast<long long>(slab.hi[0] - slab.lo[0]) * (slab.hi[1] - slab.lo[1]) * (slab.hi[2] - slab.lo[2]);
    ++pass.count;
  };
  if (faces_in_any_order) {
    int lo[6][3], hi[6][3];
    bool physical[6];
    for (int face = 0; face < 6; ++face) physical[face] = boundary_slab(call.grid, face, exterior[face], lo[face], hi[face]);
    boundary_pass pass{};
    for (int face = 0; face < 6; ++face) {
      if (!physical[face]) continue;
      // Less the points of the faces after it: a later face's slab spans the grid but along its
      // axis, so it takes an end of this slab along that axis off.
      int mine_lo[3] = {lo[face][0], lo[face][1], lo[face][2]}, mine_hi[3] = {hi[face][0], hi[face][1], hi[face][2]};
      for (int later = face + 1; later < 6; ++later) {
        if (!physical[later]) continue;
        const int axis = later / 2;
        if (later % 2 == 0) {
          mine_lo[axis] = std::max(mine_lo[axis], hi[later][axis]);
        } else {
          mine_hi[axis] = std::min(mine_hi[axis], lo[later][axis]);
        }
      }
      add_slab(pass, face, mine_lo, mine_hi);
    }
    if (pass.count > 0) launch(pass);
    return;
  }
  for (int axis = 0; axis < 3; ++axis) {
    boundary_pass pass{};
    for (int face = 2 * axis; face < 2 * axis + 2; ++face) {
      int lo[3], hi[3];
      if (boundary_slab(call.grid, face, exterior[face], lo, hi)) add_slab(pass, face, lo, hi);
    }
    if (pass.count == 2) {
      // Along the axis, the lower slab's reach upward and the upper one's downward must not meet.
      const int reach = stencil[2 * axis] + stencil[2 * axis + 1];
      const auto& lower = pass.slabs[0];
      const auto& upper = pass.slabs[1];
      if (lower.hi[axis] + reach > upper.lo[axis]) {
        launch(boundary_pass{{lower}, 1});
        launch(boundary_pass{{upper}, 1});
        continue;
      }
    }
    if (pass.count > 0) launch(pass);
  }
}

enum class parameter_type { integer, real, keyword, string, boolean };
enum class parameter_access { private_access, restricted_access, global_access, shared };

/// One line of a param.ccl range block.
struct range_binding {
  std::string spec;         // as written: "1:*", "(0:1]", "\"a\", \"b\""
  std::string description;
  // INT/REAL: the interpreted ends, as numbers (unbounded where absent)
  ccl::numeric_bounds bounds;
  // KEYWORD/STRING: the allowed words or regular expressions
  std::vector<std::string> words;
};

struct parameter_binding {
  std::string name;
  parameter_type type = parameter_type::integer;
  parameter_access access = parameter_access::private_access;
  std::string qualifier;     // "", "uses", "extends"
  std::string shared_from;   // implementation of the enclosing shares: section
  std::string array_size;    // empty unless an array parameter
  std::string default_value; // as written, unquoted
  std::string description;
  std::string alias;
  std::string steerable;     // never, always, recover (lower case); empty: never
  std::vector<range_binding> ranges;
  std::string origin;        // "path:line:column" of the declaration
};

/// A group of interface.ccl. `centering` says where its points sit along x, y and z
/// (CENTERING={vcc}): point i of a cell-centred direction lies half a step above vertex i, at
/// grid_layout::coordinate(d, i, centering[d]). Output and checkpoints are to record it with the
/// values, so that a reader places them; storage and SYNC are the same for every centering.
struct group_binding {
  std::string name;
  ccl::data_type data_type = ccl::data_type::cctk_real;
  ccl::group_type group_type = ccl::group_type::scalar;
  ccl::centerings centering = ccl::vertex_centred;
  std::string access;        // public, protected, private
  int dim = 3;
  std::string timelevels;    // a number or a parameter name
  std::string vector_size;
  std::vector<std::string> variables;
  std::vector<std::pair<std::string, std::string>> options;  // every option as written
  std::string description;
  std::string origin;
};

struct schedule_clause_binding {
  std::string key;           // LANG, SYNC, STORAGE, TRIGGERS, READS, WRITES, OPTIONS, TAGS, ...
  std::vector<std::string> items;
};

struct schedule_binding {
  enum class kind { item, storage, conditional };
  kind what = kind::item;
  // kind::item
  std::string name;
  bool is_group = false;
  std::string placement;     // at, in
  std::string target;        // bin or group
  std::string alias;
  std::vector<std::string> while_vars, until_vars, if_vars, before, after;
  std::vector<schedule_clause_binding> clauses;
  std::string description;
  // kind::storage
  std::vector<std::string> storage;
  // kind::conditional
  std::string condition;
  std::vector<schedule_binding> then_branch, else_branch;
  std::string origin;        // "path:line:column" (a deps.ccl place for template schedules)
};

struct kernel_variable_binding {
  std::string name;          // as the body names it (`phi_p` for a past time level)
  std::string group;
  ccl::kernel_intent intent = ccl::kernel_intent::in;
  bool cached = false;
  std::string grid_function; // the grid function (`phi` for `phi_p`)
  int timelevel = 0;         // 0: current, 1: previous, ...
};

/// A generated variant of a kernel: every backend's launcher template defines
/// `void opuntia::thorns::<Thorn>::CAKERNEL_Launch_<Kernel>_<backend>_<template>(const kernel_call&)`
/// and `extern const bool opuntia::thorns::<Thorn>::CAKERNEL_ReadsAlongAxesOnly_<Kernel>_<backend>_<template>`.
struct kernel_variant_binding {
  std::string backend;
  std::string template_name;
  kernel_launcher launch = nullptr;
  /// The body reads cached variables along the axes only (CaKernel's 3DSTENCIL), so that SYNC
  /// need not exchange the ghost zones' edges and corners for the kernel: the template's word.
  bool reads_along_axes_only = false;
};

/// A host routine of the thorn, named in schedule.ccl (`LANG: C`), defined in its src/.
struct routine_binding {
  std::string name;
  routine_function function = nullptr;
};

/// A kernel and the variants generated for it: one per backend and matching template.
struct kernel_binding {
  std::string name;
  std::string type_pattern;
  int stencil[6] = {1, 1, 1, 1, 1, 1};
  int tile[3] = {16, 16, 16};
  int exterior[6] = {0, 0, 0, 0, 0, 0};
  std::vector<kernel_variable_binding> variables;
  std::vector<std::string> parameters;  // of param.ccl
  std::vector<std::string> scalars;     // the grid scalars among its parameters, as `impl::name`
  std::vector<kernel_variant_binding> variants;
  std::string origin;
};

struct thorn_binding {
  std::string name;
  std::string implementation;
  std::vector<std::string> inherits;
  std::vector<std::string> friends;
  std::vector<parameter_binding> parameters;
  std::vector<group_binding> groups;
  std::vector<schedule_binding> schedule;
  std::vector<kernel_binding> kernels;
  std::vector<routine_binding> routines;
  /// The thorn's typed `parameters` struct, read from the registry, type-erased for the flesh.
  std::shared_ptr<const void> (*make_parameters)(const parameter_source& source) = nullptr;
};

}  // namespace opuntia
