#include "cakernel_runtime.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "opuntia/parameter_error.hpp"

namespace opuntia::thorns::CaKernel {

cakernel_runtime::cakernel_runtime(std::unique_ptr<backend> device, grid_function_store& store)
    : device_(std::move(device)), store_(store) {}

cakernel_runtime::~cakernel_runtime() {
  for (auto& [_, device] : mirrors_) device_->release(device);
}

std::string cakernel_runtime::key(const void* host_buffer) { return fmt::format("{}", host_buffer); }

void* cakernel_runtime::device_of(const void* host_buffer, std::size_t bytes) {
  if (device_->shares_host_memory()) return const_cast<void*>(host_buffer);
  auto& device = mirrors_[host_buffer];
  if (device == nullptr) device = device_->allocate(bytes);
  return device;
}

void cakernel_runtime::to_device(void* host_buffer, std::size_t bytes) {
  if (tracker_.before_kernel_reads(key(host_buffer)) == validity_tracker::transfer::to_device) {
    device_->copy_to_device(device_of(host_buffer, bytes), host_buffer, bytes);
  }
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
    void* host = store_.data(v, kv.timelevel);
    const std::size_t bytes = v.count * v.element_size();
    // in, inout, separateinout and past levels are read: the device copy must be current. An
    // `out` variable is copied too the first time, so the points a kernel leaves alone (a
    // boundary) hold the host's values rather than garbage.
    if (kv.intent != kernel_intent::out || device_->shares_host_memory() || !mirrors_.count(host)) to_device(host, bytes);
    arrays.push_back(device_of(host, bytes));
  }
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    if (kernel.variables[i].intent != kernel_intent::separateinout) continue;
    auto& v = *variables[i];
    const std::size_t bytes = v.count * v.element_size();
    if (!device_->shares_host_memory() && (!v.scratch || !mirrors_.count(v.scratch.data()))) {
      // The second buffer starts as a copy of level 0 (points the kernel does not write keep
      // their values across the swap); level 0 may be current on the device only.
      ensure_host(v);
      if (v.scratch) std::memcpy(v.scratch.data(), store_.data(v, 0), bytes);
      tracker_.after_host_writes(key(store_.scratch(v)));  // store_.scratch() copies level 0 when it makes the buffer
    }
    void* scratch = store_.scratch(v);
    to_device(scratch, bytes);
    arrays.push_back(device_of(scratch, bytes));
  }
  kernel_call call;
  call.grid = grid;
  call.arrays = arrays.data();
  call.parameters = thorn_parameters;
  chosen->launch(call);
  for (std::size_t i = 0; i < kernel.variables.size(); ++i) {
    auto& v = *variables[i];
    const auto intent = kernel.variables[i].intent;
    if (intent == kernel_intent::in || kernel.variables[i].timelevel > 0) continue;
    if (intent == kernel_intent::separateinout) {
      // The new values are in the second buffer: it becomes level 0 on the host side, and its
      // device mirror, keyed by that host buffer, goes with it.
      tracker_.after_kernel_writes(key(store_.scratch(v)));
      store_.swap_with_scratch(v);
    } else {
      tracker_.after_kernel_writes(key(store_.data(v, 0)));
    }
  }
}

void cakernel_runtime::ensure_host(grid_variable& v, int level) {
  void* host = store_.data(v, level);
  if (tracker_.before_host_reads(key(host)) == validity_tracker::transfer::to_host) {
    const std::size_t bytes = v.count * v.element_size();
    device_->copy_to_host(host, device_of(host, bytes), bytes);
  }
}

void cakernel_runtime::host_wrote(grid_variable& v, int level) { tracker_.after_host_writes(key(store_.data(v, level))); }

std::unique_ptr<opuntia::kernel_runtime> make_kernel_runtime(const std::string& backend_name, grid_function_store& store,
                                                             const backend_options& options) {
  std::vector<std::string> names;
  for (const auto& factory : compiled_backends()) {
    names.push_back(factory.name);
    if (backend_name != "auto" && backend_name != factory.name) continue;
    // auto: a device backend only for a GPU (OpenCL on pocl is a CPU: OpenMP is better there).
    auto chosen_options = options;
    chosen_options.gpu_only = backend_name == "auto" && std::string(factory.name) != "openmp";
    if (auto device = factory.make(chosen_options)) return std::make_unique<cakernel_runtime>(std::move(device), store);
    if (backend_name != "auto") {
      throw parameter_value_error("CaKernel", "backend",
                                  fmt::format("CaKernel::backend = \"{}\": this machine has no device for it", backend_name));
    }
  }
  throw parameter_value_error("CaKernel", "backend",
                              fmt::format("CaKernel::backend = \"{}\": this build has no {} backend (it has: {})",
                                          backend_name, backend_name, fmt::join(names, ", ")));
}

backend_options backend_options_from(const parameter_source& parameters) {
  backend_options options;
  options.opencl_platform = parameters.text("CaKernel", "opencl_platform");
  options.opencl_device = parameters.text("CaKernel", "opencl_device");
  options.cache_dir = parameters.text("CaKernel", "cache_dir");
  return options;
}

std::string describe_devices(const backend_options& options) {
  std::string out;
  for (const auto& factory : compiled_backends()) out += factory.describe_devices(options);
  return out;
}

}  // namespace opuntia::thorns::CaKernel
