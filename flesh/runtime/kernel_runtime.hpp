#pragma once
// The flesh's view of the CaKernel runtime (thorns/CaKernel implements it): launch a kernel
// on the chosen backend, and keep host and device copies of grid functions coherent.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "flesh/grid/grid_functions.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

class kernel_runtime {
public:
  virtual ~kernel_runtime() = default;
  /// The backend kernels run on: openmp, cuda, opencl.
  virtual std::string backend_name() const = 0;
  /// Runs `kernel` of `thorn` (its variant for this backend; `variant` names the template when
  /// several were generated, empty: the first), applying every variable's INTENT around it.
  virtual void launch(const thorn_binding& thorn, const kernel_binding& kernel, const void* thorn_parameters,
                      const kernel_grid& grid, const std::string& variant) = 0;
  /// Before the host reads time level `level` of `v`: bring the host copy up to date.
  virtual void ensure_host(grid_variable& v, int level = 0) = 0;
  /// After the host wrote time level `level` of `v`: the device copy is stale.
  virtual void host_wrote(grid_variable& v, int level = 0) = 0;
  /// Waits for every launched kernel.
  virtual void synchronize() = 0;

  // What the flesh counts before allocating, so that a run too large for the device is refused
  // with the figures rather than failing in its first launch. The defaults suit a backend that
  // runs on the host arrays (OpenMP).
  /// Whether kernels work on device copies of the arrays they use (CUDA, OpenCL): every time
  /// level of a variable a kernel uses, and its scratch buffer, then also takes device memory.
  virtual bool mirrors_on_device() const { return false; }
  /// Bytes of device memory free for those copies; nullopt: unknown (nothing is refused).
  virtual std::optional<std::size_t> device_memory_available() const { return std::nullopt; }
  /// The largest single buffer the device allows (OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  /// nullopt: no limit but the memory itself.
  virtual std::optional<std::size_t> largest_device_allocation() const { return std::nullopt; }
};

}  // namespace opuntia
