#pragma once
// Planes copied into shared memory by the tensor memory accelerator (TMA, Hopper and later): the
// ring of templates/cuda/3dblock.h.tpl (3dblock_ring). One thread issues one bulk tensor copy of
// a plane's box, the block's points and their halo, from a tensor map of the array that the
// launcher encodes; the copy engine fills the part of the box off the grid with zeros, and
// completes the copy on an mbarrier of the plane's slot, which the block's threads wait on. No
// other thread issues copies or holds their addresses: on an H100 this took the hand-written
// radius-4 ring from 72-73% to 79-81% of copy in fp64, and to 80-85% with two 512-thread blocks
// an SM (bench/RESULTS.md, 2026-11-23: 62da8a1, and the re-run of 7951331). Where the device code is built for an older GPU,
// OPUNTIA_CUDA_TENSOR_COPIES is 0 there and the template copies with cp.async instead.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"
#include "thorns/CaKernel/backends/tensor_boxes.hpp"  // tensor_box_fits: which boxes the copy engine moves
#include "thorns/CaKernel/backends/tensor_map_encoding.hpp"  // encode_plane_boxes: the map, as OpenCL's rings have it

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define OPUNTIA_CUDA_TENSOR_COPIES 1
#else
#define OPUNTIA_CUDA_TENSOR_COPIES 0
#endif

namespace opuntia::cuda {

/// The 32-bit shared-memory address of p, as the mbarrier and bulk-copy instructions take it.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// Makes b[0] .. b[n - 1] mbarriers that each complete a phase when `count` threads have arrived
/// and every byte they announced has landed; one fence after all of them makes them visible to
/// the copy engine, and the block's threads may use them once the block has met at a barrier.
__device__ __forceinline__ void barriers_init(std::uint64_t* b, int n, unsigned count) {
#if OPUNTIA_CUDA_TENSOR_COPIES
  for (int i = 0; i < n; ++i)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(b + i)), "r"(count) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)b, (void)n, (void)count;
  __trap();
#endif
}

/// Arrives on b, announcing `bytes` that copies completing on b will bring.
__device__ __forceinline__ void barrier_expect_bytes(std::uint64_t* b, unsigned bytes) {
#if OPUNTIA_CUDA_TENSOR_COPIES
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(b)), "r"(bytes) : "memory");
#else
  (void)b, (void)bytes;
  __trap();
#endif
}

/// Waits until the phase of b with the given parity (0 for its first, 1 for its second, ...)
/// has completed.
__device__ __forceinline__ void barrier_wait(std::uint64_t* b, unsigned parity) {
#if OPUNTIA_CUDA_TENSOR_COPIES
  asm volatile(
      "{\n .reg .pred done;\n WAIT_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT_%=;\n}" ::"r"(
          shared_address(b)),
      "r"(parity)
      : "memory");
#else
  (void)b, (void)parity;
  __trap();
#endif
}

/// The L2 cache policy of the ring's copies: the lines they bring are kept after others
/// (evict_last). A box's halo rows are the points of the neighbouring blocks, which copy them
/// again when they reach that plane, and with more blocks than the GPU holds at once (the
/// radius-4 star in fp64: 3 slabs a column, 3.88 waves) a neighbour may reach it much later;
/// meanwhile the output's lines, written once and never read, would push them out under the
/// normal policy. Radius 4 in fp64 on the H100: 84.7% of copy with the normal policy, 86.5%
/// with evict_last, 50% with evict_first (bench/RESULTS.md, 2026-11-25, e7ba4b2 and 8947c68).
__device__ __forceinline__ std::uint64_t keep_in_l2_policy() {
  std::uint64_t policy = 0;
#if OPUNTIA_CUDA_TENSOR_COPIES
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));  // no side effect: not volatile
#endif
  return policy;
}

/// Starts copying the box of `map` whose first element is (x, y, z) (negative or past the grid:
/// those elements become zeros) to dst, 128-byte aligned in shared memory, under the L2 cache
/// policy `policy` (keep_in_l2_policy); completes on b.
__device__ __forceinline__ void copy_box_async(void* dst, const CUtensorMap* map, int x, int y, int z, std::uint64_t* b,
                                               std::uint64_t policy) {
#if OPUNTIA_CUDA_TENSOR_COPIES
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(shared_address(dst)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(shared_address(b)), "l"(policy)
      : "memory");
#else
  (void)dst, (void)map, (void)x, (void)y, (void)z, (void)b, (void)policy;
  __trap();
#endif
}

/// The tensor map of an ni x nj x nk array of T (x contiguous, planes `plane_rows` rows apart:
/// nj or more) in boxes of box_x x box_y x box_z elements. The array must start on a 16-byte
/// boundary and its rows must be a multiple of 16 bytes (the launcher takes this path only
/// then); throws where the driver refuses.
template <typename T>
CUtensorMap plane_box_map(const T* array, int ni, int nj, int nk, int plane_rows, int box_x, int box_y, int box_z = 1) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::int64_t>,
                "tensor copies of double, float, 32- or 64-bit integers");
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    OPUNTIA_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr)
      throw std::runtime_error("the CUDA driver has no cuTensorMapEncodeTiled (the TMA copies of 3dblock_ring need CUDA 12 or later)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  CUtensorMap map;
  const CUresult result = encode_plane_boxes(encode, map, const_cast<T*>(array), static_cast<std::uint64_t>(ni),
                                             static_cast<std::uint64_t>(nj), static_cast<std::uint64_t>(nk),
                                             static_cast<std::uint64_t>(plane_rows), sizeof(T),
                                             static_cast<std::uint32_t>(box_x), static_cast<std::uint32_t>(box_y),
                                             static_cast<std::uint32_t>(box_z));
  if (result != CUDA_SUCCESS) throw std::runtime_error(refused_plane_boxes(box_x, box_y, ni, nj, nk, sizeof(T), result));
  return map;
}

}  // namespace opuntia::cuda
