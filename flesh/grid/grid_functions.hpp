#pragma once
// Grid-function storage: every variable of every active thorn's groups, with its time levels.
// Storage is allocated on demand (STORAGE: statements), 64-byte aligned and first-touched by
// the same OpenMP threads and static schedule as the kernels' loops, so pages land near the
// cores that use them.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

/// One aligned, first-touched array of `count` elements of `element_size` bytes; `number` tells
/// it from the other buffers of its variable, and goes with it when levels rotate or swap.
class field_buffer {
public:
  field_buffer() = default;
  field_buffer(std::size_t count, std::size_t element_size, int number = 0);
  void* data() const { return data_.get(); }
  std::size_t bytes() const { return bytes_; }
  int number() const { return number_; }
  explicit operator bool() const { return data_ != nullptr; }

private:
  struct free_aligned {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, free_aligned> data_;
  std::size_t bytes_ = 0;
  int number_ = 0;
};

/// One buffer of one variable, for the whole run: the variable's id and the buffer's number
/// (time level n's buffer is number n when storage is turned on, the scratch buffer's is the
/// number of levels). Time levels rotate over buffers; a device copy and its validity belong to
/// the buffer, so they follow it with no copy.
struct buffer_key {
  std::size_t variable = 0;
  int buffer = 0;
  // Written out rather than defaulted with <=>: CUDA translation units include this as C++17.
  friend bool operator<(const buffer_key& a, const buffer_key& b) {
    return a.variable != b.variable ? a.variable < b.variable : a.buffer < b.buffer;
  }
  friend bool operator==(const buffer_key& a, const buffer_key& b) {
    return a.variable == b.variable && a.buffer == b.buffer;
  }
};

struct grid_variable {
  std::size_t id = 0;      // its place in the store: the same for the whole run
  std::string name;
  std::string group;
  std::string thorn;
  std::string implementation;
  opuntia::data_type data_type = opuntia::data_type::cctk_real;  // CCTK_REAL or CCTK_INT
  opuntia::group_type group_type = opuntia::group_type::gf;
  centerings centering = ccl::vertex_centred;  // where its points sit: grid_layout::coordinate
  int timelevels = 1;
  std::size_t count = 0;   // points (1 for a scalar)
  std::vector<field_buffer> levels;  // empty while storage is off
  field_buffer scratch;    // the second buffer of a separateinout kernel variable, made on demand

  std::size_t element_size() const { return data_type == opuntia::data_type::cctk_int ? sizeof(CCTK_INT) : sizeof(CCTK_REAL); }
};

/// The arrays a run will hold in one memory (the host's, or a device's), counted before any is
/// allocated so that a run too large for the machine is refused with the figures.
class memory_need {
public:
  /// `levels` time levels of `v`, and its scratch buffer (separateinout) when `scratch`.
  void add(const grid_variable& v, int levels, bool scratch);
  double bytes() const { return bytes_; }
  /// The largest single array, in bytes (for devices that limit one allocation).
  double largest_array() const { return largest_; }
  bool empty() const { return variables_ == 0; }
  /// "5 variables x 2 time levels and 1 scratch buffer", "3 variables with 7 time levels in all".
  std::string arrays() const;

private:
  std::size_t variables_ = 0, levels_ = 0, scratch_ = 0;
  int levels_each_ = -1;  // the time levels every variable has; 0 once they differ
  double bytes_ = 0, largest_ = 0;
};

/// "12.3 GiB", "512.0 KiB", "100 bytes".
std::string byte_text(double bytes);

class grid_function_store {
public:
  /// Declares every group of `thorn` (storage still off) on `layout`.
  void add_thorn(const thorn_binding& thorn, const grid_layout& layout);
  /// The variables of `group` (`group`, `group[n]` or `impl::group`) as seen from `thorn`; empty
  /// when there is no such group.
  std::vector<grid_variable*> group(std::string_view thorn, std::string_view group_text);
  /// Turns storage on for `group` (`group`, `group[n]` or `impl::group`) as seen from `thorn`.
  /// Unknown groups: std::invalid_argument naming the nearest.
  void enable_storage(std::string_view thorn, std::string_view group);

  /// `var` or `impl::var` as seen from `thorn` (its own variables, then the inherited and any
  /// qualified one). Throws std::invalid_argument with the nearest names when there is none.
  grid_variable& find(std::string_view thorn, std::string_view var);
  grid_variable* try_find(std::string_view thorn, std::string_view var);
  /// What one name of an output parameter names (Cactus's CCTK_TraverseString): the variable
  /// `var` or `impl::var` as find() sees it, else every variable of the group `group` or
  /// `impl::group` as group() does. Throws std::invalid_argument with the nearest variable and
  /// group names when it is neither.
  std::vector<grid_variable*> variables_named(std::string_view thorn, std::string_view name);
  std::vector<grid_variable>& variables() { return variables_; }
  /// The variables `thorn` sees: its own, then those of the implementations it inherits or is a
  /// friend of, each in declaration order.
  std::vector<const grid_variable*> visible_to(std::string_view thorn) const;

  /// Time level `level` of `v`; throws when storage is off or the level does not exist.
  void* data(grid_variable& v, int level = 0);
  /// The second buffer of `v` (allocated on first use as a copy of level 0).
  void* scratch(grid_variable& v);
  /// The buffer that holds time level `level` of `v` now (throws as data() does).
  buffer_key key(grid_variable& v, int level = 0);
  /// The buffer scratch() returns (allocating it as scratch() does).
  buffer_key scratch_key(grid_variable& v);
  /// After a separateinout launch: the second buffer becomes level 0 and level 0 the second buffer.
  void swap_with_scratch(grid_variable& v);
  /// Start of an iteration: level n-1 <- ... <- level 0, the oldest buffer reused as level 0
  /// (its values are stale until a kernel or routine writes them).
  void rotate_timelevels();

private:
  /// Whether `v` belongs to an implementation `thorn` sees (its own, inherited or a friend).
  bool sees(std::string_view thorn, const grid_variable& v) const;
  /// "; did you mean ..." for `name`, unknown to `thorn`: the variables' (`variables`) and groups'
  /// (`groups`) names nearest to it, qualified where `name` is or where `thorn` does not see them.
  std::string suggestions(std::string_view thorn, std::string_view name, bool variables, bool groups);

  std::vector<grid_variable> variables_;
  // Lower-cased name -> the indices in variables_ of the variables of that name, in order:
  // try_find() runs for every routine's scalars and every WHILE condition, and a scan of every
  // variable's name, case aside, was 4% of a CPU run of the 2D cavity.
  std::unordered_map<std::string, std::vector<std::size_t>> by_name_;
  std::vector<std::pair<std::string, std::vector<std::string>>> thorn_scope_;  // thorn -> implementations it sees
};

}  // namespace opuntia
