// The generated CUDA kernels' dependent launches (thorns/CaKernel/backends/cuda/dependent_launch.cuh):
// a chain of kernels, each launched as the generated ones are and starting with their first
// statement, reads exactly what the kernel before it wrote, also when the kernel before is slow to
// finish and its last blocks write what the next kernel's first blocks read; and the launches are
// dependent ones where the device and the code allow. Needs a GPU (label gpu).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <vector>

#include "thorns/CaKernel/backends/cuda/dependent_launch.cuh"

namespace {

constexpr int blocks = 528, threads = 256, points = blocks * threads;

// out[i] = in[points - 1 - i] + 1: the first blocks read what the last blocks of the kernel before
// wrote, and those last blocks are held back `ticks` clock ticks before they write.
__global__ void reversed_step(const int* in, int* out, long long ticks) {
  opuntia::cuda::begin_after_previous_kernel();
  if (blockIdx.x + 8 >= gridDim.x) {
    const long long start = clock64();
    while (clock64() - start < ticks) {
    }
  }
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = in[points - 1 - i] + 1;
}

bool has_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return count > 0;
}

TEST(dependent_launch, each_kernel_of_a_chain_reads_what_the_one_before_wrote) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  std::vector<int> host(points);
  for (int i = 0; i < points; ++i) host[i] = 7 * i;
  int *a = nullptr, *b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, points * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, points * sizeof(int)), cudaSuccess);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  // A copy ahead of the first kernel, then 40 kernels, each the dependent of the one before.
  ASSERT_EQ(cudaMemcpyAsync(a, host.data(), points * sizeof(int), cudaMemcpyHostToDevice, stream), cudaSuccess);
  constexpr int steps = 40;
  for (int s = 0; s < steps; ++s) {
    opuntia::cuda::launch_after_previous<&reversed_step>(dim3(blocks), dim3(threads), 0, stream,
                                                         static_cast<const int*>(s % 2 == 0 ? a : b), s % 2 == 0 ? b : a,
                                                         20000LL);
  }
  std::vector<int> result(points);
  ASSERT_EQ(cudaMemcpyAsync(result.data(), steps % 2 == 0 ? a : b, points * sizeof(int), cudaMemcpyDeviceToHost, stream),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  // An even number of reversals: point i holds its own start value plus one a step.
  int wrong = 0;
  for (int i = 0; i < points; ++i) wrong += result[i] != host[i] + steps;
  EXPECT_EQ(wrong, 0) << "point 0: " << result[0] << ", expected " << host[0] + steps;
  cudaStreamDestroy(stream);
  cudaFree(a);
  cudaFree(b);
}

TEST(dependent_launch, is_used_on_a_device_that_starts_kernels_early) {
  if (!has_device()) GTEST_SKIP() << "no CUDA device";
  cudaFuncAttributes attributes{};
  ASSERT_EQ(cudaFuncGetAttributes(&attributes, reversed_step), cudaSuccess);
  if (attributes.ptxVersion < 90) GTEST_SKIP() << "the build's device code is for a GPU before compute capability 9.0";
  int device = 0, major = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
  EXPECT_EQ(opuntia::cuda::dependent_launch_for<&reversed_step>(), OPUNTIA_CUDA_DEPENDENT_LAUNCH && major >= 9);
}

}  // namespace
