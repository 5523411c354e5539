// IO::out_norms_vars: the norms of grid functions every IO::out_norms_every iterations, reduced
// where the data is (routine_context::statistics: on the device when the kernels left it there)
// and printed with every digit, so that runs on any number of ranks and backends compare as text.
#include <fmt/format.h>

#include "IO_parameters.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::IO {

void IO_PrintNorms(routine_context& context) {
  const auto& p = context.parameters<parameters>();
  if (context.iteration() % p.out_norms_every != 0) return;
  for (const auto& name : context.grid_functions_named(p.out_norms_vars.get())) {
    const auto s = context.statistics(name);
    context.info(
        fmt::format("{} at iteration {}: minimum {:.17g}, maximum {:.17g}, max |value| {:.17g}, sum {:.17g}, "
                    "rms {:.17g}",
                    name, context.iteration(), s.minimum, s.maximum, s.max_abs, s.sum, s.rms));
  }
}

}  // namespace opuntia::thorns::IO
