// The OpenMP 3dblock and 3dstencil write outputs larger than the cache with streaming stores
// (templates/openmp/3dblock.h.tpl, thorns/CaKernel/backends/openmp/rows.hpp). tests/thorns/StreamCheck's kernel
// has every kind of output they stream: a CCTK_REAL out, a CCTK_INT out and a separateinout's
// second buffer. Each variant runs with streaming forced on and off, on arrays that start on a
// 64-byte line and on arrays that do not (which must fall back to ordinary stores), and must
// write exactly the plain loop's values at exactly the kernel's points.
#include <gtest/gtest.h>

#include <string>

#include "StreamCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "thorns/CaKernel/backends/openmp/rows.hpp"
#include "variant_check_grid.hpp"

namespace {

using namespace opuntia::thorns::StreamCheck;
using variant_check::aligned_vector;
using variant_check::field;
using variant_check::same_bits;
using opuntia::openmp::scoped_streaming_stores;

constexpr variant_check::grid_size grid{37, 23, 19};
constexpr int ni = grid.ni, nj = grid.nj, nk = grid.nk;
constexpr CCTK_INT untouched = -123456;

std::size_t index(int i, int j, int k) { return static_cast<std::size_t>(i + ni * (j + nj * k)); }

struct outputs {
  field b, c_out;
  aligned_vector<CCTK_INT> n;
};

/// The arrays of one launch, each `shift` elements past the start of its allocation (0: on a
/// line), the outputs poisoned.
struct launch_arrays {
  explicit launch_arrays(int shift)
      : shift(shift), a(variant_check::random_field({ni, nj, nk + 1}, 1)), c(variant_check::random_field({ni, nj, nk + 1}, 2)),
        b(variant_check::poisoned({ni, nj, nk + 1})), c_out(variant_check::poisoned({ni, nj, nk + 1})),
        n(grid.elements() + 16, untouched) {}
  int shift;
  field a, c, b, c_out;
  aligned_vector<CCTK_INT> n;
  outputs taken() const {
    const auto slice = [&](const field& f) { return field(f.begin() + shift, f.begin() + shift + grid.elements()); };
    return {slice(b), slice(c_out), aligned_vector<CCTK_INT>(n.begin() + shift, n.begin() + shift + grid.elements())};
  }
};

outputs plain_loop(const launch_arrays& in) {
  outputs out = launch_arrays(in.shift).taken();
  const CCTK_REAL* a = in.a.data() + in.shift;
  const CCTK_REAL* c = in.c.data() + in.shift;
  for (int k = 1; k < nk - 1; ++k) {
    for (int j = 1; j < nj - 1; ++j) {
      for (int i = 1; i < ni - 1; ++i) {
        const std::size_t p = index(i, j, k);
        out.b[p] = (a[index(i - 1, j, k)] + a[index(i + 1, j, k)]) + a[index(i, j, k + 1)];
        out.n[p] = i + 3 * j - 7 * k;
        out.c_out[p] = (CCTK_REAL)0.5 * c[p] + a[index(i, j + 1, k)];
      }
    }
  }
  return out;
}

TEST(streaming_stores, every_output_kind_is_written_exactly_at_the_kernels_points) {
  const auto b = binding();
  ASSERT_EQ(b.kernels.size(), 1u);
  const auto& mixed = b.kernels.front();
  int launches = 0;
  for (const int shift : {0, 1}) {  // on a line; one point off it (no streaming, whatever the size)
    const launch_arrays initial(shift);
    const outputs expected = plain_loop(initial);
    for (const bool streaming : {false, true}) {
      const scoped_streaming_stores stores(streaming);
      for (const auto& variant : mixed.variants) {
        const std::string what = variant.template_name + (streaming ? ", streaming" : "") + ", shift " + std::to_string(shift);
        launch_arrays arrays = initial;
        // Descriptor order (a, b, n, c), then the second buffer of separateinout c.
        void* pointers[] = {arrays.a.data() + shift, arrays.b.data() + shift, arrays.n.data() + shift,
                            arrays.c.data() + shift, arrays.c_out.data() + shift};
        variant.launch(variant_check::make_call(grid, pointers, nullptr));
        const outputs got = arrays.taken();
        EXPECT_TRUE(same_bits(got.b, expected.b)) << what << ": b";
        EXPECT_TRUE(same_bits(got.n, expected.n)) << what << ": n (CCTK_INT)";
        EXPECT_TRUE(same_bits(got.c_out, expected.c_out)) << what << ": c_out";
        // Nothing past the block either (the int array has 16 spare points).
        for (std::size_t p = shift + grid.elements(); p < arrays.n.size(); ++p) EXPECT_EQ(arrays.n[p], untouched) << what;
        ++launches;
      }
    }
  }
  EXPECT_EQ(launches, 8);  // 3dblock and 3dstencil, streaming on and off, two alignments
}

}  // namespace
