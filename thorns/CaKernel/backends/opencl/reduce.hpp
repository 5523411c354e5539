#pragma once
// Field reductions on an OpenCL device (backend::reduce_box), for the OpenCL backend (backend.cpp).
#include <functional>

#include "../../src/backend.hpp"
#include "thorns/CaKernel/backends/opencl/launch.hpp"

namespace opuntia::thorns::CaKernel {

/// Enqueues one pass on `device`'s queue, after what is before it, and returns its words once
/// done; `kernel_of` builds (or finds) the pass's kernels as the backend builds every program.
reduction_result reduce_box_on_opencl(backend& device,
                                      const std::function<cl_kernel(const opencl::program_request&)>& kernel_of,
                                      const reduction_pass& pass);

}  // namespace opuntia::thorns::CaKernel
