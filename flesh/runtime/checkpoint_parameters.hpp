#pragma once
// The parameters a checkpoint records, and what a recovering run may not change of them. As in
// Cactus, a parameter may take another value on recovery only where its param.ccl declaration
// says STEERABLE=recover or STEERABLE=always (the output, the backend, the number of ranks and
// when to stop, here); any other change (the grid, the domain, the ghost zones, periodicity,
// the time step, the physics) would make the recovered run another run. The active thorns may
// not change either.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flesh/parameters/parameter_registry.hpp"

namespace opuntia {

/// The record: `ActiveThorns = "Cactus Driver ..."`, then one line per value of every parameter
/// of the active thorns, `Thorn::name = value` (`Thorn::name[2] = value` for an array element),
/// values as parameter_text() writes them with `\` and line ends escaped (`\\`, `\n`).
std::string recorded_parameters(const parameter_registry& registry);

/// What a recovering run has that the checkpoint's record does not allow.
struct recovery_conflicts {
  std::vector<std::string> thorns_active_here_only, thorns_active_there_only;
  struct change {
    std::string thorn, name;
    int index = -1;            // an array parameter's element; -1: none
    std::string recorded, now;  // the values, as parameter_text() writes them
  };
  /// Parameters without STEERABLE=recover or always whose value differs from the record's, in
  /// registration order. Parameters one side does not know (another build's) are not compared.
  std::vector<change> changed;
  bool empty() const { return thorns_active_here_only.empty() && thorns_active_there_only.empty() && changed.empty(); }
};

/// Compares the run's parameters with a checkpoint's record (recorded_parameters()); a record
/// that is not one throws std::runtime_error naming its line.
recovery_conflicts conflicts_on_recovery(const parameter_registry& now, std::string_view record);

}  // namespace opuntia
