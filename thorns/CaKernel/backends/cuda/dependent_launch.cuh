#pragma once
// Programmatic dependent launch (Hopper and later): a generated kernel is launched so that it may
// start before the kernel ahead of it on the queue has finished, and its blocks wait at their
// first statement, in hardware, until that kernel has finished and its writes are visible
// (griddepcontrol.wait). What it saves is part of the device's time between two kernels of a
// queue, when one kernel's blocks are set up after the last of the other's have left: on an H200,
// 0.7 us a launch in a chain of tiny kernels and 1.5 us in a chain of 256^3 fp32 Jacobi sweeps
// (bench/experiments/launch_gap_probe.cu), 10 us of the cavity's 1.84 ms fp32 step of 28 kernels
// (0.35 us a kernel), and 2 to 4 us of a 128^3 HeatEquation or WaveToy step (bench/RESULTS.md,
// 2026-12-02, with 41423b4's trigger at each kernel's start; with the trigger at exit the 128^3
// steps varied 20% between leases, not yet measured against plain launches in one).
//
// Safe with any kernel ahead: every kernel launched so waits before it reads or writes memory,
// and a kernel (or copy) launched without it waits for the one ahead to finish as always. A
// kernel lets the next one launch once its last block has exited (the implicit trigger at each
// block's exit; the next kernel's blocks then wait for its writes to be flushed), not once its
// blocks have started: with griddepcontrol.launch_dependents as the
// first statement, CUDA's radius-4 stars in fp32 on 512^3 ran at 56% of copy (3dblock_ring) and
// 47% (3dblock) against 74% and 58% with the trigger at exit, the 7-point stars at 93-96% either
// way (H200, bench/RESULTS.md, 2026-12-02, 2e87e37); and launch_gap_probe's chains gained as much
// from the wait alone as from the early trigger.
//
// -DOPUNTIA_CUDA_DEPENDENT_LAUNCH=0 launches every generated kernel as a plain launch (to
// measure what it gains); it must be the same for the whole build (CMAKE_CUDA_FLAGS), since the
// host's choice and the kernels' wait must agree. On devices before compute capability 9.0, and
// for code compiled for them, the launch is plain anyway and the device code has no wait.
#include <atomic>
#include <utility>

#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"

#ifndef OPUNTIA_CUDA_DEPENDENT_LAUNCH
#define OPUNTIA_CUDA_DEPENDENT_LAUNCH 1
#endif

namespace opuntia::cuda {

/// A generated kernel's first statement: waits for the kernel ahead of this one on the queue to
/// finish. A no-op in a plain launch.
__device__ __forceinline__ void begin_after_previous_kernel() {
#if OPUNTIA_CUDA_DEPENDENT_LAUNCH && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Whether `kernel` may be launched so on the current device: the device starts kernels early
/// (compute capability 9.0 and later) and the kernel's code has the wait, which only code
/// compiled for 9.0 or later has (a build for an older GPU running on a newer one runs code
/// compiled from that GPU's PTX, without it). Asked once a device (64 at most; past that, at
/// every launch), as the 3D launchers keep what they ask of a device.
template <auto kernel>
bool dependent_launch_for() {
  if (!OPUNTIA_CUDA_DEPENDENT_LAUNCH) return false;
  static std::atomic<signed char> known_on_devices[64]{};  // 0: not asked; 1: no; 2: yes
  int device = 0;
  OPUNTIA_CUDA_CHECK(cudaGetDevice(&device));
  if (device < 64) {
    if (const signed char known = known_on_devices[device].load(std::memory_order_relaxed)) return known == 2;
  }
  int major = 0;
  OPUNTIA_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaFuncAttributes attributes{};
  OPUNTIA_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const bool may = major >= 9 && attributes.ptxVersion >= 90;
  if (device < 64) known_on_devices[device].store(may ? 2 : 1, std::memory_order_relaxed);
  return may;
}

/// Launches `kernel` on `stream` as a dependent launch where dependent_launch_for() says it may
/// (its code must begin with begin_after_previous_kernel()), as a plain launch elsewhere.
template <auto kernel, typename... Arguments>
void launch_after_previous(dim3 grid, dim3 block, unsigned shared_bytes, cudaStream_t stream, Arguments&&... arguments) {
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &dependent;
  config.numAttrs = dependent_launch_for<kernel>() ? 1 : 0;
  const cudaError_t launched = cudaLaunchKernelEx(&config, kernel, std::forward<Arguments>(arguments)...);
  // As cudaGetLastError() after a <<<>>> launch: the error is taken off the thread, so that no
  // later call reports it as its own.
  if (launched != cudaSuccess) cudaGetLastError();
  OPUNTIA_CUDA_CHECK(launched);
}

}  // namespace opuntia::cuda
