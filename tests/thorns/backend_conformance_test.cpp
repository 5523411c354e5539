// The backend conformance suite: every kernel of tests/thorns/VariantCheck (off-axis and
// cardinal stencils, a radius-8 star, a boundary kernel with uneven EXTERIOR; intents in, out,
// inout, separateinout; an odd grid no TILE divides) runs on every device backend of the build
// and must give the OpenMP backend's results to 1e-12 relative, point for point, and leave the
// same points unwritten. One test per device backend of the build (backend_conformance/cuda,
// /opencl); each skips when the machine has no device for it. CUDA's is labelled gpu; OpenCL's
// runs everywhere (pocl on the CPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "VariantCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "thorns/CaKernel/src/backend.hpp"
#include "variant_check_grid.hpp"

namespace {

using namespace opuntia::thorns::VariantCheck;
namespace ck = opuntia::thorns::CaKernel;

constexpr variant_check::grid_size grid{41, 29, 23};
constexpr std::size_t bytes = grid.points() * sizeof(CCTK_REAL);

using variant_check::field;
field random_field(unsigned seed) { return variant_check::random_field(grid, seed); }
field poisoned() { return variant_check::poisoned(grid); }

/// The initial arrays of a kernel: inputs random, outputs NaN; separateinout buffers last.
std::vector<field> initial_arrays(const opuntia::kernel_binding& k) {
  std::vector<field> arrays;
  unsigned seed = 1;
  for (const auto& v : k.variables) arrays.push_back(v.intent == "out" ? poisoned() : random_field(seed++));
  for (const auto& v : k.variables) {
    if (v.intent == "separateinout") arrays.push_back(poisoned());
  }
  return arrays;
}

opuntia::kernel_call make_call(void* const* arrays, const parameters& thorn_parameters) {
  return variant_check::make_call(grid, arrays, &thorn_parameters);
}

std::vector<field> run_openmp(const opuntia::kernel_binding& k, const parameters& p) {
  auto arrays = initial_arrays(k);
  std::vector<void*> pointers;
  for (auto& a : arrays) pointers.push_back(a.data());
  const auto variant = std::find_if(k.variants.begin(), k.variants.end(), [](const auto& v) { return v.backend == "openmp"; });
  if (variant == k.variants.end()) throw std::runtime_error("no openmp variant of " + k.name);
  variant->launch(make_call(pointers.data(), p));
  return arrays;
}

std::vector<field> run_on(ck::backend& device, const opuntia::kernel_variant_binding& variant,
                          const opuntia::kernel_binding& k, const parameters& p) {
  auto arrays = initial_arrays(k);
  std::vector<void*> pointers;
  for (auto& a : arrays) {
    void* d = device.allocate(bytes);
    device.copy_to_device(d, a.data(), bytes);
    pointers.push_back(d);
  }
  variant.launch(make_call(pointers.data(), p));
  device.synchronize();
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    device.copy_to_host(arrays[a].data(), pointers[a], bytes);
    device.release(pointers[a]);
  }
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

/// The device backends of this build (every one but OpenMP): one test each.
std::vector<std::string> device_backends() {
  std::vector<std::string> names;
  for (const auto& factory : ck::compiled_backends()) {
    if (std::string(factory.name) != "openmp") names.push_back(factory.name);
  }
  return names;
}

class backend_conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(backend_conformance, every_kernel_matches_openmp) {
  const auto factory = std::find_if(ck::compiled_backends().begin(), ck::compiled_backends().end(),
                                    [](const auto& f) { return f.name == GetParam(); });
  ASSERT_NE(factory, ck::compiled_backends().end());
  auto device = factory->make({});
  if (!device) GTEST_SKIP() << "the build has " << GetParam() << ", the machine no device for it";
  const auto b = binding();
  const parameters p{};
  int variants = 0;
  for (const auto& k : b.kernels) {
    const auto reference = run_openmp(k, p);
    for (const auto& variant : k.variants) {
      if (variant.backend != GetParam()) continue;
      ++variants;
      const auto result = run_on(*device, variant, k, p);
      for (std::size_t a = 0; a < result.size(); ++a) {
        std::string first;
        EXPECT_EQ(mismatches(reference[a], result[a], first), 0u)
            << GetParam() << "/" << variant.template_name << " kernel " << k.name << ", array " << a << ": " << first;
      }
    }
  }
  // Box and Star8: 3dblock and 3dblock_rows; Star: those and 3dstencil; Edge: boundary.
  EXPECT_EQ(variants, 8) << "every GPU template of VariantCheck's TYPEs";
}

INSTANTIATE_TEST_SUITE_P(device, backend_conformance, ::testing::ValuesIn(device_backends()),
                         [](const auto& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(backend_conformance);

}  // namespace
