// IO::out_digest_vars: a digest of grid functions at the end of a run, the same on any number
// of ranks (routine_context::digest), so that two runs can be compared bit for bit.
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "IO_parameters.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::IO {

namespace {
std::vector<std::string> digest_variables(const routine_context& context) {
  std::istringstream names(context.parameters<parameters>().out_digest_vars);
  std::vector<std::string> out;
  for (std::string name; names >> name;) out.push_back(name);
  return out;
}
}  // namespace

void IO_CheckDigestVars(routine_context& context) {
  for (const auto& name : digest_variables(context)) {
    try {
      context.read(name);
    } catch (const std::invalid_argument& e) {
      throw parameter_value_error("IO", "out_digest_vars", fmt::format("IO::out_digest_vars: {}", e.what()));
    }
  }
}

void IO_PrintDigests(routine_context& context) {
  for (const auto& name : digest_variables(context)) {
    context.info(fmt::format("digest of {} at iteration {}: {:016x}", name, context.iteration(), context.digest(name)));
  }
}

}  // namespace opuntia::thorns::IO
