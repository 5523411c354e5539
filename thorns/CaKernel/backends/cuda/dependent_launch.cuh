#pragma once
// Programmatic dependent launch (Hopper and later): a generated kernel is launched so that it may
// start before the kernel ahead of it on the queue has finished, and its blocks wait at their
// first statement, in hardware, until that kernel has finished and its writes are visible
// (griddepcontrol.wait). What it saves is the device's time between two kernels of a queue, when
// one kernel's blocks are set up after the last of the other's have left: about 1.5 us a sweep
// of the cavity's 256^3 fp32 pressure solve and 0.7 us a tiny kernel on an H200
// (bench/experiments/launch_gap_probe.cu; bench/RESULTS.md, 2026-12-02), where the cavity's step
// had 3.0-3.5 us idle after each of its 28 kernels.
//
// Safe with any kernel ahead: every kernel launched so waits before it reads or writes memory,
// and a kernel (or copy) launched without it waits for the one ahead to finish as always. Each
// kernel lets the next start setting up its blocks as soon as all of its own have started
// (griddepcontrol.launch_dependents): the next kernel's blocks then take the places that this
// one's last blocks leave, and wait there.
//
// -DOPUNTIA_CUDA_DEPENDENT_LAUNCH=0 launches every generated kernel as a plain launch (to
// measure what it gains); on devices before compute capability 9.0, and for code compiled for
// them, the launch is plain anyway and the device code has no wait.
#include <map>
#include <mutex>
#include <utility>

#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"

#ifndef OPUNTIA_CUDA_DEPENDENT_LAUNCH
#define OPUNTIA_CUDA_DEPENDENT_LAUNCH 1
#endif

namespace opuntia::cuda {

/// A generated kernel's first statement: lets the next kernel of the queue start, then waits for
/// the one ahead of this to finish. A no-op in a plain launch.
__device__ __forceinline__ void begin_after_previous_kernel() {
#if OPUNTIA_CUDA_DEPENDENT_LAUNCH && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Whether `kernel` may be launched so on the current device: the device starts kernels early
/// (compute capability 9.0 and later) and the kernel's code has the wait, which only code
/// compiled for 9.0 or later has (a build for an older GPU running on a newer one runs code
/// compiled from that GPU's PTX, without it). Asked once a device and kernel.
inline bool dependent_launch_for(const void* kernel) {
  if (!OPUNTIA_CUDA_DEPENDENT_LAUNCH) return false;
  int device = 0;
  OPUNTIA_CUDA_CHECK(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::map<std::pair<int, const void*>, bool> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto [place, added] = known.try_emplace({device, kernel}, false);
  if (added) {
    int major = 0;
    OPUNTIA_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    cudaFuncAttributes attributes{};
    OPUNTIA_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    place->second = major >= 9 && attributes.ptxVersion >= 90;
  }
  return place->second;
}

/// Launches `kernel` on `stream` as a dependent launch where dependent_launch_for() says it may
/// (its code must begin with begin_after_previous_kernel()), as a plain launch elsewhere.
template <typename... Parameters, typename... Arguments>
void launch_after_previous(void (*kernel)(Parameters...), dim3 grid, dim3 block, unsigned shared_bytes,
                           cudaStream_t stream, Arguments&&... arguments) {
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &dependent;
  config.numAttrs = dependent_launch_for(reinterpret_cast<const void*>(kernel)) ? 1 : 0;
  OPUNTIA_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Arguments>(arguments)...));
}

}  // namespace opuntia::cuda
