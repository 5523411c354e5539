// NaNChecker (Cactus's): the grid functions NaNChecker::check_vars names, reduced where their
// data is (routine_context::statistics: on the device when the kernels left it there, so that a
// few hundred bytes leave it, not the arrays), every check_every iterations. A NaN or an infinity
// is reported with the first such point in global index order (the same on any number of ranks
// and on every backend) and the count; action_if_found then warns, ends the run after this
// iteration, or stops it at once.
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "NaNChecker_parameters.hpp"
#include "opuntia/collective_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::NaNChecker {
namespace {

/// "1 point", "7 points".
std::string points(std::uint64_t n) { return fmt::format("{} point{}", n, n == 1 ? "" : "s"); }

/// "heatequation::u at iteration 3: 7 points are NaN or infinite (7 NaN, 0 infinite); the first
/// is global point (4, 4, 3) at x = 0.5, y = 0.5, z = 0.375 (centering vvv) on rank 1"
std::string report(routine_context& context, const std::string& var, const routine_context::field_statistics& s) {
  const auto& first = *s.first_non_finite;
  const auto& g = context.grid();
  const auto c = context.centering(var);
  const auto at = [&](int d) { return g.global_coordinate(d, first.index[d], c[d]); };
  const std::uint64_t found = s.nans + s.infinities;
  return fmt::format(
      "{} at iteration {}: {} {} NaN or infinite ({} NaN, {} infinite); the first is global point ({}, {}, {}) at "
      "x = {}, y = {}, z = {} (centering {}{}{}) on rank {}",
      var, context.iteration(), points(found), found == 1 ? "is" : "are", s.nans, s.infinities, first.index[0],
      first.index[1], first.index[2], at(0), at(1), at(2), ccl::name_of(c[0]), ccl::name_of(c[1]), ccl::name_of(c[2]),
      first.rank);
}

}  // namespace

void NaNChecker_CheckVars(routine_context& context) {
  context.checked_grid_functions("NaNChecker", "check_vars");
  // Half a setting checks nothing, which the user who set it would not guess (Cactus's defaults
  // are these: check_every 0, check_vars empty).
  const auto& p = context.parameters<parameters>();
  if (!p.check_vars.get().empty() && p.check_every == 0) {
    context.warn_about({"check_vars", "check_every"}, "NaNChecker::check_vars is set, but NaNChecker::check_every = 0 "
                                                      "checks never: set check_every to check");
  } else if (p.check_vars.get().empty() && p.check_every > 0) {
    context.warn_about({"check_every", "check_vars"},
                       fmt::format("NaNChecker::check_every = {} but NaNChecker::check_vars is empty: nothing is "
                                   "checked; name the grid functions, or \"all\"",
                                   static_cast<long long>(p.check_every)));
  }
}

void NaNChecker_NaNCheck(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  const int iteration = context.iteration();
  if (p.check_every == 0 || iteration % p.check_every != 0 || iteration < p.check_after) return;
  // The settings of every check, read whether it finds anything or not: a run that sets them
  // and finds nothing used them too (--parameter-level strict must not call them never read).
  const std::string& counted = p.check_for;  // "both", its one value: NaN and infinities alike
  const std::string& action = p.action_if_found;
  for (const auto& var : context.grid_functions_named(p.check_vars.get())) {
    const auto s = context.statistics(var);  // every rank, in the same order
    const std::uint64_t found = counted == "both" ? s.nans + s.infinities : 0;
    if (found == 0) continue;
    const auto message = report(context, var, s);
    // Every rank found the same: each stops, and rank 0 says so once (program/main.cpp).
    if (action == "abort") throw collective_error("NaNChecker: " + message);
    context.warn(message);
    if (action == "terminate") {
      context.terminate_next(
          fmt::format("{} is NaN or infinite at {} (NaNChecker::action_if_found = \"terminate\")", var, points(found)),
          true);
    }
  }
}

}  // namespace opuntia::thorns::NaNChecker
