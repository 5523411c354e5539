#pragma once
// The flesh's view of the CaKernel runtime (thorns/CaKernel implements it): launch a kernel
// on the chosen backend, and keep host and device copies of grid functions coherent.
#include <memory>
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
};

}  // namespace opuntia
