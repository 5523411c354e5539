#pragma once
// Field reductions on a CUDA device (backend::reduce_box), for the CUDA backend (backend.cu).
#include <cuda_runtime.h>

#include "../../src/box_reduction.hpp"

namespace opuntia::thorns::CaKernel {

/// Enqueues one pass on `stream`, after what is before it, and returns its words once done.
reduction_result reduce_box_on_cuda(const reduction_pass& pass, cudaStream_t stream);

}  // namespace opuntia::thorns::CaKernel
