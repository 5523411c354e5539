#include "cakernel_runtime.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace opuntia::thorns::CaKernel {

cakernel_runtime::cakernel_runtime(std::unique_ptr<backend> device, grid_function_store& store)
    : device_(std::move(device)), store_(store) {}

cakernel_runtime::~cakernel_runtime() {
  for (auto& [_, m] : mirrors_) {
    if (m.primary) device_->release(m.primary);
    if (m.secondary) device_->release(m.secondary);
  }
}

void* cakernel_runtime::device_primary(grid_variable& v) {
  if (device_->shares_host_memory()) return store_.data(v, 0);
  auto& m = mirrors_[key(v)];
  if (!m.primary) m.primary = device_->allocate(v.count * v.element_size());
  return m.primary;
}

void* cakernel_runtime::device_secondary(grid_variable& v) {
  if (device_->shares_host_memory()) return store_.scratch(v);
  auto& m = mirrors_[key(v)];
  if (!m.secondary) {
    // Points the kernel does not write keep their values across the swap: start from the
    // current level 0, which may be valid on the device only (a kernel wrote it last).
    ensure_host(v);
    m.secondary = device_->allocate(v.count * v.element_size());
    device_->copy_to_device(m.secondary, store_.data(v, 0), v.count * v.element_size());
  }
  return m.secondary;
}

void cakernel_runtime::launch(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                              const kernel_grid& grid, const std::string& variant) {
  const auto chosen = std::find_if(kernel.variants.begin(), kernel.variants.end(), [&](const kernel_variant_binding& k) {
    return k.backend == device_->name() && (variant.empty() || k.template_name == variant);
  });
  if (chosen == kernel.variants.end()) {
    std::vector<std::string> generated;
    for (const auto& k : kernel.variants) generated.push_back(k.backend + "/" + k.template_name);
    throw std::runtime_error(fmt::format("kernel {} of thorn {} has no {} variant{} (generated: {})", kernel.name,
                                         thorn.name, device_->name(), variant.empty() ? "" : " '" + variant + "'",
                                         generated.empty() ? "none" : fmt::format("{}", fmt::join(generated, ", "))));
  }
  std::vector<grid_variable*> variables;
  std::vector<void*> arrays;
  for (const auto& kv : kernel.variables) {
    auto& v = store_.find(thorn.name, kv.grid_function.empty() ? kv.name : kv.grid_function);
    variables.push_back(&v);
    if (kv.timelevel > 0) {
      // A past time level is read-only and lives where the host keeps it (device mirrors of
      // past levels arrive with the device backends).
      arrays.push_back(store_.data(v, kv.timelevel));
      continue;
    }
    // in, inout, separateinout read the variable: its device copy must be current. `out` is
    // copied too the first time only, so points the kernel leaves alone are not garbage.
    const bool reads = kv.intent != "out" || !mirrors_.count(key(v));
    if (reads && tracker_.before_kernel_reads(key(v)) == validity_tracker::transfer::to_device) {
      device_->copy_to_device(device_primary(v), store_.data(v, 0), v.count * v.element_size());
    }
    arrays.push_back(device_primary(v));
  }
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    if (kernel.variables[i].intent == "separateinout") arrays.push_back(device_secondary(*variables[i]));
  }
  kernel_call call;
  call.grid = grid;
  call.arrays = arrays.data();
  call.parameters = thorn_parameters;
  chosen->launch(call);
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    auto& v = *variables[i];
    const auto& intent = kernel.variables[i].intent;
    if (intent == "in" || kernel.variables[i].timelevel > 0) continue;
    if (intent == "separateinout") {
      if (device_->shares_host_memory()) {
        store_.swap_with_scratch(v);
      } else {
        auto& m = mirrors_[key(v)];
        std::swap(m.primary, m.secondary);
      }
    }
    tracker_.after_kernel_writes(key(v));
  }
}

void cakernel_runtime::ensure_host(grid_variable& v) {
  if (tracker_.before_host_reads(key(v)) == validity_tracker::transfer::to_host) {
    device_->copy_to_host(store_.data(v, 0), device_primary(v), v.count * v.element_size());
  }
}

void cakernel_runtime::host_wrote(grid_variable& v) { tracker_.after_host_writes(key(v)); }

std::unique_ptr<opuntia::kernel_runtime> make_kernel_runtime(const std::string& backend_name, grid_function_store& store) {
  if (backend_name == "auto" || backend_name == "openmp") {
    return std::make_unique<cakernel_runtime>(make_openmp_backend(), store);
  }
  throw std::invalid_argument(fmt::format("CaKernel::backend = \"{}\": this build has no {} backend (it has: openmp)",
                                          backend_name, backend_name));
}

}  // namespace opuntia::thorns::CaKernel
