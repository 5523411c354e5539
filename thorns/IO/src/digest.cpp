// IO::out_digest_vars: a digest of grid functions at the end of a run, the same on any number
// of ranks (routine_context::digest), so that two runs can be compared bit for bit; and the
// check, before the run, of the variables that it and IO::out_norms_vars (norms.cpp) name.
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "IO_parameters.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"
#include "variable_names.hpp"

namespace opuntia::thorns::IO {

void IO_CheckOutputVars(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  for (const auto& [parameter, list] :
       {std::pair{"out_digest_vars", &p.out_digest_vars}, std::pair{"out_norms_vars", &p.out_norms_vars}}) {
    for (const auto& name : variable_names(*list)) {
      try {
        // Refuses what a digest or norm cannot be taken of, with the reason: an unknown name, an
        // integer or a SCALAR (whose one value has no grid to be summed over).
        context.statistics(name);
      } catch (const std::invalid_argument& e) {
        throw parameter_value_error("IO", parameter, fmt::format("IO::{}: {}", parameter, e.what()));
      }
    }
  }
}

void IO_PrintDigests(routine_context& context) {
  for (const auto& name : variable_names(context.parameters<parameters>().out_digest_vars)) {
    context.info(fmt::format("digest of {} at iteration {}: {:016x}", name, context.iteration(), context.digest(name)));
  }
}

}  // namespace opuntia::thorns::IO
