#pragma once
// How the ranks of a run write grid functions into one HDF5 file, for the output steps
// (output_step.hpp) and the checkpoints (checkpoint_file.hpp) alike: each rank's owned points
// of its local array go to their place in a dataset of the global array, C order [z][y][x],
// either every rank its own hyperslab (collective MPI-IO with a parallel library, or a run of one
// rank), or through rank 0, which alone holds the file and writes what the others send it. A
// rank reads its owned points back on its own (a checkpoint, read by any number of ranks).
#include <hdf5.h>

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "hdf5_handle.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::IOHDF5 {

/// How the ranks of a run write.
enum class write_mode {
  one_rank,       // a run of one rank writes its array
  collective,     // every rank its owned points, collective MPI-IO (a parallel library)
  through_rank0,  // every rank sends its points to rank 0, which writes them all
};

/// Whether collective writes are possible for a run of `ranks` ranks: a parallel HDF5 library
/// and ranks that are MPI_COMM_WORLD.
bool collective_writes_possible(int ranks);
/// Whether the HDF5 library of the build is the parallel one (MPI-IO).
bool parallel_library();
/// "HDF5 1.10.8 (parallel)".
std::string library_description();

/// How the ranks of the run of `context` write: one rank alone; collectively where possible and
/// IOHDF5::collective_io allows; otherwise through rank 0.
write_mode write_mode_of(const routine_context& context);
/// Whether this rank holds the file in `mode` (every rank but in through_rank0, where rank 0 only).
bool holds_file(write_mode mode, const routine_context& ranks);
/// The file access and transfer properties of `mode` (MPI-IO, collective transfers, for collective).
struct write_properties {
  property_handle access;
  property_handle transfer;
};
write_properties properties_for(write_mode mode);

/// The name a file has while it is written: `.phi.h5.tmp` beside `phi.h5`.
std::filesystem::path temporary_of(const std::filesystem::path& file);

/// "WAVETOY::phi it=8 tl=0": Cactus's name of time level `level` of `implementation::variable`.
std::string dataset_name(std::string_view implementation, std::string_view variable, int iteration, int level);

std::size_t element_size(opuntia::data_type t);
hid_t memory_type(opuntia::data_type t);
hid_t file_type(opuntia::data_type t);

template <typename T>
void write_attribute(hid_t object, const char* name, hid_t type, const T* values, hsize_t count) {
  dataspace_handle space{count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), "H5Screate"};
  attribute_handle attribute{H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT),
                             std::string("creating attribute ") + name};
  checked(H5Awrite(attribute, type, values), std::string("writing attribute ") + name);
}
void write_text_attribute(hid_t object, const char* name, const std::string& text);

/// What a reader needs to place a grid function's values: the attributes of every dataset of a
/// grid function, in output and checkpoints alike.
struct grid_attributes {
  double time = 0;
  int iteration = 0;
  std::array<double, 3> origin{};  // x, y, z of the variable's own first point
  std::array<double, 3> delta{};
  std::string centering;  // "vvv", "ccc", ... (interface.ccl's CENTERING)
};
/// `centering` and the grid give the origin and the letters.
grid_attributes attributes_of(const grid_layout& grid, const centerings& centering, double time, int iteration);
void write_grid_attributes(hid_t dataset, const grid_attributes& a);

/// A dataset of the global array of `extent` points along x, y, z, in `file` (every rank that
/// holds it creates it, with the same arguments).
dataset_handle create_grid_dataset(hid_t file, const std::string& name, opuntia::data_type type,
                                   const std::array<int, 3>& extent, std::string_view what);

/// Writes every rank's owned points of its local array `values` (its block `grid`, of `type`)
/// into `dataset`, open where holds_file(); every rank calls it, in the same order. Failures
/// throw hdf5_error "`what`: reason".
void write_owned_points(hid_t dataset, opuntia::data_type type, const void* values, const grid_layout& grid,
                        routine_context& ranks, write_mode mode, hid_t transfer, std::string_view what);
/// The converse, for one rank on its own: reads its owned points of `dataset` (the global array)
/// into its local array `values`, leaving its ghost zones as they are.
void read_owned_points(hid_t dataset, opuntia::data_type type, void* values, const grid_layout& grid,
                       std::string_view what);
/// Writes `values` (in `type`, the whole dataset) as rank 0 has them into `dataset`, open where
/// holds_file(); every rank calls it.
void write_from_rank0(hid_t dataset, hid_t type, const void* values, routine_context& ranks, write_mode mode,
                      hid_t transfer, std::string_view what);

}  // namespace opuntia::thorns::IOHDF5
