// IO::out_digest_vars: a digest of grid functions at the end of a run, the same on any number
// of ranks (routine_context::digest), so that two runs can be compared bit for bit; and the
// check, before the run, of the variables that it and IO::out_norms_vars (norms.cpp) name.
#include <vector>

#include <fmt/format.h>

#include "IO_parameters.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::IO {

void IO_CheckOutputVars(routine_context& context) {
  // An unknown name, an integer, a SCALAR: a diagnostic at the parameter's line, with the
  // reason, for every such name of both parameters.
  std::vector<parameter_value_error> errors;
  for (const char* parameter : {"out_digest_vars", "out_norms_vars"}) {
    parameter_value_errors::collect(errors, [&] { context.checked_grid_functions("IO", parameter); });
  }
  parameter_value_errors::throw_if_any(std::move(errors));
}

void IO_PrintDigests(routine_context& context) {
  for (const auto& name : context.grid_functions_named(context.parameters<parameters>().out_digest_vars.get())) {
    context.info(fmt::format("digest of {} at iteration {}: {:016x}", name, context.iteration(), context.digest(name)));
  }
}

}  // namespace opuntia::thorns::IO
