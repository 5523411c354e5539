// The host side of tests/thorns/TimeStepCheck: the routine of the bin TimeStepCheck::set_at sets
// the time step, and each launch of kernel SeeDt is checked to have seen it.
#include <limits>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "TimeStepCheck_parameters.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::TimeStepCheck {
namespace {

void set_at(routine_context& context, std::string_view bin) {
  const auto& p = context.parameters<parameters>();
  if (p.set_at.get() != bin) return;
  context.set_dt(p.infinite ? std::numeric_limits<double>::infinity() : static_cast<double>(p.dt));
}

}  // namespace

void TimeStepCheck_SetAtBasegrid(routine_context& context) {
  context.integer_scalar("launches") = 0;
  set_at(context, "basegrid");
}
void TimeStepCheck_SetAtPostinitial(routine_context& context) { set_at(context, "postinitial"); }
void TimeStepCheck_SetAtCpinitial(routine_context& context) { set_at(context, "cpinitial"); }
void TimeStepCheck_SetAtPostRecoverVariables(routine_context& context) { set_at(context, "post_recover_variables"); }
void TimeStepCheck_SetAtEvol(routine_context& context) { set_at(context, "evol"); }

void TimeStepCheck_Compare(routine_context& context) {
  const auto dt = static_cast<CCTK_REAL>(context.dt());
  const auto seen = context.read("dt_seen");
  const auto& g = context.grid();
  opuntia::index_range{{0, 0, 0}, g.local}.for_each([&](int i, int j, int k) {
    if (seen[g.index(i, j, k)] != dt) {
      throw std::runtime_error(fmt::format("iteration {}: at point ({}, {}, {}) the kernel saw params.cagh_dt = {}, "
                                           "but context.dt() = {}", context.iteration(), i, j, k, seen[g.index(i, j, k)], dt));
    }
  });
  ++context.integer_scalar("launches");
}

void TimeStepCheck_Report(routine_context& context) {
  context.info(fmt::format("iteration {}, time {:g}, dt {:g}; {} launches of SeeDt saw that dt", context.iteration(),
                           context.time(), context.dt(), context.integer_scalar("launches")));
}

}  // namespace opuntia::thorns::TimeStepCheck
