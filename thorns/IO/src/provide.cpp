// Thorn IO names the run's output folder (IO::out_dir) and Cactus's checkpoint parameters, which
// the flesh honours through the active thorn that provides checkpoints (IOHDF5).
#include "flesh/runtime/providers.hpp"

namespace opuntia::thorns::IO {

void provide(providers& p) {
  p.always_active();
  p.add_output_folder({{"IO", "out_dir"},
                       {{"IO", "checkpoint_every"},
                        {"IO", "checkpoint_keep"},
                        {"IO", "checkpoint_on_terminate"},
                        {"IO", "recover"},
                        {"IO", "recover_file"},
                        {"IO", "checkpoint_in_background"}}});
}

}  // namespace opuntia::thorns::IO
