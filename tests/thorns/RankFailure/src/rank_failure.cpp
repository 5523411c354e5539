// A routine that fails on one rank only, while the others go on to wait for its halos: the run
// must end on every rank, with the message and the rank that failed (program/main.cpp).
#include <stdexcept>

#include <fmt/format.h>

#include "RankFailure_parameters.hpp"
#include "opuntia/parameter_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::RankFailure {

void RankFailure_Fail(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  const int failing = p.fail_on_rank;
  if (context.rank() != failing) return;
  if (p.failure == "parameter") {
    throw parameter_value_error("RankFailure", "fail_on_rank",
                                fmt::format("RankFailure::fail_on_rank = {}: this rank refuses it", failing));
  }
  throw std::runtime_error(fmt::format("RankFailure_Fail: rank {} fails at iteration {}", context.rank(),
                                       context.iteration()));
}

}  // namespace opuntia::thorns::RankFailure
