// Thorn IO names the run's output folder (IO::out_dir).
#include "flesh/runtime/providers.hpp"

namespace opuntia::thorns::IO {

void provide(providers& p) {
  p.always_active();
  p.add_output_folder({{"IO", "out_dir"}});
}

}  // namespace opuntia::thorns::IO
