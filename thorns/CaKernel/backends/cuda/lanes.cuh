#pragma once
// Several consecutive x points per thread, moved as one access: the generated CUDA kernels
// (templates/cuda/3dblock.h.tpl) give each thread N aligned points of a row and load them with
// one 16-byte instruction where the type allows (double2, float4; float2 where the rows start on 8 bytes only): on an H100 this took the
// generated 7-point star from 80% to 92-95% of the copy bandwidth (bench/RESULTS.md). Elements
// are copied member by member: reinterpreting the array's bytes would put it in local memory
// instead of registers.
#include <atomic>
#include <type_traits>
#include <utility>

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "thorns/CaKernel/backends/cuda/check.hpp"

namespace opuntia::cuda {

/// N consecutive elements of one row, kept in registers when indexed by constants.
template <typename T, int N>
struct lanes {
  T e[N];
};

/// The N elements at p, which is aligned to N * sizeof(T), through the read-only data cache, as
/// one instruction. Written as inline PTX without side effects: the compiler drops the load when
/// its values are not used and loads once what several points read, even across the stores
/// between them (it keeps every __ldg, and reloads after each store). The arrays read this way
/// are not written by the same kernel (the body's I3D_l reads cached variables only).
template <int N, typename T>
__device__ __forceinline__ lanes<T, N> load_lanes(const T* p) {
  lanes<T, N> r;
  if constexpr (N == 2 && std::is_same_v<T, double>) {
    asm("ld.global.nc.v2.f64 {%0, %1}, [%2];" : "=d"(r.e[0]), "=d"(r.e[1]) : "l"(p));
  } else if constexpr (N == 1 && std::is_same_v<T, double>) {
    asm("ld.global.nc.f64 %0, [%1];" : "=d"(r.e[0]) : "l"(p));
  } else if constexpr (N == 4 && std::is_same_v<T, float>) {
    asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(r.e[0]), "=f"(r.e[1]), "=f"(r.e[2]), "=f"(r.e[3]) : "l"(p));
  } else if constexpr (N == 2 && std::is_same_v<T, float>) {
    asm("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(r.e[0]), "=f"(r.e[1]) : "l"(p));
  } else if constexpr (N == 1 && std::is_same_v<T, float>) {
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(r.e[0]) : "l"(p));
  } else {
#pragma unroll
    for (int q = 0; q < N; ++q) r.e[q] = __ldg(p + q);
  }
  return r;
}

/// Stores N elements at p (shared or global memory), aligned to N * sizeof(T), as one
/// instruction where the type allows.
template <typename T, int N>
__device__ __forceinline__ void store_lanes(T* p, const T (&v)[N]) {
  if constexpr (N == 2 && std::is_same_v<T, double>) {
    *reinterpret_cast<double2*>(p) = make_double2(v[0], v[1]);
  } else if constexpr (N == 4 && std::is_same_v<T, float>) {
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  } else if constexpr (N == 2 && std::is_same_v<T, float>) {
    *reinterpret_cast<float2*>(p) = make_float2(v[0], v[1]);
  } else {
#pragma unroll
    for (int q = 0; q < N; ++q) p[q] = v[q];
  }
}

/// The N elements at p in shared memory, aligned to N * sizeof(T), as one instruction where the
/// type allows.
template <int N, typename T>
__device__ __forceinline__ lanes<T, N> load_lanes_shared(const T* p) {
  lanes<T, N> r;
  if constexpr (N == 2 && std::is_same_v<T, double>) {
    const double2 v = *reinterpret_cast<const double2*>(p);
    r.e[0] = v.x, r.e[1] = v.y;
  } else if constexpr (N == 4 && std::is_same_v<T, float>) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    r.e[0] = v.x, r.e[1] = v.y, r.e[2] = v.z, r.e[3] = v.w;
  } else if constexpr (N == 2 && std::is_same_v<T, float>) {
    const float2 v = *reinterpret_cast<const float2*>(p);
    r.e[0] = v.x, r.e[1] = v.y;
  } else {
#pragma unroll
    for (int q = 0; q < N; ++q) r.e[q] = p[q];
  }
  return r;
}

/// Starts copying the N elements at src (global memory) to dst (shared memory), both aligned to
/// N * sizeof(T) (4, 8 or 16 bytes), without registers (cp.async): the copy completes at a later
/// __pipeline_wait_prior. Where !valid, dst is filled with zeros instead; src must still be an
/// address in the array.
template <int N, typename T>
__device__ __forceinline__ void copy_lanes_async(T* dst, const T* src, bool valid) {
  static_assert(N * sizeof(T) == 4 || N * sizeof(T) == 8 || N * sizeof(T) == 16,
                "cp.async copies 4, 8 or 16 bytes");
  __pipeline_memcpy_async(dst, src, N * sizeof(T), valid ? 0 : N * sizeof(T));
}

