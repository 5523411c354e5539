#pragma once
// Every CUDA runtime call is checked: a failure throws with the call's text, file and line.
// Used by the CUDA backend (thorns/CaKernel/backends/cuda) and by the generated launchers.
#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#define OPUNTIA_CUDA_CHECK(call)                                                                       \
  do {                                                                                                 \
    const cudaError_t opuntia_cuda_status = (call);                                                    \
    if (opuntia_cuda_status != cudaSuccess) {                                                          \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call     \
                               " failed: " + cudaGetErrorName(opuntia_cuda_status) + ": " +            \
                               cudaGetErrorString(opuntia_cuda_status));                               \
    }                                                                                                  \
  } while (0)
