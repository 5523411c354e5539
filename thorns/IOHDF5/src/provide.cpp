// IOHDF5 writes and reads the run's checkpoints (IO::checkpoint_every, IO::recover, ...), as
// Cactus's IOHDF5 does for IOUtil's parameters: the flesh says when and hands it every array.
#include "checkpoint_file.hpp"
#include "flesh/runtime/providers.hpp"

namespace opuntia::thorns::IOHDF5 {

void provide(providers& p) {
  p.add_checkpoints({".h5",
                     [](const std::filesystem::path& file, const checkpoint_contents& contents, routine_context& ranks) {
                       write_checkpoint(file, contents, ranks, write_mode_of(ranks));
                     },
                     &read_checkpoint_header, &read_checkpoint,
                     // Every HDF5 call of the process holds one mutex (hdf5_handle.hpp).
                     true});
}

}  // namespace opuntia::thorns::IOHDF5
