#pragma once
// The CaKernel runtime: picks a backend, keeps a device mirror of every grid function a kernel
// uses, applies the variables' INTENT around each launch and calls the generated launcher.
#include <map>
#include <memory>
#include <string>

#include "backend.hpp"
#include "flesh/runtime/kernel_runtime.hpp"
#include "validity_tracker.hpp"

namespace opuntia::thorns::CaKernel {

class cakernel_runtime final : public opuntia::kernel_runtime {
public:
  cakernel_runtime(std::unique_ptr<backend> device, grid_function_store& store);
  ~cakernel_runtime() override;

  std::string backend_name() const override { return device_->name(); }
  void launch(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
              const kernel_grid& grid, const std::string& variant) override;
  void ensure_host(grid_variable& v) override;
  void host_wrote(grid_variable& v) override;
  void synchronize() override { device_->synchronize(); }

  const validity_tracker& tracker() const { return tracker_; }

private:
  struct mirror {
    void* primary = nullptr;    // level 0 on the device
    void* secondary = nullptr;  // the second buffer of a separateinout variable
  };
  static std::string key(const grid_variable& v) { return v.implementation + "::" + v.name; }
  void* device_primary(grid_variable& v);
  void* device_secondary(grid_variable& v);

  std::unique_ptr<backend> device_;
  grid_function_store& store_;
  validity_tracker tracker_;
  std::map<std::string, mirror> mirrors_;  // device backends only
};

/// `CaKernel::backend`: "auto" (a GPU when this build has one and it answers, else OpenMP),
/// "openmp", "cuda", "opencl". A backend this build lacks: std::invalid_argument saying so.
std::unique_ptr<opuntia::kernel_runtime> make_kernel_runtime(const std::string& backend_name, grid_function_store& store);

}  // namespace opuntia::thorns::CaKernel
