// Every OpenMP variant of a kernel runs the same body to the same bits: tests/thorns/VariantCheck,
// generated with 3dblock, 3dblock_vvl and (for its cardinal kernel) 3dstencil, on an odd grid.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "VariantCheck_parameters.hpp"
#include "opuntia/binding.hpp"
#include "thorns/CaKernel/backends/openmp/rows.hpp"
#include "variant_check_grid.hpp"

namespace {

using namespace opuntia::thorns::VariantCheck;

constexpr variant_check::grid_size grid{37, 23, 19};  // odd, and no multiple of any TILE or of the VVL
constexpr int ni = grid.ni, nj = grid.nj, nk = grid.nk;

std::size_t index(int i, int j, int k) { return static_cast<std::size_t>(i + ni * (j + nj * k)); }

variant_check::field random_field(unsigned seed) { return variant_check::random_field(grid, seed); }
variant_check::field poisoned() { return variant_check::poisoned(grid); }

using variant_check::same_bits;

opuntia::kernel_call make_call(void* const* arrays, const parameters& thorn_parameters) {
  return variant_check::make_call(grid, arrays, &thorn_parameters);
}

using opuntia::openmp::scoped_streaming_stores;

std::string described(const std::string& template_name, bool streaming) {
  return template_name + (streaming ? " with streaming stores" : "");
}

const opuntia::kernel_binding& kernel(const opuntia::thorn_binding& b, const std::string& name) {
  for (const auto& k : b.kernels) {
    if (k.name == name) return k;
  }
  throw std::runtime_error("no kernel " + name);
}

/// The OpenMP variants (a CUDA build generates CUDA ones too; they run in the GPU tests).
std::vector<std::string> variant_names(const opuntia::kernel_binding& k) {
  std::vector<std::string> names;
  for (const auto& v : k.variants) {
    if (v.backend == "openmp") names.push_back(v.backend + "/" + v.template_name);
  }
  return names;
}

TEST(generated_variants, box_kernel_is_bit_equal_in_3dblock_and_3dblock_vvl_and_to_a_plain_loop) {
  const auto b = binding();
  const auto& box = kernel(b, "Box");
  ASSERT_EQ(variant_names(box), (std::vector<std::string>{"openmp/3dblock", "openmp/3dblock_vvl"}));
  const parameters thorn_parameters{};
  const auto u = random_field(1), v0 = random_field(2);

  // The reference: the body as a plain loop over the points STENCIL="1,2,1,2,2,1" allows.
  auto v_ref = v0;
  auto w_ref = poisoned();
  const CCTK_REAL c = thorn_parameters.c, xmin = -1.5, dx = 0.1;
  for (int k = 2; k < nk - 1; ++k) {
    for (int j = 1; j < nj - 2; ++j) {
      for (int i = 1; i < ni - 2; ++i) {
        const CCTK_REAL corner = u[index(i - 1, j + 2, k + 1)] + u[index(i + 2, j - 1, k - 2)] + u[index(i + 1, j - 1, k - 2)];
        const CCTK_REAL x = xmin + i * dx;
        w_ref[index(i, j, k)] = c * corner - x * u[index(i, j, k)] + static_cast<CCTK_REAL>(j - 2 * k);
        if ((i + j + k) % 3 != 0) v_ref[index(i, j, k)] = v_ref[index(i, j, k)] * 0.5 + corner;
      }
    }
  }

  for (const bool streaming : {false, true}) {
    const scoped_streaming_stores stores(streaming);
    for (const auto& variant : box.variants) {
      if (variant.backend != "openmp") continue;  // host arrays: the CUDA variants run in the GPU tests
      const std::string what = described(variant.template_name, streaming);
      auto uu = u, v = v0;
      auto w = poisoned();
      void* arrays[] = {uu.data(), v.data(), w.data()};
      variant.launch(make_call(arrays, thorn_parameters));
      EXPECT_TRUE(same_bits(w, w_ref)) << what << ": w differs from the plain loop";
      EXPECT_TRUE(same_bits(v, v_ref)) << what << ": v differs from the plain loop";
      EXPECT_TRUE(same_bits(uu, u)) << what << ": the input u was written";
    }
  }
}

TEST(generated_variants, star_kernel_is_bit_equal_in_every_variant_and_to_a_plain_loop) {
  const auto b = binding();
  const auto& star = kernel(b, "Star");
  // In the order TYPE names them (3dblock|3dblock_vvl|3dstencil|...), not deps.ccl's: the first
  // is the one that runs untuned.
  ASSERT_EQ(variant_names(star),
            (std::vector<std::string>{"openmp/3dblock", "openmp/3dblock_vvl", "openmp/3dstencil"}));
  const parameters thorn_parameters{};
  const auto s = random_field(3);

  // STENCIL="2,1,1,2,3,1": i in [2, ni-1), j in [1, nj-2), k in [3, nk-1).
  auto s_ref = poisoned();
  const CCTK_REAL c = thorn_parameters.c;
  for (int k = 3; k < nk - 1; ++k) {
    for (int j = 1; j < nj - 2; ++j) {
      for (int i = 2; i < ni - 1; ++i) {
        const CCTK_REAL sum = (s[index(i - 2, j, k)] + s[index(i + 1, j, k)]) +
                              (s[index(i, j - 1, k)] + s[index(i, j + 2, k)]) +
                              (s[index(i, j, k - 3)] + s[index(i, j, k + 1)]);
        s_ref[index(i, j, k)] = c * sum - std::sqrt(std::fabs(s[index(i, j, k)]));
      }
    }
  }

  std::vector<variant_check::field> results;
  std::vector<std::string> names;
  for (const bool streaming : {false, true}) {
    const scoped_streaming_stores stores(streaming);
    for (const auto& variant : star.variants) {
      if (variant.backend != "openmp") continue;  // host arrays: the CUDA variants run in the GPU tests
      names.push_back(described(variant.template_name, streaming));
      auto in = s;
      auto out = poisoned();
      void* arrays[] = {in.data(), out.data()};  // s, then the second buffer of separateinout s
      variant.launch(make_call(arrays, thorn_parameters));
      EXPECT_TRUE(same_bits(out, s_ref)) << names.back() << ": s_out differs from the plain loop";
      EXPECT_TRUE(same_bits(in, s)) << names.back() << ": s was written";
      results.push_back(out);
    }
  }
  for (std::size_t r = 1; r < results.size(); ++r) {
    EXPECT_TRUE(same_bits(results[r], results[0])) << names[r] << " differs from " << names[0];
  }
}

}  // namespace
