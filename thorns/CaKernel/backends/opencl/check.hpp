#pragma once
// Every OpenCL call is checked: a failure throws with the call's text, file and line and the
// error's name. Used by the OpenCL backend (thorns/CaKernel/backends/opencl) and by the
// generated launchers (templates/opencl), as backends/cuda/check.hpp is for CUDA.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120  // OpenCL 1.2: what pocl and NVIDIA both provide
#endif
#include <CL/cl.h>

#include <stdexcept>
#include <string>

namespace opuntia::opencl {

/// The name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
inline std::string error_name(cl_int status) {
  switch (status) {
#define OPUNTIA_OPENCL_ERROR_NAME(code) \
  case code:                            \
    return #code;
    OPUNTIA_OPENCL_ERROR_NAME(CL_DEVICE_NOT_FOUND)
    OPUNTIA_OPENCL_ERROR_NAME(CL_DEVICE_NOT_AVAILABLE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_COMPILER_NOT_AVAILABLE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_OUT_OF_RESOURCES)
    OPUNTIA_OPENCL_ERROR_NAME(CL_OUT_OF_HOST_MEMORY)
    OPUNTIA_OPENCL_ERROR_NAME(CL_BUILD_PROGRAM_FAILURE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_VALUE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_PLATFORM)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_DEVICE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_CONTEXT)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_COMMAND_QUEUE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_MEM_OBJECT)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_BINARY)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_BUILD_OPTIONS)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_PROGRAM)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_KERNEL_NAME)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_KERNEL)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_ARG_INDEX)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_ARG_VALUE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_ARG_SIZE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_KERNEL_ARGS)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_WORK_DIMENSION)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_WORK_GROUP_SIZE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_WORK_ITEM_SIZE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_GLOBAL_OFFSET)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_BUFFER_SIZE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    OPUNTIA_OPENCL_ERROR_NAME(CL_INVALID_OPERATION)
#undef OPUNTIA_OPENCL_ERROR_NAME
    default:
      return "OpenCL error " + std::to_string(status);
  }
}

}  // namespace opuntia::opencl

#define OPUNTIA_OPENCL_CHECK(call)                                                                           \
  do {                                                                                                       \
    const cl_int opuntia_opencl_status = (call);                                                             \
    if (opuntia_opencl_status != CL_SUCCESS) {                                                               \
      throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) +                      \
                               ": " #call " failed: " + opuntia::opencl::error_name(opuntia_opencl_status)); \
    }                                                                                                        \
  } while (0)
