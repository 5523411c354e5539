#pragma once
// The schedule tree: what runs when, built from the active thorns' schedule bindings, as
// Cactus builds it. Bins in Cactus order; groups nest; BEFORE/AFTER order siblings;
// `if (...)` blocks are decided once from parameters; WHILE/IF read integer scalars at run time.
//
//   auto tree = schedule_tree::build(active_bindings, registry);   // throws ccl::input_error
//   for (const auto& node : tree.bin("CCTK_EVOL")) ...
//   std::cout << tree.show();                                     // opuntia --show-schedule
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/diagnostic.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

/// Every bin, in the order a run first visits them (docs/SYNTAX.md, "schedule.ccl"); names without the
/// CCTK_ prefix. The tree only holds each bin's contents: the main loop decides when each bin runs
/// (RECOVER_* only when recovering; PRESTEP..ANALYSIS once per iteration, POSTSTEP and ANALYSIS also
/// once before the loop).
const std::vector<std::string>& schedule_bins();

/// A routine or a group in the tree.
struct schedule_node {
  enum class kind { routine, group };
  kind what = kind::routine;
  std::string name;          // as scheduled (the alias when AS is given)
  std::string function;      // routine: the function name (a routine_binding's or a kernel launch's)
  std::string kernel;        // routine: the kernel of its thorn it launches; empty for a host routine
  std::string thorn;         // the thorn that scheduled it
  std::string description;
  std::vector<std::string> while_vars;  // impl::scalar: repeat the group while non-zero
  std::vector<std::string> if_vars;     // impl::scalar: run only if non-zero
  std::vector<std::string> until_vars;  // impl::scalar: repeat the group until non-zero
  std::vector<std::string> sync;        // groups (qualified impl::group) exchanged after the routine
  std::vector<std::string> storage;     // groups whose storage the item turns on
  std::vector<std::string> triggers;
  std::vector<std::string> reads, writes;
  std::string lang;
  std::string origin;        // path:line:column of the schedule statement
  std::vector<schedule_node> children;  // group: its members in execution order
};

/// A node's `origin`, "path:line:column" (the path may itself hold colons), as a place for a
/// diagnostic; a text that is not one is a path without line.
ccl::source_location split_origin(const std::string& origin);

/// Decides `if (...)` conditions of schedule.ccl: the text inside the parentheses with the
/// thorn whose schedule it is. Supports CCTK_Equals/CCTK_EQUALS(param, "text"), parameter
/// names (the thorn's own or shared ones; BOOLEAN and INT are true when non-zero), integer and
/// real literals, strings, ! && || == != < <= > >= and parentheses. Errors name the place.
class condition_evaluator {
public:
  virtual ~condition_evaluator() = default;
  /// Value of parameter `name` as seen from `thorn`; nullopt when there is no such parameter.
  virtual std::optional<std::string> parameter_text(std::string_view thorn, std::string_view name) const = 0;
};

/// The name of the scheduled function that launches a kernel: the kernel runtime's rule
/// (CaKernel's CAKERNEL_Launch_<kernel>).
using kernel_launch_name = std::function<std::string(std::string_view kernel)>;

class schedule_tree {
public:
  /// Builds the tree. `thorns` are the active thorns' bindings. Errors (all collected), each at
  /// its schedule.ccl place: IN/AT an unknown bin or group (nearest names), a BEFORE/AFTER
  /// cycle (naming every member), a group scheduled twice, a malformed or unknown-parameter
  /// condition, a routine with no function (neither in routines nor a kernel launch: the
  /// function `launch_name` gives a kernel of its thorn; empty: no function launches a kernel).
  /// BEFORE/AFTER naming something not scheduled is ignored, as in Cactus. Siblings run in
  /// BEFORE/AFTER order, ties in registration order (`thorns` order, then statement order).
  /// A routine scheduled again in the same bin or group by the same thorn (a deps.ccl template
  /// repeating the thorn's own lines) runs once, where it was first scheduled.
  static schedule_tree build(const std::vector<const thorn_binding*>& thorns, const condition_evaluator& parameters,
                             const kernel_launch_name& launch_name = {});

  /// The top-level nodes of a bin ("STARTUP", "EVOL", ...; a CCTK_ prefix is accepted, any case).
  /// Throws std::out_of_range for a name that is no bin.
  const std::vector<schedule_node>& bin(std::string_view name) const;

  /// Calls `visit` for every node of every bin, each before its children.
  void for_each_node(const std::function<void(const schedule_node&)>& visit) const;

  /// Groups whose storage is on from the start: every STORAGE: statement taken (after if-blocks),
  /// qualified `impl::group`, without `[timelevels]`, in first-seen order. A schedule item's own
  /// STORAGE clause is in its node's `storage`.
  const std::vector<std::string>& storage() const { return storage_; }

  /// The tree as a run executes it, one line per node, indented by depth, with WHILE/IF/SYNC;
  /// non-empty bins only:
  ///   EVOL
  ///     group Update_Pressure_Iterator  while impl::psolver_step
  ///       Solve_Pressure     [Thorn]  sync impl::pressure
  std::string show() const;

private:
  std::vector<std::pair<std::string, std::vector<schedule_node>>> bins_;
  std::vector<std::string> storage_;
};

}  // namespace opuntia
