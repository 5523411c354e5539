#pragma once
// The XDMF file of one HDF5 output series, <out_dir>/<var>.xmf: the text ParaView and VisIt read
// to open every iteration of <var>.h5 as a time series on its grid. A pure function of the
// series; the output routine writes it whole after each step (a temporary, then a rename).
#include <array>
#include <string>
#include <vector>

#include "opuntia/binding.hpp"
#include "output_step.hpp"

namespace opuntia::thorns::IOHDF5 {

struct xdmf_series {
  std::string variable;  // the attribute's name: "phi"
  std::string h5_file;   // the HDF5 file, beside the XDMF file: "phi.h5"
  opuntia::data_type type = opuntia::data_type::cctk_real;
  std::array<int, 3> points{};       // along x, y, z
  std::array<double, 3> origin{};    // x, y, z of the variable's first point (a cell centre, if cell-centred)
  std::array<double, 3> delta{};
  std::vector<series_entry> steps;   // by iteration
};

/// XDMF 2: a temporal collection of uniform grids, one per step, each a 3DCoRectMesh whose
/// points are the variable's own points (ORIGIN_DXDYDZ, given z, y, x as the Dimensions are),
/// with the variable as a node attribute read from the step's dataset (by its name in the group
/// "xdmf": xdmf_link()).
std::string xdmf_text(const xdmf_series& series);

}  // namespace opuntia::thorns::IOHDF5