/// A thread's N points of a row in a variable the kernel writes, as the body sees them: its
/// I3D(v, 0, 0, 0) reads and writes them here, in registers (a point is read from memory at its
/// first use, a load the compiler drops when the body only writes it), and they leave together
/// after the row's last point, as one 16-byte store when the body touched every point. Stored
/// point by point, a warp's N scalar stores each reach 16 sectors (a quarter or half of each
/// written), which kept the L2 cache at 95-98% of its throughput on the H100 (Nsight Compute).
/// Points the body never touched (past an edge, or under a condition of its own) keep their
/// memory.
template <typename T, int N>
struct staged_lanes {
  T e[N];
  unsigned touched = 0;

  /// Point `lane` of the row; p is its place in memory.
  __device__ __forceinline__ T* point(int lane, const T* p) {
    if (!(touched >> lane & 1u)) {
      e[lane] = *p;
      touched |= 1u << lane;
    }
    return &e[lane];
  }

  /// Writes the touched points to the row at p, aligned to N * sizeof(T).
  __device__ __forceinline__ void store(T* p) const {
    if (touched == (1u << N) - 1u) {
      store_lanes(p, e);
    } else {
#pragma unroll
      for (int q = 0; q < N; ++q)
        if (touched >> q & 1u) p[q] = e[q];
    }
  }
};

/// The lanes per thread for a grid function of type T: as many as fill 16 bytes.
template <typename T>
inline constexpr int lanes_per_16_bytes = 16 / sizeof(T) > 0 ? static_cast<int>(16 / sizeof(T)) : 1;

/// Calls f(std::integral_constant<int, L>{}) for L the most lanes up to `widest` (a power of two)
/// that are at most `lanes` (one where `lanes` is below 2), and returns what it returns: a
/// launcher's choice at run time among the kernels it compiles, one for each power of two.
template <int widest, typename F>
decltype(auto) with_lanes(int lanes, F&& f) {
  if constexpr (widest > 1) {
    if (lanes >= widest) return f(std::integral_constant<int, widest>{});
    return with_lanes<widest / 2>(lanes, std::forward<F>(f));
  } else {
    return f(std::integral_constant<int, 1>{});
  }
}

/// The most dynamic shared memory a block may ask for on the current device
/// (cudaDevAttrMaxSharedMemoryPerBlockOptin), asked once a device (64 at most; past that, at
/// every call): the 3D launchers run no lanes whose shared planes need more.
inline int shared_bytes_optin() {
  static std::atomic<int> known_on_devices[64]{};
  int device = 0;
  OPUNTIA_CUDA_CHECK(cudaGetDevice(&device));
  if (device < 64) {
    if (const int known = known_on_devices[device].load(std::memory_order_relaxed)) return known;
  }
  int most = 0;
  OPUNTIA_CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (device < 64) known_on_devices[device].store(most, std::memory_order_relaxed);
  return most;
}

/// floor(a / n) * n for any sign of a: the first element of the aligned group holding a.
__host__ __device__ constexpr int align_down(int a, int n) { return (a >= 0 ? a / n : -((-a + n - 1) / n)) * n; }

/// Where the blocks of a launch that computes from x = lo start: the point at or below lo that
/// starts a 128-byte line (an L2 line) of a row whose point 0 lies `lead` elements into its
/// allocation. Rows padded by Driver::pad_to_cachelines put lo itself there when lo is the
/// ghost width: 256 cells and two walls then take four block columns of 64 points, not five
/// with a fifth computing one point a row (bench/RESULTS.md, 2026-11-28). The x halo left of lo
/// is the blocks' halo, as any block's.
template <typename T>
__host__ __device__ constexpr int block_origin_x(int lo, int lead) {
  constexpr int line = 128 / sizeof(T) > 0 ? static_cast<int>(128 / sizeof(T)) : 1;
  return lo - (lead + lo) % line;
}

/// a rounded up to a multiple of n (a >= 0).
__host__ __device__ constexpr int align_up(int a, int n) { return (a + n - 1) / n * n; }

/// A copy of `from` held in registers, made a 32-bit word at a time through an empty `asm` that
/// the compiler cannot see through. A kernel's parameters live in the constant parameter space;
/// given them directly, nvcc recomputes every expression of the parameters alone (a body's
/// 1/(dx*dx), say) in each plane of an unrolled slab, since loads from that space are free to
/// repeat. Given this copy, it computes them once a slab: Heat's 3dblock_unrolled went from 27
/// reciprocals to 18, and its 512^3 fp64 step on an H200 from 628 to 607 us (bench/RESULTS.md,
/// 2026-12-05).
template <typename T>
__device__ __forceinline__ T values_of(const T& from) {
  static_assert(sizeof(T) % 4 == 0);
  T to;
  const unsigned* const words_from = reinterpret_cast<const unsigned*>(&from);
  unsigned* const words_to = reinterpret_cast<unsigned*>(&to);
#pragma unroll
  for (unsigned i = 0; i < sizeof(T) / 4; ++i) {
    unsigned word = words_from[i];
    asm("" : "+r"(word));
    words_to[i] = word;
  }
  return to;
}

}  // namespace opuntia::cuda
