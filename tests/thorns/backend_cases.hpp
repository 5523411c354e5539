#pragma once
// What the tests that run VariantCheck's kernels through the CaKernel backends share
// (backend_conformance_test.cpp, sub_box_test.cpp): a backend of the build on a grid, making its
// device, and one launch through it from host arrays and back.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opuntia/binding.hpp"
#include "thorns/CaKernel/src/backend.hpp"
#include "variant_check_grid.hpp"

namespace variant_check {

/// One backend of the build on one grid: a test case's parameter.
struct backend_case {
  std::string backend;
  grid_size grid;
};

/// The backends of this build (OpenMP too where `with_openmp`), each on a grid with an odd x size
/// (one x point per GPU thread) and one with a multiple of 4 (several aligned points per thread);
/// `padded`: also the two with rows padded as the driver pads them for 128-byte lines of fp64
/// (Driver::pad_to_cachelines): x = 1 on a line (the blocks start there, the x halo in the
/// padding's last line), and x = 8 on one (the odd rows then take several points a thread too);
/// their planes padded too (Driver::pad_planes adds one row to an even count; any count past
/// nj must do): 31 and 30 rows a plane.
inline std::vector<backend_case> backend_cases(bool with_openmp, bool padded = false) {
  std::vector<grid_size> grids{{41, 29, 23}, {44, 29, 23}};
  if (padded) grids.insert(grids.end(), {grid_size{44, 29, 23, 64, 15, 31}, grid_size{41, 29, 23, 64, 8, 30}});
  std::vector<backend_case> cases;
  for (const auto& factory : opuntia::thorns::CaKernel::compiled_backends()) {
    if (!with_openmp && std::string(factory.name) == "openmp") continue;
    for (const auto& grid : grids) cases.push_back({factory.name, grid});
  }
  return cases;
}

/// The test's name for a case: cuda_41x29x23, cuda_44x29x23_rows64_lead15_planes31.
inline std::string case_name(const backend_case& c) {
  const auto& g = c.grid;
  std::string name = c.backend + "_" + std::to_string(g.ni) + "x" + std::to_string(g.nj) + "x" + std::to_string(g.nk);
  if (g.pitch > 0) name += "_rows" + std::to_string(g.pitch) + "_lead" + std::to_string(g.lead);
  if (g.plane_rows > 0) name += "_planes" + std::to_string(g.plane_rows);
  return name;
}

/// The device of backend `name`; nullptr where the machine has none for it.
inline std::unique_ptr<opuntia::thorns::CaKernel::backend> make_device(const std::string& name) {
  const auto& backends = opuntia::thorns::CaKernel::compiled_backends();
  const auto factory = std::find_if(backends.begin(), backends.end(), [&](const auto& f) { return f.name == name; });
  return factory == backends.end() ? nullptr : factory->make({});
}

/// `arrays` after one launch of `variant` through `device` on its queue (over `box` where given):
/// copied to the device, launched, waited for and copied back.
/// Every array of kernel `k` (separateinout second buffers last), random everywhere from `seed`
/// on, so that a write anywhere shows.
inline std::vector<field> random_arrays(const grid_size& grid, const opuntia::kernel_binding& k, unsigned seed) {
  std::size_t count = k.variables.size();
  for (const auto& v : k.variables) count += v.intent == opuntia::kernel_intent::separateinout ? 1 : 0;
  std::vector<field> arrays;
  for (std::size_t a = 0; a < count; ++a) arrays.push_back(random_field(grid, seed + static_cast<unsigned>(a)));
  return arrays;
}

inline std::vector<field> launched_through(opuntia::thorns::CaKernel::backend& device,
                                           const opuntia::kernel_variant_binding& variant, const grid_size& grid,
                                           std::vector<field> arrays, const void* thorn_parameters,
                                           const std::optional<opuntia::index_range>& box = std::nullopt,
                                           const opuntia::launch_shape& shape = {},
                                           opuntia::launch_shape* ran_shape = nullptr) {
  const std::size_t bytes = grid.elements() * sizeof(CCTK_REAL);
  std::vector<void*> pointers;
  for (auto& a : arrays) {
    void* d = device.allocate(bytes);
    device.copy_to_device(d, a.data(), bytes);
    pointers.push_back(d);
  }
  auto call = make_call(grid, pointers.data(), thorn_parameters);
  call.queue = device.queue();
  call.box = box;
  call.shape = shape;
  call.ran_shape = ran_shape;
  variant.launch(call);
  device.synchronize();
  for (std::size_t a = 0; a < arrays.size(); ++a) {
    device.copy_to_host(arrays[a].data(), pointers[a], bytes);
    device.release(pointers[a]);
  }
  return arrays;
}

}  // namespace variant_check
