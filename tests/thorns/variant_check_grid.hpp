#pragma once
// What the tests that launch generated kernels directly share (variants_test.cpp and
// backend_conformance_test.cpp with tests/thorns/VariantCheck, streaming_test.cpp with
// StreamCheck): fields on an odd block, on 64-byte lines, and a kernel_call over it.
#include <cstddef>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#include "opuntia/binding.hpp"
#include "opuntia/cctk_types.h"

namespace variant_check {

/// An ni x nj x nk block; each test picks odd sizes that no TILE divides. Its rows may be
/// padded as Driver::pad_to_cachelines pads them: `pitch` elements a row, point 0 `lead`
/// elements into it (kernel_grid::ashi, leadi); pitch 0: unpadded. Its planes may be padded as
/// Driver::pad_planes pads them: `plane_rows` rows a plane (kernel_grid::ashj); 0: nj.
struct grid_size {
  int ni, nj, nk;
  int pitch = 0, lead = 0;
  int plane_rows = 0;
  constexpr int row_pitch() const { return pitch > 0 ? pitch : ni; }
  constexpr int rows_per_plane() const { return plane_rows > 0 ? plane_rows : nj; }
  /// Elements of an array, padding included.
  constexpr std::size_t elements() const {
    return static_cast<std::size_t>(row_pitch()) * static_cast<std::size_t>(rows_per_plane()) * nk;
  }
  /// The element of point (i, j, k); i from -lead to row_pitch() - lead - 1 and j from nj to
  /// rows_per_plane() - 1 reach the padding.
  constexpr std::size_t index(int i, int j, int k) const {
    return static_cast<std::size_t>(lead + i) +
           static_cast<std::size_t>(row_pitch()) * (j + static_cast<std::size_t>(rows_per_plane()) * k);
  }
};

/// Allocates on 64-byte lines, as the runtime does: the OpenMP kernels write their outputs with
/// streaming stores only to arrays that start on one.
template <typename T>
struct line_allocator {
  using value_type = T;
  line_allocator() = default;
  template <typename U>
  line_allocator(const line_allocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <typename U>
  bool operator==(const line_allocator<U>&) const { return true; }
};

template <typename T>
using aligned_vector = std::vector<T, line_allocator<T>>;
using field = aligned_vector<CCTK_REAL>;

/// Whether two arrays hold the same bits: the variants must agree with the plain loop exactly.
template <typename T>
bool same_bits(const aligned_vector<T>& a, const aligned_vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// Uniform in [-2, 2): the same values for the same seed.
inline field random_field(const grid_size& grid, unsigned seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-2.0, 2.0);
  field f(grid.elements());
  for (auto& x : f) x = static_cast<CCTK_REAL>(uniform(generator));
  return f;
}

/// NaN everywhere: a point nobody writes stays NaN.
inline field poisoned(const grid_size& grid) {
  field f(grid.elements());
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
  call.grid.ashi = grid.row_pitch();
  call.grid.leadi = grid.lead;
  call.grid.ashj = grid.rows_per_plane();
  call.arrays = arrays;
  call.parameters = thorn_parameters;
  return call;
}

}  // namespace variant_check
