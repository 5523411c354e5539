#pragma once
// What the tests that launch tests/thorns/VariantCheck's kernels directly share
// (variants_test.cpp, backend_conformance_test.cpp): fields on an odd block and a kernel_call
// over it.
#include <cstddef>
#include <cstring>
#include <random>
#include <vector>

#include "opuntia/binding.hpp"
#include "opuntia/cctk_types.h"

namespace variant_check {

/// An ni x nj x nk block; each test picks odd sizes that no TILE divides.
struct grid_size {
  int ni, nj, nk;
  constexpr std::size_t points() const { return static_cast<std::size_t>(ni) * nj * nk; }
};

using field = std::vector<CCTK_REAL>;

/// Uniform in [-2, 2): the same values for the same seed.
inline field random_field(const grid_size& grid, unsigned seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  field f(grid.points());
  for (auto& x : f) x = static_cast<CCTK_REAL>(uniform(generator));
  return f;
}

/// NaN everywhere: a point nobody writes stays NaN.
inline field poisoned(const grid_size& grid) {
  field f(grid.points());
  std::memset(f.data(), 0xff, f.size() * sizeof(CCTK_REAL));
  return f;
}

/// A launch over the whole block, with a spacing, time step and origin a body can read.
inline opuntia::kernel_call make_call(const grid_size& grid, void* const* arrays, const void* thorn_parameters) {
  opuntia::kernel_call call;
  call.grid.dx = 0.1;
  call.grid.dy = 0.2;
  call.grid.dz = 0.3;
  call.grid.dt = 0.01;
  call.grid.xmin = -1.5;
  call.grid.ni = grid.ni;
  call.grid.nj = grid.nj;
  call.grid.nk = grid.nk;
  call.arrays = arrays;
  call.parameters = thorn_parameters;
  return call;
}

}  // namespace variant_check
