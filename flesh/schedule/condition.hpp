#pragma once
// The value of a schedule.ccl `if (...)` condition, decided once from parameter values.
//
//   auto outcome = detail::evaluate_condition("CCTK_Equals(initial_data, \"ldc\")", "LDC", values, names);
//   if (!outcome.error.empty()) ... else if (outcome.value) ...
#include <string>
#include <string_view>
#include <vector>

#include "flesh/schedule/schedule_tree.hpp"

namespace opuntia::detail {

/// Either the condition's value, or (error non-empty) why it has none.
struct condition_outcome {
  bool value = false;
  std::string error;  // "in condition (TEXT) at character N: what is wrong"
};

/// Evaluates `text` (the inside of `if (...)`) for `thorn`; `known_parameters` (the thorn's own)
/// only feed "did you mean" suggestions for unknown names.
condition_outcome evaluate_condition(std::string_view text, std::string_view thorn,
                                     const condition_evaluator& parameters,
                                     const std::vector<std::string>& known_parameters);

}  // namespace opuntia::detail
