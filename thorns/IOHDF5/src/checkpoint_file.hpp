#pragma once
// A checkpoint as an HDF5 file: attributes `checkpoint_format` (1), `iteration`, `time`, `dt`
// and `ranks` on the root group; the dataset `parameters`, a string (the flesh's record,
// flesh/runtime/checkpoint_parameters.hpp); and one dataset per time level of each variable,
// named as Cactus names them, "WAVETOY::phi it=8 tl=1": a grid function as the global array
// without ghost zones, C order [z][y][x], with the attributes of an output step (time,
// iteration, origin, delta, centering); a grid scalar as a scalar dataset. Each of these datasets
// and `parameters` carries a `checksum` attribute (a 64-bit digest of what was written, the
// same however many ranks wrote or read it: owned_points_digest in opuntia/grid.hpp), which
// reading checks.
#include <filesystem>

#include "flesh/runtime/checkpoint_data.hpp"
#include "opuntia/routine_context.hpp"
#include "ranks_write.hpp"

namespace opuntia::thorns::IOHDF5 {

/// Writes `contents` to `file` under its temporary name (temporary_of()), flushes it to the disk
/// (H5Fflush, then fsync of the file), renames it to `file` and syncs the folder: `file` exists
/// only complete. A failure removes the temporary and throws hdf5_error naming `file`. Every
/// rank calls it. The environment variable OPUNTIA_TEST_CHECKPOINT_DELAY_MS, for tests only,
/// makes it wait that long between writing the arrays and completing the file, so that a test
/// can kill a run in the middle of a checkpoint.
void write_checkpoint(const std::filesystem::path& file, const checkpoint_contents& contents, routine_context& ranks,
                      write_mode mode);

/// The header of checkpoint `file`; hdf5_error with the reason where it cannot be read, is no
/// checkpoint, or its record of the parameters does not match its checksum.
checkpoint_header read_checkpoint_header(const std::filesystem::path& file);

/// Reads every array of `into` from `file`: each rank its owned points of every grid function,
/// every scalar. hdf5_error naming a dataset that is missing, of another type or size;
/// collective_error (alike on every rank) naming one whose values do not match its checksum (the
/// file damaged since it was written). Every rank calls it, `ranks` their routine_context (the
/// ranks add up their parts of a grid function's checksum).
void read_checkpoint(const std::filesystem::path& file, checkpoint_contents& into, routine_context& ranks);

}  // namespace opuntia::thorns::IOHDF5
