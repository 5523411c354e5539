#pragma once
// What the flesh hands a checkpoint writer and asks a checkpoint reader for (the thorn that
// provides checkpoints implements both: providers.hpp's checkpoint_provider).
#include <array>
#include <string>
#include <vector>

#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"

namespace opuntia {

/// One time level of one variable. A grid function is this rank's local array, ghost zones
/// included: its owned points are the part of the global array it writes or reads, so that a
/// checkpoint is the same whatever the number of ranks. A grid scalar (or a one-value ARRAY) is
/// one value, the same on every rank: rank 0's is written, every rank reads it.
struct checkpoint_array {
  std::string implementation;  // "wavetoy"
  std::string name;            // "phi"
  int level = 0;               // the time level
  opuntia::data_type type = opuntia::data_type::cctk_real;  // CCTK_REAL or CCTK_INT
  bool grid_function = true;
  centerings centering = ccl::vertex_centred;
  void* values = nullptr;
};

/// The state of the run beyond its arrays.
struct checkpoint_header {
  int iteration = 0;
  double time = 0;
  double dt = 0;
  int ranks = 1;           // the ranks that wrote it (for the record: any number may read it)
  std::string parameters;  // recorded_parameters() (checkpoint_parameters.hpp)
};

struct checkpoint_contents {
  checkpoint_header header;
  grid_layout grid;            // this rank's block
  std::array<int, 3> extent{};  // the global array: the points the ranks own together along x, y, z
  std::vector<checkpoint_array> arrays;
};

}  // namespace opuntia
