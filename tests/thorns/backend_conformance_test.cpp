// The backend conformance suite: every kernel of tests/thorns/VariantCheck (off-axis and
// cardinal stencils, three cached arrays read off the axes, a radius-8 star, a one-sided
// stencil, a boundary kernel with uneven EXTERIOR; intents in, out, inout, separateinout) runs
// on every device backend of the build and must give the OpenMP backend's results to 1e-12
// relative, point for point, and leave the same points unwritten.
// Two grids that no TILE divides: an odd x size (one x point per GPU thread) and an x size that
// is a multiple of 4 (the CUDA kernels' several aligned x points per thread, fp64 and fp32).
// One test per device backend of the build and grid (backend_conformance/cuda_41x29x23, ...);
// each skips when the machine has no device for it. CUDA's are labelled gpu; OpenCL's run
// everywhere (pocl on the CPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "VariantCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "backend_cases.hpp"

namespace {

using namespace opuntia::thorns::VariantCheck;

using variant_check::field;
using variant_check::grid_size;

/// The initial arrays of a kernel: inputs random, outputs NaN; separateinout buffers last.
std::vector<field> initial_arrays(const grid_size& grid, const opuntia::kernel_binding& k) {
  std::vector<field> arrays;
  unsigned seed = 1;
  for (const auto& v : k.variables) {
    arrays.push_back(v.intent == opuntia::kernel_intent::out ? variant_check::poisoned(grid) : variant_check::random_field(grid, seed++));
  }
  for (const auto& v : k.variables) {
    if (v.intent == opuntia::kernel_intent::separateinout) arrays.push_back(variant_check::poisoned(grid));
  }
  return arrays;
}

std::vector<field> run_openmp(const grid_size& grid, const opuntia::kernel_binding& k, const parameters& p) {
  auto arrays = initial_arrays(grid, k);
  std::vector<void*> pointers;
  for (auto& a : arrays) pointers.push_back(a.data());
  const auto variant = std::find_if(k.variants.begin(), k.variants.end(), [](const auto& v) { return v.backend == "openmp"; });
  if (variant == k.variants.end()) throw std::runtime_error("no openmp variant of " + k.name);
  variant->launch(variant_check::make_call(grid, pointers.data(), &p));
  return arrays;
}

/// Points where the two differ beyond 1e-12 relative, or where one is written and not the other.
std::size_t mismatches(const field& a, const field& b, std::string& first) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool nan_a = std::isnan(a[i]), nan_b = std::isnan(b[i]);
    const double tolerance = 1e-12 * std::max(1.0, std::abs(static_cast<double>(a[i])));
    const bool same = nan_a || nan_b ? nan_a == nan_b : std::abs(static_cast<double>(a[i]) - b[i]) <= tolerance;
    if (!same && count++ == 0) first = "point " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
  }
  return count;
}

class backend_conformance : public ::testing::TestWithParam<variant_check::backend_case> {};

TEST_P(backend_conformance, every_kernel_matches_openmp) {
  const std::string& backend = GetParam().backend;
  const grid_size& grid = GetParam().grid;
  auto device = variant_check::make_device(backend);
  if (!device) GTEST_SKIP() << "the build has " << backend << ", the machine no device for it";
  const auto b = binding();
  const parameters p{};
  int variants = 0;
  for (const auto& k : b.kernels) {
    const auto reference = run_openmp(grid, k, p);
    for (const auto& variant : k.variants) {
      if (variant.backend != backend) continue;
      ++variants;
      const auto result = variant_check::launched_through(*device, variant, grid, initial_arrays(grid, k), &p);
      for (std::size_t a = 0; a < result.size(); ++a) {
        std::string first;
        EXPECT_EQ(mismatches(reference[a], result[a], first), 0u)
            << backend << "/" << variant.template_name << " kernel " << k.name << ", array " << a << ": " << first;
      }
    }
  }
  // Box and Star8: 3dblock, 3dblock_rows and 3dblock_ring; Star and Upwind: those and
  // 3dstencil; on CUDA also 3dblock_unrolled in all four, 3dstencil_unrolled and
  // 3dstencil_capped in Star and Upwind; Triple: 3dblock and 3dblock_ring; Edge: boundary.
  EXPECT_EQ(variants, backend == "cuda" ? 25 : 17) << "every GPU template of VariantCheck's TYPEs";
}

INSTANTIATE_TEST_SUITE_P(device, backend_conformance, ::testing::ValuesIn(variant_check::backend_cases(false, true)),
                         [](const auto& info) { return variant_check::case_name(info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(backend_conformance);

}  // namespace
