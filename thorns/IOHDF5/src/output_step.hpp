#pragma once
// One output step of one grid function to its HDF5 file, <out_dir>/<var>.h5: the dataset
// "<IMPL>::<var> it=<iteration> tl=0" of the global array without ghost zones, C order
// [z][y][x], with Cactus's attributes. The ranks write their owned points together (collective
// MPI-IO, with a parallel HDF5 library), or send them to rank 0, which writes them all. The
// group "xdmf" holds a second name for each dataset, for the XDMF files (xdmf_link()).
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "opuntia/routine_context.hpp"
#include "ranks_write.hpp"

namespace opuntia::thorns::IOHDF5 {

/// The second name of the dataset of iteration `iteration`, in the group "xdmf" of the file:
/// "xdmf/it=4". XDMF 2 readers (VisIt's, ParaView's "XDMF Reader") split a dataset's path at its
/// colons, so the XDMF files name the datasets by it.
std::string xdmf_link(int iteration);

struct output_step {
  std::filesystem::path file;  // <out_dir>/<var>.h5
  std::string dataset;         // "WAVETOY::phi it=4 tl=0"
  /// The run's first step: the file is made anew, under a temporary name renamed when complete.
  /// Later steps add their dataset to it; one that fails is taken out again.
  bool new_file = false;
  opuntia::data_type type = opuntia::data_type::cctk_real;
  const void* values = nullptr;  // this rank's local array (ghosts included), of `type`
  grid_layout grid;              // this rank's block
  std::array<int, 3> extent{};   // the points the ranks own together along x, y, z
  grid_attributes attributes;
};

/// Writes `step`; every rank calls it, in the same order. Throws hdf5_error naming the file
/// and the reason, with the file as it was before the step (a new file: none, nor a temporary).
void write_step(const output_step& step, routine_context& ranks, write_mode mode);

/// The datasets of `file` whose name begins with `prefix` followed by an iteration and " tl=0"
/// ("WAVETOY::phi it=" + "8 tl=0"), by iteration, with their "time" attribute: the series an
/// XDMF file describes.
struct series_entry {
  int iteration = 0;
  double time = 0;
  std::string dataset;
};
std::vector<series_entry> read_series(const std::filesystem::path& file, const std::string& prefix);

}  // namespace opuntia::thorns::IOHDF5
