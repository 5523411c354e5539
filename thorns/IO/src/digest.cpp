// IO::out_digest_vars: a digest of grid functions at the end of a run, the same on any number
// of ranks (routine_context::digest), so that two runs can be compared bit for bit; and the
// check, before the run, of the variables that it and IO::out_norms_vars (norms.cpp) name.
#include <string>
#include <utility>

#include <fmt/format.h>

#include "IO_parameters.hpp"
#include "opuntia/routine_context.hpp"
#include "output_variables.hpp"

namespace opuntia::thorns::IO {

void IO_CheckOutputVars(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  for (const auto& [parameter, list] :
       {std::pair{"out_digest_vars", &p.out_digest_vars}, std::pair{"out_norms_vars", &p.out_norms_vars}}) {
    // statistics() refuses what a digest or norm cannot be taken of, with the reason: an unknown
    // name, an integer or a SCALAR (whose one value has no grid to be summed over).
    check_names("IO", parameter, *list, [&](const std::string& name) { context.statistics(name); });
  }
}

void IO_PrintDigests(routine_context& context) {
  for (const auto& name : variable_names(context.parameters<parameters>().out_digest_vars)) {
    context.info(fmt::format("digest of {} at iteration {}: {:016x}", name, context.iteration(), context.digest(name)));
  }
}

}  // namespace opuntia::thorns::IO
