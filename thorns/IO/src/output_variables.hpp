#pragma once
// The grid functions an output parameter names (IO::out_digest_vars, IO::out_norms_vars,
// IOHDF5::out_vars, IOASCII::out1D_vars): blank-separated `impl::var` or `impl::group` or all, checked
// before the run (at CCTK_BASEGRID), so that a typo is an error at the parameter's line with the
// nearest names, not a failure after an hour of computing.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ccl/model/common.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::IO {

/// The grid functions `list` (the value of `owner::parameter`) names, each variable of a group
/// in turn and each variable once: GF groups with storage, CCTK_REAL or CCTK_INT. Files are
/// named after the variables, so two of the same name in different implementations are refused
/// too; every refusal is a parameter_value_error at its word (opuntia::check_each_word).
inline std::vector<variable_description> output_variables(const routine_context& context, std::string_view owner,
                                                           std::string_view parameter, const std::string& list) {
  std::vector<variable_description> out;
  check_each_word(owner, parameter, list, [&](const std::string& name) {
    // "all", as in Cactus: every CCTK_REAL grid function with storage (those of the other words
    // are checked as named).
    std::vector<variable_description> named;
    if (ccl::iequals(name, "all")) {
      for (const auto& each : context.grid_functions_named("all")) {
        for (auto& v : context.variables_named(each)) named.push_back(std::move(v));
      }
    } else {
      named = context.variables_named(name);
    }
    for (auto& v : named) {
      if (v.group_type != group_type::gf) {
        throw std::invalid_argument(fmt::format("{}::{} is in a group of type {}: only grid functions (GF) are written",
                                                v.implementation, v.name, ccl::name_of(v.group_type)));
      }
      if (!v.has_storage) {
        throw std::invalid_argument(fmt::format("{}::{} has no storage: add 'STORAGE: {}' to its thorn's schedule.ccl",
                                                v.implementation, v.name, v.group));
      }
      const auto same_name = std::find_if(out.begin(), out.end(), [&](const auto& o) { return ccl::iequals(o.name, v.name); });
      if (same_name == out.end()) {
        out.push_back(std::move(v));
      } else if (!ccl::iequals(same_name->implementation, v.implementation)) {
        throw std::invalid_argument(fmt::format("{}::{} and {}::{} would both be written to files named {}",
                                                same_name->implementation, same_name->name, v.implementation, v.name,
                                                v.name));
      }
    }
  });
  return out;
}

/// The output period an output thorn's `out_every` parameter gives (IOHDF5::out_every,
/// IOASCII::out1D_every): itself, or IO::out_every where it is -1, as in Cactus; 0: never.
inline int output_every(const routine_context& context, int every) {
  return every >= 0 ? every : static_cast<int>(context.all_parameters().integer("IO", "out_every"));
}

/// Warns, before the run, where `owner::vars` names variables that are never written: its
/// period `owner::every_name` (= `every`) is 0, or -1 and IO::out_every 0 (IO::out_every's
/// default): a list of variables asked for nothing in silence.
inline void warn_if_never_written(routine_context& context, std::string_view owner, std::string_view vars,
                                  std::size_t variables, std::string_view every_name, int every) {
  if (variables == 0 || output_every(context, every) > 0) return;
  context.warn(every >= 0 ? fmt::format("{}::{} names {} variable{}, but {}::{} = 0: none is written", owner, vars,
                                        variables, variables == 1 ? "" : "s", owner, every_name)
                          : fmt::format("{}::{} names {} variable{}, but {}::{} = -1 takes IO::out_every, which is 0: "
                                        "none is written (set IO::out_every or {}::{})",
                                        owner, vars, variables, variables == 1 ? "" : "s", owner, every_name, owner,
                                        every_name));
}

/// Whether an output thorn writes at this iteration (every > 0 and the iteration a multiple).
inline bool writes_now(const routine_context& context, int every) {
  const int period = output_every(context, every);
  return period > 0 && context.iteration() % period == 0;
}

}  // namespace opuntia::thorns::IO
