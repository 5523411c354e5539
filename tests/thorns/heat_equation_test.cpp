// The generated OpenMP code of thorns/HeatEquation, built by opuntia_add_thorn(), run for real.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <vector>

#include "HeatEquation_grid_functions.hpp"
#include "HeatEquation_parameters.hpp"
#include "Heat_Update_3dblock.h"

#include "opuntia/binding.hpp"

namespace {

using namespace opuntia::thorns::HeatEquation;

TEST(generated_heat_kernel, applies_the_seven_point_laplacian_inside_the_stencil_bounds) {
  // Odd sizes, not multiples of the tile (64,4,4), so partial tiles are exercised.
  const int ni = 13, nj = 9, nk = 7;
  const double dx = 0.5, dy = 0.25, dz = 0.125;
  std::vector<CCTK_REAL> u(static_cast<std::size_t>(ni * nj * nk)), u_out(u.size(), -1.0);
  const auto index = [&](int i, int j, int k) { return static_cast<std::size_t>(i + ni * (j + nj * k)); };
  for (int k = 0; k < nk; ++k) {
    for (int j = 0; j < nj; ++j) {
      for (int i = 0; i < ni; ++i) {
        const double x = i * dx, y = j * dy, z = k * dz;
        u[index(i, j, k)] = x * x + 2 * y * y + 3 * z * z;  // laplacian = 2 + 4 + 6 = 12
      }
    }
  }
  opuntia::kernel_call call;
  call.grid.dx = dx;
  call.grid.dy = dy;
  call.grid.dz = dz;
  call.grid.dt = 0.01;
  call.grid.ni = ni;
  call.grid.nj = nj;
  call.grid.nk = nk;
  const parameters thorn_parameters{};  // the param.ccl defaults, through the generated struct
  ASSERT_EQ(thorn_parameters.alpha, 1.0);
  call.parameters = &thorn_parameters;
  void* arrays[] = {u.data(), u_out.data()};  // u, then the second buffer of separateinout u
  call.arrays = arrays;
  // Through the binding, as the runtime will call it.
  const auto b = binding();
  const auto& variants = b.kernels.at(0).variants;
  const auto openmp = std::find_if(variants.begin(), variants.end(), [](const auto& v) { return v.backend == "openmp"; });
  ASSERT_NE(openmp, variants.end());
  openmp->launch(call);

  for (int k = 0; k < nk; ++k) {
    for (int j = 0; j < nj; ++j) {
      for (int i = 0; i < ni; ++i) {
        const bool interior = i > 0 && i < ni - 1 && j > 0 && j < nj - 1 && k > 0 && k < nk - 1;
        const double expected = interior ? u[index(i, j, k)] + 0.01 * 1.0 * 12.0 : -1.0;
        // A few ulps of CCTK_REAL (double or float, as the build says).
        const double tolerance = 64 * std::numeric_limits<CCTK_REAL>::epsilon() * std::max(1.0, std::abs(expected));
        EXPECT_NEAR(u_out[index(i, j, k)], expected, tolerance) << "at " << i << "," << j << "," << k;
      }
    }
  }
}

TEST(generated_heat_kernel, bindings_describe_the_thorn) {
  const auto b = binding();
  EXPECT_EQ(b.name, "HeatEquation");
  EXPECT_EQ(b.implementation, "heatequation");
  ASSERT_EQ(b.parameters.size(), 1u);
  EXPECT_EQ(b.parameters[0].name, "alpha");
  EXPECT_EQ(b.parameters[0].ranges[0].bounds.lower, 0.0);
  EXPECT_TRUE(b.parameters[0].ranges[0].bounds.lower_open);
  ASSERT_EQ(b.groups.size(), 1u);
  EXPECT_EQ(b.groups[0].variables, std::vector<std::string>{"u"});
  ASSERT_EQ(b.kernels.size(), 1u);
  // OpenMP's 3dblock; in a CUDA build CUDA's 3dblock_unrolled first, then its 3dblock (TYPE's order).
  const auto& variants = b.kernels[0].variants;
  const auto openmp = std::find_if(variants.begin(), variants.end(), [](const auto& v) { return v.backend == "openmp"; });
  ASSERT_NE(openmp, variants.end());
  EXPECT_EQ(openmp->template_name, "3dblock");
  const auto cuda = std::find_if(variants.begin(), variants.end(), [](const auto& v) { return v.backend == "cuda"; });
  if (cuda != variants.end()) EXPECT_EQ(cuda->template_name, "3dblock_unrolled");
  ASSERT_EQ(b.routines.size(), 3u);  // initial data, the analytic comparison, the time step's check
  EXPECT_EQ(b.routines[0].name, "HeatEquation_Init");
  EXPECT_NE(b.routines[0].function, nullptr);
  EXPECT_EQ(grid_functions::variable_names[static_cast<int>(grid_functions::variable::u)], "u");
  ASSERT_EQ(b.schedule.size(), 5u);  // STORAGE, initial data, the kernel launch, the comparison, the check
  EXPECT_EQ(b.schedule[2].name, "CAKERNEL_Launch_Heat_Update");
}

}  // namespace
