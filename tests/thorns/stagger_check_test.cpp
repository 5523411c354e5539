// tests/thorns/StaggerCheck run for real: a kernel writes the coordinates of the points of a
// cell-centred ({ccc}), a face-centred ({vcc}) and a vertex-centred group from its params, a host
// routine compares them with routine_context::coordinate, and the test checks the values.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include "ccl/source_file.hpp"
#include "flesh/runtime/compiled_thorns.hpp"
#include "flesh/runtime/simulation.hpp"
#include "thorns/CaKernel/src/backend.hpp"

namespace opuntia::thorns::StaggerCheck {
thorn_binding binding();
}

namespace {

class stagger_check : public ::testing::TestWithParam<std::string> {};

TEST_P(stagger_check, kernels_and_host_routines_place_cell_and_face_centred_points_alike) {
  const auto& backends = opuntia::thorns::CaKernel::compiled_backends();
  if (std::none_of(backends.begin(), backends.end(), [](const auto& b) { return b.name == GetParam(); })) {
    GTEST_SKIP() << "this build has no " << GetParam() << " backend";
  }
  auto thorns = opuntia::compiled_thorns();
  thorns.push_back(opuntia::thorns::StaggerCheck::binding());
  const auto out_dir = std::filesystem::path(::testing::TempDir()) / ("stagger_check_" + GetParam());
  // Spacings that are powers of two (0.125, 0.25, 0.5): every coordinate is exact in float too.
  // z is periodic with one ghost point on each side, so local index 0 lies below zmin.
  const opuntia::ccl::source_file parfile{
      "stagger_check.par",
      "ActiveThorns = \"StaggerCheck\"\n"
      "Cactus::cctk_itlast = 0\n"
      "Cactus::progress_every = 0\n"
      "Driver::global_nx = 9\nDriver::xmin = -0.5\nDriver::xmax = 0.5\n"
      "Driver::global_ny = 5\nDriver::ymin = 0\nDriver::ymax = 1\n"
      "Driver::global_nz = 5\nDriver::zmin = 0\nDriver::zmax = 2\n"
      "Driver::periodic_z = yes\nDriver::ghost_size = 1\n"
      "CaKernel::backend = \"" + GetParam() + "\"\n"
      "IO::out_dir = \"" + out_dir.string() + "\"\n"};
  std::ostringstream log;
  std::unique_ptr<opuntia::simulation> sim;
  try {
    sim = std::make_unique<opuntia::simulation>(thorns, opuntia::compiled_providers(), parfile, opuntia::parameter_level::strict, log);
  } catch (const std::exception& e) {
    if (std::string(e.what()).find("has no device") != std::string::npos) GTEST_SKIP() << e.what();
    throw;
  }
  sim->run();  // StaggerCheck_Compare throws at the first point where kernel and host disagree
  auto& store = sim->store();
  const int nx = 9, ny = 5, nz = 6;  // z: points 0..3 (4 is 0 again) and a ghost on each side
  EXPECT_EQ(*static_cast<CCTK_INT*>(store.data(store.find("StaggerCheck", "checked"))), 9 * nx * ny * nz);

  // The exact coordinates: vertex i at min + i * step, a cell centre half a step above it.
  const auto& layout = sim->layout();
  const double min[3] = {-0.5, 0.0, -0.5}, step[3] = {0.125, 0.25, 0.5};  // z: local 0 is the ghost at -0.5
  const struct {
    const char* names[3];
    double offset[3];
  } groups[] = {{{"xc", "yc", "zc"}, {0.5, 0.5, 0.5}}, {{"xf", "yf", "zf"}, {0.0, 0.5, 0.5}},
                {{"xv", "yv", "zv"}, {0.0, 0.0, 0.0}}};
  for (const auto& g : groups) {
    for (int d = 0; d < 3; ++d) {
      const auto* values = static_cast<const CCTK_REAL*>(store.data(store.find("StaggerCheck", g.names[d])));
      for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
          for (int i = 0; i < nx; ++i) {
            const int index[3] = {i, j, k};
            const auto expected = static_cast<CCTK_REAL>(min[d] + (index[d] + g.offset[d]) * step[d]);
            ASSERT_EQ(values[layout.index(i, j, k)], expected) << g.names[d] << " at (" << i << ", " << j << ", " << k << ")";
          }
        }
      }
    }
  }
  // A few written out: the first cell centre, the face of the last x vertex, a ghost cell below zmin.
  const auto value = [&](const char* name, int i, int j, int k) {
    return static_cast<const CCTK_REAL*>(store.data(store.find("StaggerCheck", name)))[layout.index(i, j, k)];
  };
  EXPECT_EQ(value("xc", 0, 0, 1), CCTK_REAL(-0.4375));
  EXPECT_EQ(value("xf", 8, 0, 1), CCTK_REAL(0.5));
  EXPECT_EQ(value("yf", 8, 0, 1), CCTK_REAL(0.125));
  EXPECT_EQ(value("zc", 0, 0, 0), CCTK_REAL(-0.25));
  EXPECT_EQ(value("zv", 0, 0, 0), CCTK_REAL(-0.5));
}

INSTANTIATE_TEST_SUITE_P(backends, stagger_check, ::testing::Values("openmp", "opencl", "cuda"),
                         [](const auto& info) { return info.param; });

}  // namespace
