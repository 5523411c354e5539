// Standalone GPU experiment behind bench/RESULTS.md: hand-written designs of the 7-point (R=1)
// and radius-4 (R=4) star stencils, each checked to the bit against a plain kernel and timed
// against the copy bandwidth in the same run, in fp64 and fp32. It is where a kernel design is
// tried before it becomes a template (templates/cuda/); nothing here is generated.
//   build/experiments/gpu_star_designs [n = 512] [repetitions = 10]   (R4ONLY=1: skip R=1;
//   CPLB=1 / CPM=1 / TMA=1 / PACE=1 / PD=1 / HALO=1 / AHEAD=1: only the register-cap / mbarrier /
//   tensor-copy / paced / PD-plane-slot / halo-less / planes-ahead runs)
// or on its own: nvcc -std=c++17 -O3 -arch=sm_90 --fmad=false -I flesh/include <this file>
// (it shares the mbarrier, tensor-copy and tensor-map helpers of opuntia/cuda_tensor_copy.cuh).
// Designs: plain (a thread a point), zwin (a z window in registers), cpa (a cp.async ring of
// shared planes, a point a thread), pz / pv / zv / zvr (points in z, vector loads, rows per
// thread), and cpl: a cp.async ring of shared planes copied in 16-byte groups, 16 bytes of x
// points a thread, the z window in registers fed from the ring, one 16-byte store a thread and
// plane (2026-11-23: radius 4 at 79% of copy in fp64 and 73% in fp32 on an H100, where the
// generated kernels reach 64% and 65%); cpc: cpl in a thread-block cluster stacked in y, the
// inner y halo read from the neighbours' rings (distributed shared memory), one cluster barrier
// a plane (bit-equal, but 27-42% of copy: the cluster barrier a plane costs more than the L2
// reads it saves); cpm: cpl with an mbarrier pair per ring slot instead of a block barrier a
// plane (bit-equal, 66-78% in fp64 and 69-76% in fp32 against cpl's 72-74% in the same run:
// within the runs' spread; compute-sanitizer's racecheck reports shared-memory hazards on it,
// not yet settled as real or as synchronisation through mbarriers that the tool misses); tma: cpl
// with each ring plane copied by one bulk tensor copy (TMA) that thread 0 issues, completing on an
// mbarrier a slot (2026-11-23, 62da8a1: 85% of copy in fp64 with 512-thread blocks capped at
// 64 registers, 81% uncapped, against cpl's 72-73% in the same run; 74-75% in fp32).
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

// The mbarrier and bulk tensor copy helpers and the tensor map of the template 3dblock_ring.
#include "bench/gpu_timing.hpp"
#include "thorns/CaKernel/backends/cuda/tensor_copy.cuh"

#ifndef PACE_EVERY
#define PACE_EVERY 4  // tma's pacing: the planes between two checks of the neighbours
#endif

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e = (x);                                                        \
    if (e != cudaSuccess) {                                                     \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

template <typename T, int R>
struct coef;
template <typename T>
struct coef<T, 1> {
  static __device__ __forceinline__ T w(int r) { return r == 0 ? T(-6.0) : T(1.0); }
};
template <typename T>
struct coef<T, 4> {
  static __device__ __forceinline__ T w(int r) {
    return r == 0 ? T(-3 * (205.0 / 72.0)) : r == 1 ? T(8.0 / 5.0) : r == 2 ? T(-1.0 / 5.0) : r == 3 ? T(8.0 / 315.0) : T(-1.0 / 560.0);
  }
};

// plain: one thread per point.
template <typename T, int R>
__global__ void plain(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int i = R + blockIdx.x * blockDim.x + threadIdx.x, j = R + blockIdx.y * blockDim.y + threadIdx.y;
  const int k = R + blockIdx.z;
  if (i >= n - R || j >= n - R) return;
  const long long s = n, p = (long long)n * n, c = i + s * j + p * k;
  T sum = coef<T, R>::w(0) * u[c];
#pragma unroll
  for (int r = 1; r <= R; ++r)
    sum += coef<T, R>::w(r) * ((u[c - r] + u[c + r]) + (u[c - r * s] + u[c + r * s]) + (u[c - r * p] + u[c + r * p]));
  out[c] = sum;
}

// zwin: one thread per (x, y) column, TZ planes, register window of 2R+1+PF planes.
template <typename T, int R, int TZ, int PF>
__global__ void zwin(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int i = R + blockIdx.x * blockDim.x + threadIdx.x, j = R + blockIdx.y * blockDim.y + threadIdx.y;
  const int k0 = R + blockIdx.z * TZ;
  if (i >= n - R || j >= n - R) return;
  const long long s = n, p = (long long)n * n;
  constexpr int W = 2 * R + 1 + PF;
  T w[W];
  const T* col = u + i + s * j;
#pragma unroll
  for (int d = 0; d < W - 1; ++d) {
    const int k = k0 - R + d;
    w[d + 1] = k < n ? __ldg(col + p * k) : T(0);
  }
#pragma unroll
  for (int t = 0; t < TZ; ++t) {
    const int k = k0 + t;
    if (k >= n - R) break;
#pragma unroll
    for (int d = 0; d + 1 < W; ++d) w[d] = w[d + 1];
    const int kl = k + R + PF;
    w[W - 1] = kl < n ? __ldg(col + p * kl) : T(0);
    const long long c = i + s * j + p * k;
    T sum = coef<T, R>::w(0) * w[R];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      sum += coef<T, R>::w(r) * ((__ldg(u + c - r) + __ldg(u + c + r)) + (__ldg(u + c - r * s) + __ldg(u + c + r * s)) + (w[R - r] + w[R + r]));
    out[c] = sum;
  }
}

// cpa: cp.async pipeline. Block TX x TY threads owns a TX x TY tile and TZ planes; a ring of NB
// shared planes (tile + halo), S planes in flight ahead of plane k+R; z window in registers.
template <typename T, int R, int TX, int TY, int TZ, int S>
__global__ void __launch_bounds__(TX* TY) cpa(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int SX = TX + 2 * R, SY = TY + 2 * R, NB = R + S + 1, PLANE = SX * SY;
  extern __shared__ unsigned char smem_raw[];
  T* sh = reinterpret_cast<T*>(smem_raw);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int bi = R + blockIdx.x * TX, bj = R + blockIdx.y * TY;  // first interior point of the tile
  const int k0 = R + blockIdx.z * TZ;
  const long long s = n, p = (long long)n * n;
  const int i = bi + tx, j = bj + ty;
  const bool computes = i < n - R && j < n - R;
  const int kend = min(k0 + TZ, n - R);
  // Issue the copies of plane k (global) into its ring slot.
  auto issue = [&](int k) {
    if (k < n) {
      T* dst = sh + (k % NB) * PLANE;
      const T* src = u + p * k;
      for (int h = tid; h < PLANE; h += TX * TY) {
        const int hy = h / SX, hx = h - hy * SX;
        const int gx = min(bi - R + hx, n - 1), gy = min(bj - R + hy, n - 1);
        __pipeline_memcpy_async(dst + h, src + gx + s * gy, sizeof(T));
      }
    }
    __pipeline_commit();
  };
  // Prologue: the window's first 2R planes straight from global memory; planes k0 .. k0+R+S-1
  // issued into the ring.
  T w[2 * R + 1];
  const T* col = u + min(i, n - 1) + s * min(j, n - 1);
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) w[d + 1] = __ldg(col + p * (k0 - R + d));
  for (int k = k0; k < k0 + R + S; ++k) issue(k);
  for (int k = k0; k < kend; ++k) {
    // plane k+R must have landed: issued groups up to k+R+S-1, so S-1 may stay pending.
    __pipeline_wait_prior(S - 1);
    __syncthreads();
    issue(k + R + S);  // into the slot of plane k-1, which every thread has finished with
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) w[d] = w[d + 1];
    const T* pl = sh + (k % NB) * PLANE + (ty + R) * SX + tx + R;
    w[2 * R] = sh[((k + R) % NB) * PLANE + (ty + R) * SX + tx + R];
    if (computes) {
      T sum = coef<T, R>::w(0) * w[R];
#pragma unroll
      for (int r = 1; r <= R; ++r) sum += coef<T, R>::w(r) * ((pl[-r] + pl[r]) + (pl[-r * SX] + pl[r * SX]) + (w[R - r] + w[R + r]));
      out[i + s * j + p * k] = sum;
    }
  }
  __pipeline_wait_prior(0);
}


// cpl: cp.async ring of shared planes in 16-byte groups, L = 16/sizeof(T) x points per thread,
// z window in registers fed from the ring, one vector store per thread and plane.
template <typename T> struct vec16;
template <> struct vec16<double> { using type = double2; };
template <> struct vec16<float> { using type = float4; };
template <typename T, int L>
__device__ __forceinline__ void ld16(T (&d)[L], const T* p) {
  const auto v = *reinterpret_cast<const typename vec16<T>::type*>(p);
  if constexpr (L == 2) { d[0] = v.x; d[1] = v.y; } else { d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w; }
}
template <typename T, int L>
__device__ __forceinline__ void st16(T* p, const T (&d)[L]) {
  typename vec16<T>::type v;
  if constexpr (L == 2) { v.x = d[0]; v.y = d[1]; } else { v.x = d[0]; v.y = d[1]; v.z = d[2]; v.w = d[3]; }
  *reinterpret_cast<typename vec16<T>::type*>(p) = v;
}
// What cpl, cpm and cpc share. A thread owns L x points of row j (x0 the first) and streams the
// planes through a z window w of 2R + 1 planes in registers; pl is its row in a ring plane.
template <typename T, int L, int THREADS, int SX, int SY>
__device__ __forceinline__ void copy_ring_plane(T* dst, const T* src, int tid, int bx, int by, int n) {
  constexpr int GX = SX / L, GROUPS = GX * SY;
  const long long s = n;
#pragma unroll
  for (int q = 0; q < (GROUPS + THREADS - 1) / THREADS; ++q) {
    const int g = tid + q * THREADS;
    if (g < GROUPS) {
      const int gy = g / GX, gx = g - gy * GX;
      int x = bx + gx * L;
      x = x < 0 ? 0 : x > n - L ? n - L : x;
      const int y = min(by + gy, n - 1);
      __pipeline_memcpy_async(dst + gy * SX + gx * L, src + x + s * y, 16);
    }
  }
}
// The window's first 2R planes, k0 - R .. k0 + R - 1, from global memory into w[1 .. 2R].
template <typename T, int R, int L>
__device__ __forceinline__ void load_window(T (&w)[2 * R + 1][L], const T* u, int x0, int j, int k0, int n) {
  const long long s = n, p = (long long)n * n;
  const T* col = u + min(x0, n - L) + s * min(j, n - 1);
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) ld16<T, L>(w[d + 1], col + p * (k0 - R + d));
}
// Which of the thread's points compute (lane_in), and whether all do.
template <int R, int L>
__device__ __forceinline__ bool lanes_inside(bool (&lane_in)[L], int x0, int j, int n) {
#pragma unroll
  for (int l = 0; l < L; ++l) lane_in[l] = x0 + l >= R && x0 + l < n - R && j < n - R;
  bool all_in = true;
#pragma unroll
  for (int l = 0; l < L; ++l) all_in = all_in && lane_in[l];
  return all_in;
}
// Slides the window down one plane and takes its newest from `newest`.
template <typename T, int R, int L>
__device__ __forceinline__ void slide_window(T (&w)[2 * R + 1][L], const T* newest) {
#pragma unroll
  for (int d = 0; d < 2 * R; ++d)
#pragma unroll
    for (int l = 0; l < L; ++l) w[d][l] = w[d + 1][l];
  ld16<T, L>(w[2 * R], newest);
}
// The 16-byte groups of the row around the thread's points; its own group from the window.
template <typename T, int R, int L>
__device__ __forceinline__ void load_x_neighbours(T (&xr)[2 * ((R + L - 1) / L) + 1][L], const T* pl,
                                                  const T (&w)[2 * R + 1][L]) {
  constexpr int C = (R + L - 1) / L;
#pragma unroll
  for (int g = 0; g < 2 * C + 1; ++g) if (g != C) ld16<T, L>(xr[g], pl + (g - C) * L);
#pragma unroll
  for (int l = 0; l < L; ++l) xr[C][l] = w[R][l];
}
// The thread's groups in the R rows above and below its own, yr[R -+ r] (yr[R] is not read).
template <typename T, int R, int L, int SX>
__device__ __forceinline__ void load_y_neighbours(T (&yr)[2 * R + 1][L], const T* pl) {
#pragma unroll
  for (int r = 1; r <= R; ++r) { ld16<T, L>(yr[R - r], pl - r * SX); ld16<T, L>(yr[R + r], pl + r * SX); }
}
// The thread's points from the window, the row groups xr and the y neighbours yr.
template <typename T, int R, int L>
__device__ __forceinline__ void star_points(T (&o)[L], const T (&w)[2 * R + 1][L], const T (&xr)[2 * ((R + L - 1) / L) + 1][L],
                                            const T (&yr)[2 * R + 1][L]) {
  constexpr int RA = (R + L - 1) / L * L;
#pragma unroll
  for (int l = 0; l < L; ++l) {
    T sum = coef<T, R>::w(0) * w[R][l];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
      const int a = RA + l - r, b = RA + l + r;
      sum += coef<T, R>::w(r) * ((xr[a / L][a % L] + xr[b / L][b % L]) + (yr[R - r][l] + yr[R + r][l]) + (w[R - r][l] + w[R + r][l]));
    }
    o[l] = sum;
  }
}
// The points that compute, stored at dst: one 16-byte store where all do.
template <typename T, int L>
__device__ __forceinline__ void store_points(T* dst, const T (&o)[L], const bool (&lane_in)[L], bool all_in) {
  if (all_in) st16<T, L>(dst, o);
  else {
#pragma unroll
    for (int l = 0; l < L; ++l) if (lane_in[l]) dst[l] = o[l];
  }
}
template <typename T, int R, int TX, int TY, int TZ, int S, int MINB = 1>
__global__ void __launch_bounds__(TX* TY, MINB) cpl(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int L = 16 / sizeof(T), RA = (R + L - 1) / L * L;
  constexpr int SX = TX * L + 2 * RA, SY = TY + 2 * R, PLANE = SX * SY;
  constexpr int NB = R + S + 1, NG = 2 * RA / L + 1;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* sh = reinterpret_cast<T*>(smem_raw);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int x0 = (blockIdx.x * TX + tx) * L;
  const int bx = blockIdx.x * TX * L - RA, by = blockIdx.y * TY;
  const int j = R + by + ty;
  const int k0 = R + blockIdx.z * TZ, kend = min(k0 + TZ, n - R);
  const long long s = n, p = (long long)n * n;
  const auto issue = [&](int k, int slot) {
    if (k < n) copy_ring_plane<T, L, TX * TY, SX, SY>(sh + slot * PLANE, u + p * k, tid, bx, by, n);
    __pipeline_commit();
  };
  T w[2 * R + 1][L];
  load_window<T, R, L>(w, u, x0, j, k0, n);
#pragma unroll
  for (int q = 0; q < R + S; ++q) issue(k0 + q, q);
  bool lane_in[L];
  const bool all_in = lanes_inside<R, L>(lane_in, x0, j, n);
  int slot = 0;
  const int row = (ty + R) * SX + RA + tx * L;
#pragma unroll 1
  for (int k = k0; k < kend; ++k) {
    __pipeline_wait_prior(S - 1);
    __syncthreads();
    issue(k + R + S, slot == 0 ? NB - 1 : slot - 1);
    int sR = slot + R; sR = sR >= NB ? sR - NB : sR;
    slide_window<T, R, L>(w, sh + sR * PLANE + row);
    const T* pl = sh + slot * PLANE + row;
    T xr[NG][L];
    load_x_neighbours<T, R, L>(xr, pl, w);
    T yr[2 * R + 1][L];
    load_y_neighbours<T, R, L, SX>(yr, pl);
    T o[L];
    star_points<T, R, L>(o, w, xr, yr);
    store_points<T, L>(out + x0 + s * j + p * k, o, lane_in, all_in);
    slot = slot + 1 == NB ? 0 : slot + 1;
  }
  __pipeline_wait_prior(0);
}

// cpm: cpl without a block barrier a plane. Each ring slot has two mbarriers: `full` completes
// when every thread's copies into it have landed (cp.async.mbarrier.arrive.noinc), `empty` when
// every warp has computed the plane it held. A thread waits for a slot's `full` before reading
// it and for its `empty` before copying into it again, so warps drift apart by up to D + 1
// planes (D extra slots) instead of meeting at a barrier every plane.
using opuntia::cuda::barrier_wait;
using opuntia::cuda::barriers_init;
using opuntia::cuda::shared_address;
__device__ __forceinline__ void mbar_arrive(std::uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(b)) : "memory");
}
__device__ __forceinline__ void mbar_arrive_copies(std::uint64_t* b) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(shared_address(b)) : "memory");
}
template <typename T, int R, int TX, int TY, int TZ, int S, int D>
__global__ void __launch_bounds__(TX* TY) cpm(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int L = 16 / sizeof(T), RA = (R + L - 1) / L * L;
  constexpr int SX = TX * L + 2 * RA, SY = TY + 2 * R, PLANE = SX * SY;
  constexpr int NB = R + S + 1 + D, NG = 2 * RA / L + 1, THREADS = TX * TY, WARPS = THREADS / 32;
  static_assert(THREADS % 32 == 0, "whole warps");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  __shared__ std::uint64_t full[NB], empty[NB];
  T* sh = reinterpret_cast<T*>(smem_raw);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int x0 = (blockIdx.x * TX + tx) * L;
  const int bx = blockIdx.x * TX * L - RA, by = blockIdx.y * TY;
  const int j = R + by + ty;
  const int k0 = R + blockIdx.z * TZ, kend = min(k0 + TZ, n - R);
  const long long s = n, p = (long long)n * n;
  if (tid == 0) barriers_init(full, NB, THREADS), barriers_init(empty, NB, WARPS);
  __syncthreads();
  int issue_slot = 0, issue_fill = 0, k_issue = k0;
  const auto issue = [&] {
    if (issue_fill > 0) barrier_wait(&empty[issue_slot], (issue_fill - 1) & 1);
    if (k_issue < n) copy_ring_plane<T, L, THREADS, SX, SY>(sh + issue_slot * PLANE, u + p * k_issue, tid, bx, by, n);
    mbar_arrive_copies(&full[issue_slot]);
    ++k_issue;
    if (++issue_slot == NB) issue_slot = 0, ++issue_fill;
  };
  T w[2 * R + 1][L];
  load_window<T, R, L>(w, u, x0, j, k0, n);
#pragma unroll 1
  for (int q = 0; q < R + S; ++q) issue();
#pragma unroll 1
  for (int q = 0; q < R; ++q) barrier_wait(&full[q], 0);
  bool lane_in[L];
  const bool all_in = lanes_inside<R, L>(lane_in, x0, j, n);
  int slot = 0, window_slot = R, window_fill = 0;
  const int row = (ty + R) * SX + RA + tx * L;
#pragma unroll 1
  for (int k = k0; k < kend; ++k) {
    issue();
    barrier_wait(&full[window_slot], window_fill & 1);
    slide_window<T, R, L>(w, sh + window_slot * PLANE + row);
    if (++window_slot == NB) window_slot = 0, ++window_fill;
    const T* pl = sh + slot * PLANE + row;
    T xr[NG][L];
    load_x_neighbours<T, R, L>(xr, pl, w);
    T yr[2 * R + 1][L];
    load_y_neighbours<T, R, L, SX>(yr, pl);
    __syncwarp();
    if ((tid & 31) == 0) mbar_arrive(&empty[slot]);
    T o[L];
    star_points<T, R, L>(o, w, xr, yr);
    store_points<T, L>(out + x0 + s * j + p * k, o, lane_in, all_in);
    slot = slot + 1 == NB ? 0 : slot + 1;
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// tma: cpl with each ring plane copied by the tensor memory accelerator: one thread issues one
// bulk tensor copy of the plane's box (points and halo; off the grid it is filled with zeros),
// which completes on the slot's `full` mbarrier; no copy instructions, addresses or group
// registers in the other threads. WS = false: one block barrier a plane before its slot is
// refilled (as cpl); WS = true: an `empty` mbarrier per slot instead (as cpm), D extra slots.
// Pacing (PACE > 0, 2026-11-25, 502f9f1): before each plane it issues, a block
// publishes how many it has issued in progress[block] (epoch * 4096 + planes, epoch counting
// launches, so nothing is reset between launches) and, every kPaceEvery planes, waits until
// every started neighbour in x and y (same slab) has issued at least this plane - PACE: the halo
// lines that one block brings are then still in the L2 when its neighbours copy them. The block
// furthest behind never waits and every count is current, so there is no deadlock.
// marks (if not null): the globaltimer when each block issues planes 0, 64, 128, ... of its
// slab, from which report_drift prints how far neighbouring blocks drift apart.
// Measured (H100, fp32, whole columns, RESULTS.md): with AHEAD 2 (S 2) the blocks keep within a
// plane of their neighbours unpaced (76% of copy); with S 3 they drift (32-43 planes, 55%) and
// pacing holds them together (PACE 8: 71%), but no paced ring beat the unpaced S 2 one.
constexpr int kMarkEvery = 64, kMarks = 9, kPaceEvery = PACE_EVERY;
// A block's progress on a line of its own: with the counters packed, the polls and stores of 512
// blocks on 16 lines made a plane 5x slower.
constexpr int kProgressStride = 32;
__device__ __forceinline__ int load_volatile(const int* p) {
  int v;
  asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void store_volatile(int* p, int v) {
  asm volatile("st.volatile.global.b32 [%0], %1;" ::"l"(p), "r"(v));
}
__device__ __forceinline__ unsigned long long global_time() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
struct pacing {
  int* progress;
  int epoch;
  unsigned long long* marks;
};
// Called by warp 0 before thread 0 issues plane `issued` of the slab: lanes 0-7 check one
// neighbour each against the progress that they loaded at the previous check (so that the load's
// latency is off the block's path; polled again only when it fails), and load it again for the
// next check; lane 0 publishes this block's progress.
template <int PACE>
__device__ __forceinline__ void pace_issue(const pacing& pc, int issued, int& pending) {
  const int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x, lane = threadIdx.x % 32;
  if (pc.marks && lane == 0 && issued % kMarkEvery == 0 && issued / kMarkEvery < kMarks)
    pc.marks[block * kMarks + issued / kMarkEvery] = global_time();
  if (PACE == 0) return;
  const int base = pc.epoch * 4096, need = base + issued - PACE;
  if (issued % kPaceEvery != 0) {  // publish only (so that a neighbour's check never waits on a stale count)
    if (lane == 0) store_volatile(pc.progress + block * kProgressStride, base + issued + 1);
    return;
  }
  const int n = lane < 4 ? lane : lane + 1, x = (int)blockIdx.x + n % 3 - 1, y = (int)blockIdx.y + n / 3 - 1;
  if (lane < 8 && x >= 0 && y >= 0 && x < (int)gridDim.x && y < (int)gridDim.y) {
    const int* p = pc.progress + ((blockIdx.z * gridDim.y + y) * gridDim.x + x) * kProgressStride;
    for (int v = pending; v >= base && v < need; v = load_volatile(p)) __nanosleep(64);
    pending = load_volatile(p);
  }
  __syncwarp();
  if (lane == 0) store_volatile(pc.progress + block * kProgressStride, base + issued + 1);
}

// PD > 1 (2026-11-25, 0c2f1b4): each ring slot holds PD consecutive planes, copied by
// one tensor copy of a box PD planes deep, so that the block waits, meets and issues once every
// PD planes instead of every plane (S counts slots ahead).
// HALO != 3 (timing only, results wrong): the copies take the x halo only where HALO & 1 and the
// y halo only where HALO & 2, to measure what the halo's reads cost.
// XS (2026-11-25, f7ee6d9): the x halo copied apart from the rest, so that every row
// of the main box (the points and the y halo, TX L wide) starts a 128-byte line: a slot is the
// main box (pitch TX L) and two boxes of the x halo, RA x TY each, copied from map_x; a thread
// finds its x neighbours' groups in the main box or in a halo box.
template <typename T, int R, int TX, int TY, int TZ, int S, bool WS, int D, int MINB = 0, int PACE = 0, int PD = 1, int HALO = 3,
          bool XS = false>
__global__ void __launch_bounds__(TX* TY, MINB) tma(const __grid_constant__ CUtensorMap map, const __grid_constant__ CUtensorMap map_x,
                                               const T* __restrict__ u, T* __restrict__ out, int n, const pacing pc) {
  static_assert(R % PD == 0 && (PD == 1 || !WS), "whole slots of the z halo; empty barriers a plane only");
  constexpr int L = 16 / sizeof(T), RA = (R + L - 1) / L * L;
  constexpr int SX = TX * L + 2 * RA, SY = TY + 2 * R, PLANE = SX * SY;
  constexpr int NB = R / PD + S + 1 + (WS ? D : 0), NG = 2 * RA / L + 1, THREADS = TX * TY, WARPS = THREADS / 32;
  // XS: a slot's main box (MX x SY) and its two x halo boxes (RA x TY).
  constexpr int MX = TX * L, MAIN = MX * SY, XHALO = RA * TY, SLOT = XS ? MAIN + 2 * XHALO : PLANE;
  constexpr unsigned PLANE_BYTES = SLOT * sizeof(T);
  static_assert(PLANE_BYTES % 128 == 0 && THREADS % 32 == 0 && (XHALO * sizeof(T)) % 128 == 0, "slots and boxes 128-byte aligned, whole warps");
  extern __shared__ __align__(128) unsigned char tma_smem[];
  T* sh = reinterpret_cast<T*>(tma_smem);
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(tma_smem + NB * PD * PLANE_BYTES);
  std::uint64_t* empty = full + NB;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int x0 = (blockIdx.x * TX + tx) * L;
  const int bx = blockIdx.x * TX * L - RA, by = blockIdx.y * TY;
  const int j = R + by + ty;
  const int k0 = R + blockIdx.z * TZ, kend = min(k0 + TZ, n - R), last = min(kend + R, n);  // planes k0 .. last - 1
  const long long s = n, p = (long long)n * n;
  if (tid == 0) {
    if (shared_address(sh) % 128 != 0) __trap();
    barriers_init(full, NB, 1), barriers_init(empty, NB, WARPS);
  }
  __syncthreads();
  // Planes k0 + PD t .. k0 + PD t + PD - 1 into slot t % NB (thread 0 only); with WS, after the
  // warps released its last.
  int issue_slot = 0, issue_fill = 0, k_issue = k0;
  int pending = 0;  // pacing: a neighbour's progress, loaded at the check before
  const auto issue = [&] {
    if ((PACE > 0 || pc.marks) && tid < 32 && k_issue < last) pace_issue<PACE>(pc, k_issue - k0, pending);
    if (tid == 0 && k_issue < last) {
      if (WS && issue_fill > 0) barrier_wait(&empty[issue_slot], (issue_fill - 1) & 1);
      constexpr unsigned box_bytes = XS ? PLANE_BYTES * PD : (HALO & 1 ? SX : TX * L) * (HALO & 2 ? SY : TY) * PD * sizeof(T);
      opuntia::cuda::barrier_expect_bytes(&full[issue_slot], box_bytes);
      // The template's L2 policy (evict_last) since e7ba4b2 (2026-11-25); these designs were
      // measured before it, under the normal policy.
      const std::uint64_t keep = opuntia::cuda::keep_in_l2_policy();
      T* const dst = sh + issue_slot * PD * SLOT;
      if (XS) {
        opuntia::cuda::copy_box_async(dst, &map, bx + RA, by, k_issue, &full[issue_slot], keep);
        opuntia::cuda::copy_box_async(dst + PD * MAIN, &map_x, bx, by + R, k_issue, &full[issue_slot], keep);
        opuntia::cuda::copy_box_async(dst + PD * (MAIN + XHALO), &map_x, bx + RA + MX, by + R, k_issue, &full[issue_slot], keep);
      } else {
        opuntia::cuda::copy_box_async(dst, &map, HALO & 1 ? bx : bx + RA, HALO & 2 ? by : by + R, k_issue, &full[issue_slot], keep);
      }
    }
    k_issue += PD;
    if (++issue_slot == NB) issue_slot = 0, ++issue_fill;
  };
  T w[2 * R + 1][L];
  load_window<T, R, L>(w, u, x0, j, k0, n);
#pragma unroll 1
  for (int q = 0; q < R / PD + S; ++q) issue();
#pragma unroll 1
  for (int q = 0; q < R / PD && k0 + q * PD < last; ++q) barrier_wait(&full[q], 0);
  bool lane_in[L];
  const bool all_in = lanes_inside<R, L>(lane_in, x0, j, n);
  // Plane k's slot and place in it, and those of plane k + R, the windows' newest.
  int slot = 0, sub = 0, window_slot = R / PD, window_fill = 0;
  const int row = XS ? (ty + R) * MX + tx * L : (ty + R) * SX + RA + tx * L;
  // XS: where each x neighbour group g lies in a slot (g = C: the window's). With PD planes a
  // slot, its main boxes come first, then the left halo boxes, then the right ones.
  constexpr int C = (R + L - 1) / L;
  int xoff[2 * C + 1];
#pragma unroll
  for (int g = 0; g < 2 * C + 1; ++g) {
    const int gx = tx + g - C;
    xoff[g] = gx < 0 ? PD * MAIN + ty * RA + (gx + C) * L : gx >= TX ? PD * (MAIN + XHALO) + ty * RA + (gx - TX) * L : (ty + R) * MX + gx * L;
  }
#pragma unroll 1
  for (int k = k0; k < kend; ++k) {
    if (sub == 0) {
      barrier_wait(&full[window_slot], window_fill & 1);
      if (!WS) __syncthreads();
      issue();
    }
    T xr[NG][L];
    T yr[2 * R + 1][L];
    if (XS) {
      // A slot of PD planes: PD main boxes, then PD left and PD right halo boxes.
      slide_window<T, R, L>(w, sh + window_slot * PD * SLOT + sub * MAIN + row);
      const T* base = sh + slot * PD * SLOT;
#pragma unroll
      for (int g = 0; g < NG; ++g) {
        if (g == C) continue;
        const int gx = tx + g - C;
        ld16<T, L>(xr[g], base + xoff[g] + sub * (gx < 0 || gx >= TX ? XHALO : MAIN));
      }
#pragma unroll
      for (int l = 0; l < L; ++l) xr[C][l] = w[R][l];
      load_y_neighbours<T, R, L, MX>(yr, base + sub * MAIN + row);
    } else {
      slide_window<T, R, L>(w, sh + (window_slot * PD + sub) * PLANE + row);
      const T* pl = sh + (slot * PD + sub) * PLANE + row;
      load_x_neighbours<T, R, L>(xr, pl, w);
      load_y_neighbours<T, R, L, SX>(yr, pl);
    }
    if (WS) {
      __syncwarp();
      if ((tid & 31) == 0) mbar_arrive(&empty[slot]);
    }
    T o[L];
    star_points<T, R, L>(o, w, xr, yr);
    store_points<T, L>(out + x0 + s * j + p * k, o, lane_in, all_in);
    if (++sub == PD) {
      sub = 0;
      slot = slot + 1 == NB ? 0 : slot + 1;
      if (++window_slot == NB) window_slot = 0, ++window_fill;
    }
  }
}

// cpc: cpl in a thread-block cluster of C blocks stacked in y (Hopper): a block copies from L2
// only its own rows (and the outer y halo at the cluster's ends) and reads the inner y halo from
// its neighbours' rings through distributed shared memory; one cluster barrier a plane. The
// radius-4 ring is L2-bound (Nsight Compute on the generated 3dblock_ring: L2 at 86% of its
// throughput, a 32x16 tile's plane in fp64 1.9x its points); this cuts the y halo's L2 reads by
// (C - 1) / C. Measured (H100, 2026-11-23): bit-equal, 27-42% of copy against cpl's 79%.
// 16 bytes at a 32-bit address of the cluster's shared memory window (this block's or another's).
__device__ __forceinline__ void ld16_cluster(double (&d)[2], unsigned addr) {
  asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];" : "=d"(d[0]), "=d"(d[1]) : "r"(addr));
}
__device__ __forceinline__ void ld16_cluster(float (&d)[4], unsigned addr) {
  asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(addr));
}
// The address in the cluster's window of shared address a in block `rank` of the cluster.
__device__ __forceinline__ unsigned map_shared_rank_u32(unsigned a, unsigned rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}
template <typename T, int R, int TX, int TY, int TZ, int S, int C, int MINB>
__global__ void __launch_bounds__(TX* TY, MINB) cpc(const T* __restrict__ u, T* __restrict__ out, int n) {
  namespace cg = cooperative_groups;
  constexpr int L = 16 / sizeof(T), RA = (R + L - 1) / L * L;
  constexpr int SX = TX * L + 2 * RA, SY = TY + 2 * R, GX = SX / L, PLANE = SX * SY;
  constexpr int NB = R + S + 1, NG = 2 * RA / L + 1;
  static_assert(TY >= R, "a neighbour's interior must hold the y halo");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* sh = reinterpret_cast<T*>(smem_raw);
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = (int)cluster.block_rank();  // the cluster is (1, C, 1): rank is the y position
  const unsigned own = (unsigned)__cvta_generic_to_shared(sh);
  const unsigned up = rank > 0 ? map_shared_rank_u32(own, rank - 1) : own;
  const unsigned down = rank < C - 1 ? map_shared_rank_u32(own, rank + 1) : own;
  // The rows this block copies: its own, and the outer halo at the cluster's ends.
  const int row0 = rank == 0 ? 0 : R, row1 = rank == C - 1 ? SY : R + TY;
  const int groups = (row1 - row0) * GX;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int x0 = (blockIdx.x * TX + tx) * L;
  const int bx = blockIdx.x * TX * L - RA, by = blockIdx.y * TY;
  const int j = R + by + ty;
  const int k0 = R + blockIdx.z * TZ, kend = min(k0 + TZ, n - R);
  const long long s = n, p = (long long)n * n;
  const auto issue = [&](int k, int slot) {
    if (k < n) {
      T* dst = sh + slot * PLANE;
      const T* src = u + p * k;
      for (int g = tid; g < groups; g += TX * TY) {
        const int gy = row0 + g / GX, gx = g % GX;
        int x = bx + gx * L;
        x = x < 0 ? 0 : x > n - L ? n - L : x;
        const int y = min(by + gy, n - 1);
        __pipeline_memcpy_async(dst + gy * SX + gx * L, src + x + s * y, 16);
      }
    }
    __pipeline_commit();
  };
  T w[2 * R + 1][L];
  load_window<T, R, L>(w, u, x0, j, k0, n);
#pragma unroll
  for (int q = 0; q < R + S; ++q) issue(k0 + q, q);
  bool lane_in[L];
  const bool all_in = lanes_inside<R, L>(lane_in, x0, j, n);
  int slot = 0;
  const int col = RA + tx * L;
  const int row = (ty + R) * SX + col;
  // Where the y neighbours' rows lie: row ty + R - r (r = 1..R) and ty + R + r of the plane.
  // Row ty + d of a plane (d = 0..2R) in the cluster's window: this block's, or, in the inner y
  // halo, the neighbour's interior row TY away.
  constexpr unsigned ROWB = SX * sizeof(T);
  const unsigned own_row = own + (ty * SX + col) * (unsigned)sizeof(T);
  const unsigned up_shift = rank > 0 ? up - own + TY * ROWB : 0u, down_shift = rank < C - 1 ? down - own - TY * ROWB : 0u;
  const auto yaddr = [&](int d) { return own_row + d * ROWB + (ty + d < R ? up_shift : ty + d >= R + TY ? down_shift : 0u); };
  cluster.sync();
#pragma unroll 1
  for (int k = k0; k < kend; ++k) {
    __pipeline_wait_prior(S - 1);
    cluster.sync();
    issue(k + R + S, slot == 0 ? NB - 1 : slot - 1);
    int sR = slot + R; sR = sR >= NB ? sR - NB : sR;
    slide_window<T, R, L>(w, sh + sR * PLANE + row);
    const T* pl = sh + slot * PLANE + row;
    T xr[NG][L];
    load_x_neighbours<T, R, L>(xr, pl, w);
    T yr[2 * R + 1][L];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
      ld16_cluster(yr[R - r], yaddr(R - r) + slot * PLANE * (unsigned)sizeof(T));
      ld16_cluster(yr[R + r], yaddr(R + r) + slot * PLANE * (unsigned)sizeof(T));
    }
    T o[L];
    star_points<T, R, L>(o, w, xr, yr);
    store_points<T, L>(out + x0 + s * j + p * k, o, lane_in, all_in);
    slot = slot + 1 == NB ? 0 : slot + 1;
  }
  __pipeline_wait_prior(0);
  // No block leaves while a neighbour may still read its ring.
  cluster.sync();
}

// pz: plain-style 3D blocks, each thread NZ consecutive z points, all column loads issued first.
template <typename T, int R, int NZ>
__global__ void pz(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int i = R + blockIdx.x * blockDim.x + threadIdx.x, j = R + blockIdx.y * blockDim.y + threadIdx.y;
  const int k0 = R + (blockIdx.z * blockDim.z + threadIdx.z) * NZ;
  if (i >= n - R || j >= n - R || k0 >= n - R) return;
  const long long s = n, p = (long long)n * n;
  const T* col = u + i + s * j;
  T w[NZ + 2 * R];
#pragma unroll
  for (int d = 0; d < NZ + 2 * R; ++d) {
    const int k = min(k0 - R + d, n - 1);
    w[d] = __ldg(col + p * k);
  }
#pragma unroll
  for (int t = 0; t < NZ; ++t) {
    const int k = k0 + t;
    if (k >= n - R) break;
    const long long c = i + s * j + p * k;
    T sum = coef<T, R>::w(0) * w[t + R];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      sum += coef<T, R>::w(r) * ((__ldg(u + c - r) + __ldg(u + c + r)) + (__ldg(u + c - r * s) + __ldg(u + c + r * s)) + (w[t + R - r] + w[t + R + r]));
    out[c] = sum;
  }
}


// Vector helpers: VEC consecutive elements, aligned, in 16-byte pieces (component-wise, so that
// the arrays stay in registers).
template <typename T, int VEC>
__device__ __forceinline__ void vload(T (&d)[VEC], const T* p) {
  if constexpr (sizeof(T) == 8 && VEC % 2 == 0) {
#pragma unroll
    for (int q = 0; q < VEC / 2; ++q) {
      const double2 v = __ldg(reinterpret_cast<const double2*>(p) + q);
      d[2 * q] = v.x, d[2 * q + 1] = v.y;
    }
  } else if constexpr (sizeof(T) == 4 && VEC % 4 == 0) {
#pragma unroll
    for (int q = 0; q < VEC / 4; ++q) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(p) + q);
      d[4 * q] = v.x, d[4 * q + 1] = v.y, d[4 * q + 2] = v.z, d[4 * q + 3] = v.w;
    }
  } else if constexpr (sizeof(T) == 4 && VEC == 2) {
    const float2 v = __ldg(reinterpret_cast<const float2*>(p));
    d[0] = v.x, d[1] = v.y;
  } else {
#pragma unroll
    for (int q = 0; q < VEC; ++q) d[q] = __ldg(p + q);
  }
}
template <typename T, int VEC>
__device__ __forceinline__ void vstore(T* p, const T (&d)[VEC]) {
  if constexpr (sizeof(T) == 8 && VEC % 2 == 0) {
#pragma unroll
    for (int q = 0; q < VEC / 2; ++q) reinterpret_cast<double2*>(p)[q] = make_double2(d[2 * q], d[2 * q + 1]);
  } else if constexpr (sizeof(T) == 4 && VEC % 4 == 0) {
#pragma unroll
    for (int q = 0; q < VEC / 4; ++q) reinterpret_cast<float4*>(p)[q] = make_float4(d[4 * q], d[4 * q + 1], d[4 * q + 2], d[4 * q + 3]);
  } else if constexpr (sizeof(T) == 4 && VEC == 2) {
    *reinterpret_cast<float2*>(p) = make_float2(d[0], d[1]);
  } else {
#pragma unroll
    for (int q = 0; q < VEC; ++q) p[q] = d[q];
  }
}

// The VEC points from x0 of a row at p: one vector store where all lie inside [R, n - R).
template <typename T, int VEC>
__device__ __forceinline__ void store_row(T* p, const T (&d)[VEC], int x0, int n, int R) {
  if (x0 >= R && x0 + VEC <= n - R) {
    vstore<T, VEC>(p, d);
  } else {
#pragma unroll
    for (int v = 0; v < VEC; ++v)
      if (x0 + v >= R && x0 + v < n - R) p[v] = d[v];
  }
}

// pv: plain 3D grid, each thread VEC aligned consecutive x points, vector loads.
template <typename T, int R, int VEC>
__global__ void pv(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int A = (R + VEC - 1) / VEC * VEC;  // x halo rounded to whole vectors
  const int x0 = VEC * (blockIdx.x * blockDim.x + threadIdx.x), j = R + blockIdx.y * blockDim.y + threadIdx.y;
  const int k = R + blockIdx.z;
  if (x0 >= n || j >= n - R) return;
  const long long s = n, p = (long long)n * n, c = x0 + s * j + p * k;
  T xs[VEC + 2 * A];
#pragma unroll
  for (int q = 0; q < (VEC + 2 * A) / VEC; ++q) {
    T t[VEC];
    const int x = x0 - A + q * VEC;
    if (x >= 0 && x < n) vload<T, VEC>(t, u + c - A + q * VEC);
    else
#pragma unroll
      for (int v = 0; v < VEC; ++v) t[v] = 0;
#pragma unroll
    for (int v = 0; v < VEC; ++v) xs[q * VEC + v] = t[v];
  }
  T ym[R][VEC], yp[R][VEC], zm[R][VEC], zp[R][VEC];
#pragma unroll
  for (int r = 1; r <= R; ++r) {
    vload<T, VEC>(ym[r - 1], u + c - r * s);
    vload<T, VEC>(yp[r - 1], u + c + r * s);
    vload<T, VEC>(zm[r - 1], u + c - r * p);
    vload<T, VEC>(zp[r - 1], u + c + r * p);
  }
  T res[VEC];
#pragma unroll
  for (int v = 0; v < VEC; ++v) {
    T sum = coef<T, R>::w(0) * xs[A + v];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      sum += coef<T, R>::w(r) * ((xs[A + v - r] + xs[A + v + r]) + (ym[r - 1][v] + yp[r - 1][v]) + (zm[r - 1][v] + zp[r - 1][v]));
    res[v] = sum;
  }
  store_row<T, VEC>(out + c, res, x0, n, R);
}

// zv: z streamed through a register window of vectors, TZ planes, VEC x points per thread.
template <typename T, int R, int VEC, int TZ>
__global__ void zv(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int A = (R + VEC - 1) / VEC * VEC, W = 2 * R + 2;
  const int x0 = VEC * (blockIdx.x * blockDim.x + threadIdx.x), j = R + blockIdx.y * blockDim.y + threadIdx.y;
  const int k0 = R + blockIdx.z * TZ;
  if (x0 >= n || j >= n - R) return;
  const long long s = n, p = (long long)n * n;
  const T* col = u + x0 + s * j;
  T w[W][VEC];
#pragma unroll
  for (int d = 1; d < W; ++d) {
    const int k = k0 - R + d - 1;
    if (k < n) vload<T, VEC>(w[d], col + p * k);
  }
#pragma unroll
  for (int t = 0; t < TZ; ++t) {
    const int k = k0 + t;
    if (k >= n - R) break;
#pragma unroll
    for (int d = 0; d + 1 < W; ++d)
#pragma unroll
      for (int v = 0; v < VEC; ++v) w[d][v] = w[d + 1][v];
    if (k + R + 1 < n) vload<T, VEC>(w[W - 1], col + p * (k + R + 1));
    const long long c = x0 + s * j + p * k;
    T xs[VEC + 2 * A];
#pragma unroll
    for (int q = 0; q < (VEC + 2 * A) / VEC; ++q) {
      T tt[VEC];
      const int x = x0 - A + q * VEC;
      if (q == A / VEC) {
#pragma unroll
        for (int v = 0; v < VEC; ++v) tt[v] = w[R][v];
      } else if (x >= 0 && x < n) vload<T, VEC>(tt, u + c - A + q * VEC);
      else
#pragma unroll
        for (int v = 0; v < VEC; ++v) tt[v] = 0;
#pragma unroll
      for (int v = 0; v < VEC; ++v) xs[q * VEC + v] = tt[v];
    }
    T ym[R][VEC], yp[R][VEC];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
      vload<T, VEC>(ym[r - 1], u + c - r * s);
      vload<T, VEC>(yp[r - 1], u + c + r * s);
    }
    T res[VEC];
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      T sum = coef<T, R>::w(0) * w[R][v];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        sum += coef<T, R>::w(r) * ((xs[A + v - r] + xs[A + v + r]) + (ym[r - 1][v] + yp[r - 1][v]) + (w[R - r][v] + w[R + r][v]));
      res[v] = sum;
    }
    store_row<T, VEC>(out + c, res, x0, n, R);
  }
}


// zvr: zv with ROWS consecutive y rows per thread (the y neighbourhood loaded once per plane for
// all rows) and optionally per-lane scalar stores (SST).
template <typename T, int R, int VEC, int TZ, int ROWS, bool SST>
__global__ void zvr(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int A = (R + VEC - 1) / VEC * VEC, W = 2 * R + 2, NR = ROWS + 2 * R, NX = VEC + 2 * A;
  const int x0 = VEC * (blockIdx.x * blockDim.x + threadIdx.x), j0 = R + (blockIdx.y * blockDim.y + threadIdx.y) * ROWS;
  const int k0 = R + blockIdx.z * TZ;
  if (x0 >= n || j0 >= n - R) return;
  const long long s = n, p = (long long)n * n;
  T w[ROWS][W][VEC];
#pragma unroll
  for (int m = 0; m < ROWS; ++m)
#pragma unroll
    for (int d = 1; d < W; ++d) {
      const int k = k0 - R + d - 1, j = min(j0 + m, n - 1);
      if (k < n) vload<T, VEC>(w[m][d], u + x0 + s * j + p * k);
    }
#pragma unroll
  for (int t = 0; t < TZ; ++t) {
    const int k = k0 + t;
    if (k >= n - R) break;
    T nb[NR][NX];
#pragma unroll
    for (int m = 0; m < ROWS; ++m) {
#pragma unroll
      for (int d = 0; d + 1 < W; ++d)
#pragma unroll
        for (int v = 0; v < VEC; ++v) w[m][d][v] = w[m][d + 1][v];
      const int j = min(j0 + m, n - 1);
      if (k + R + 1 < n) vload<T, VEC>(w[m][W - 1], u + x0 + s * j + p * (k + R + 1));
    }
#pragma unroll
    for (int r = 0; r < NR; ++r) {
      const int j = min(j0 - R + r, n - 1);
#pragma unroll
      for (int q = 0; q < NX / VEC; ++q) {
        T tt[VEC];
        const int x = x0 - A + q * VEC;
        if (q == A / VEC && r >= R && r < R + ROWS) {
#pragma unroll
          for (int v = 0; v < VEC; ++v) tt[v] = w[r - R][R][v];
        } else if (x >= 0 && x < n) vload<T, VEC>(tt, u + x + s * j + p * k);
        else
#pragma unroll
          for (int v = 0; v < VEC; ++v) tt[v] = 0;
#pragma unroll
        for (int v = 0; v < VEC; ++v) nb[r][q * VEC + v] = tt[v];
      }
    }
#pragma unroll
    for (int m = 0; m < ROWS; ++m) {
      const int j = j0 + m;
      if (j >= n - R) break;
      const long long c = x0 + s * j + p * k;
      T res[VEC];
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        T sum = coef<T, R>::w(0) * w[m][R][v];
#pragma unroll
        for (int r = 1; r <= R; ++r)
          sum += coef<T, R>::w(r) * ((nb[R + m][A + v - r] + nb[R + m][A + v + r]) + (nb[R + m - r][A + v] + nb[R + m + r][A + v]) +
                                     (w[m][R - r][v] + w[m][R + r][v]));
        res[v] = sum;
      }
      if (!SST && x0 >= R && x0 + VEC <= n - R) vstore<T, VEC>(out + c, res);
      else
#pragma unroll
        for (int v = 0; v < VEC; ++v)
          if (x0 + v >= R && x0 + v < n - R) out[c + v] = res[v];
    }
  }
}

template <typename T>
__global__ void copyk(const T* __restrict__ a, T* __restrict__ b, long long count) {
  for (long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x; x < count; x += (long long)gridDim.x * blockDim.x) b[x] = a[x];
}

using opuntia::bench::time_best;

template <typename T>
void run_precision(int n, int reps, const char* prec) {
  const size_t count = (size_t)n * n * n, bytes = count * sizeof(T);
  T *u, *out, *ref;
  CK(cudaMalloc(&u, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMalloc(&ref, bytes));
  std::vector<T> h(count);
  unsigned x = 12345;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = T((x >> 8) * (1.0 / 16777216.0));
  }
  CK(cudaMemcpy(u, h.data(), bytes, cudaMemcpyHostToDevice));
  std::vector<T> hr(count), ho(count);
  const float copy_ms = time_best([&] { CK(cudaMemcpyAsync(out, u, bytes, cudaMemcpyDeviceToDevice)); }, reps);
  const double copy_bw = 2.0 * bytes / (copy_ms * 1e-3) / 1e9;
  std::printf("%s copy cudaMemcpy %.3f ms %.0f GB/s\n", prec, copy_ms, copy_bw);
  const float ck_ms = time_best([&] { copyk<T><<<132 * 16, 256>>>(u, out, (long long)count); }, reps);
  std::printf("%s copy kernel     %.3f ms %.0f GB/s (%.0f%%)\n", prec, ck_ms, 2.0 * bytes / (ck_ms * 1e-3) / 1e9,
              100 * (2.0 * bytes / (ck_ms * 1e-3) / 1e9) / copy_bw);

  auto report = [&](const char* name, int R, const std::function<void()>& f) {
    CK(cudaMemset(out, 0, bytes));
    const float ms = time_best(f, reps);
    CK(cudaMemcpy(ho.data(), out, bytes, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int k = R; k < n - R; ++k)
      for (int j = R; j < n - R; ++j) {
        const size_t c = (size_t)k * n * n + (size_t)j * n;
        if (std::memcmp(&ho[c + R], &hr[c + R], sizeof(T) * (n - 2 * R)) != 0) ++bad;
      }
    const double pts = double(n - 2 * R) * (n - 2 * R) * (n - 2 * R);
    const double bw = 2.0 * sizeof(T) * pts / (ms * 1e-3) / 1e9;
    std::printf("%s R=%d %-28s %.3f ms %6.0f GB/s %5.1f GLUP/s %5.1f%% of copy %s\n", prec, R, name, ms, bw, pts / (ms * 1e-3) / 1e9,
                100 * bw / copy_bw, bad ? "MISMATCH" : "bit-equal");
  };
  auto make_ref = [&](int R, const std::function<void()>& f) {
    CK(cudaMemset(out, 0, bytes));
    f();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hr.data(), out, bytes, cudaMemcpyDeviceToHost));
  };
  auto cpa_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int S) {
    const int NB = R + S + 1;
    const size_t sm = (size_t)NB * (TX + 2 * R) * (TY + 2 * R) * sizeof(T);
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
    const int m = n - 2 * R;
    return [=] { kernel<<<dim3((m + TX - 1) / TX, (m + TY - 1) / TY, (m + TZ - 1) / TZ), dim3(TX, TY), sm>>>(u, out, n); };
  };
  // The launch of a ring of 16-byte groups (cpl, cpc, cpm, tma): NB ring planes of SX x SY points
  // (the tile and its halo, the x halo in whole groups) and `extra` bytes of shared memory, which
  // the kernel is allowed; blocks of TX x TY threads, the y blocks rounded up to whole clusters of C.
  struct ring_launch_shape {
    int sx, sy;
    size_t shared;
    dim3 grid, block;
  };
  auto ring_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int NB, size_t extra = 0, int C = 1) {
    constexpr int L = 16 / sizeof(T);
    const int RA = (R + L - 1) / L * L, m = n - 2 * R;
    ring_launch_shape shape{TX * L + 2 * RA, TY + 2 * R};
    shape.shared = (size_t)NB * shape.sx * shape.sy * sizeof(T) + extra;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shape.shared));
    shape.grid = dim3((n + TX * L - 1) / (TX * L), ((m + TY - 1) / TY + C - 1) / C * C, (m + TZ - 1) / TZ);
    shape.block = dim3(TX, TY);
    return shape;
  };
  auto cpl_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int S) {
    const ring_launch_shape l = ring_launch(kernel, R, TX, TY, TZ, R + S + 1);
    return [=] { kernel<<<l.grid, l.block, l.shared>>>(u, out, n); };
  };
  auto cpc_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int S, int C) {
    const ring_launch_shape l = ring_launch(kernel, R, TX, TY, TZ, R + S + 1, 0, C);
    return [=] {
      cudaLaunchConfig_t config = {};
      config.gridDim = l.grid;
      config.blockDim = l.block;
      config.dynamicSmemBytes = l.shared;
      cudaLaunchAttribute cluster;
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = 1, cluster.val.clusterDim.y = C, cluster.val.clusterDim.z = 1;
      config.attrs = &cluster, config.numAttrs = 1;
      CK(cudaLaunchKernelEx(&config, kernel, (const T*)u, out, n));
    };
  };
#define CPC(R, TX, TY, TZ, S, C, MINB) \
  report("cpc " #TX "x" #TY " TZ" #TZ " S" #S " C" #C " B" #MINB, R, cpc_launch(cpc<T, R, TX, TY, TZ, S, C, MINB>, R, TX, TY, TZ, S, C))
#define CPLB(R, TX, TY, TZ, S, MINB) \
  report("cpl " #TX "x" #TY " TZ" #TZ " S" #S " B" #MINB, R, cpl_launch(cpl<T, R, TX, TY, TZ, S, MINB>, R, TX, TY, TZ, S))
  auto cpm_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int S, int D) {
    const ring_launch_shape l = ring_launch(kernel, R, TX, TY, TZ, R + S + 1 + D);
    return [=] { kernel<<<l.grid, l.block, l.shared>>>(u, out, n); };
  };
  // tma's pacing: the blocks' progress (zeros: epoch 0, before any launch) and their marks.
  constexpr unsigned kMaxPacedBlocks = 1u << 14;
  int* progress;
  unsigned long long* marks;
  CK(cudaMalloc(&progress, kMaxPacedBlocks * kProgressStride * sizeof(int)));
  CK(cudaMemset(progress, 0, kMaxPacedBlocks * kProgressStride * sizeof(int)));
  CK(cudaMalloc(&marks, (size_t)kMaxPacedBlocks * kMarks * sizeof(unsigned long long)));
  int epoch = 0;
  bool record_marks = false;
  dim3 marks_shape;
  // The tensor map of u for tma: the whole grid, boxes of one ring plane (the launch's tile and halo).
  auto tma_launch = [&](auto kernel, int R, int TX, int TY, int TZ, int NB, int PD = 1, int HALO = 3, bool XS = false) {
    // The ring's NB slots of PD planes and its full and empty mbarriers, one of each a slot.
    const ring_launch_shape l = ring_launch(kernel, R, TX, TY, TZ, NB * PD, 2 * NB * sizeof(std::uint64_t));
    const int L = 16 / sizeof(T), RA = (R + L - 1) / L * L;
    const CUtensorMap map = opuntia::cuda::plane_box_map(u, n, n, n, n, HALO & 1 && !XS ? l.sx : TX * L, HALO & 2 ? l.sy : TY, PD);
    const CUtensorMap map_x = opuntia::cuda::plane_box_map(u, n, n, n, n, RA, TY, PD);
    if (l.grid.x * l.grid.y * l.grid.z > kMaxPacedBlocks) std::exit((std::printf("too many blocks to pace\n"), 1));
    marks_shape = l.grid;
    int* prog = progress;
    unsigned long long* mk = marks;
    return [=, &epoch, &record_marks] {
      kernel<<<l.grid, l.block, l.shared>>>(map, map_x, u, out, n, pacing{prog, ++epoch, record_marks ? mk : nullptr});
    };
  };
  // Where each block stood when its neighbours were at the same plane: the lag, in planes, of the
  // neighbours' marks (one more launch, marks recorded).
  auto report_drift = [&](const char* name, const std::function<void()>& f) {
    record_marks = true;
    CK(cudaMemset(marks, 0xff, (size_t)kMaxPacedBlocks * kMarks * sizeof(unsigned long long)));  // ~0: not reached
    f();
    CK(cudaDeviceSynchronize());
    record_marks = false;
    const dim3 g = marks_shape;
    std::vector<unsigned long long> m((size_t)g.x * g.y * g.z * kMarks);
    CK(cudaMemcpy(m.data(), marks, m.size() * sizeof(m[0]), cudaMemcpyDeviceToHost));
    // The marks every block reached (a slab issues its planes and R more).
    int marks_reached = 0;
    while (marks_reached < kMarks && [&] {
             for (size_t b = 0; b < m.size() / kMarks; ++b)
               if (m[b * kMarks + marks_reached] == ~0ull) return false;
             return true;
           }())
      ++marks_reached;
    if (marks_reached < 2) return;
    unsigned long long t0 = ~0ull, t1 = 0;
    for (size_t b = 0; b < m.size() / kMarks; ++b)
      t0 = std::min(t0, m[b * kMarks]), t1 = std::max(t1, m[b * kMarks + marks_reached - 1]);
    // A plane's time: a block's time from its first to its last mark, averaged over the blocks.
    double span = 0;
    for (size_t b = 0; b < m.size() / kMarks; ++b) span += double(m[b * kMarks + marks_reached - 1] - m[b * kMarks]);
    const double plane_ns = span / (m.size() / kMarks) / ((marks_reached - 1) * kMarkEvery);
    std::printf("  drift %s: %.0f ns a plane, %.0f us first to last mark;", name, plane_ns, (t1 - t0) * 1e-3);
    for (int q = 0; q < marks_reached; ++q) {
      double sum = 0, worst = 0, lo = 1e300, hi = 0;
      long cnt = 0;
      for (unsigned z = 0; z < g.z; ++z)
        for (unsigned y = 0; y < g.y; ++y)
          for (unsigned x = 0; x < g.x; ++x) {
            const size_t b = ((size_t)z * g.y + y) * g.x + x;
            const double t = double(m[b * kMarks + q] - t0);
            lo = std::min(lo, t), hi = std::max(hi, t);
            for (int d = 0; d < 2; ++d) {
              const unsigned nx = x + (d == 0), ny = y + (d == 1);
              if (nx >= g.x || ny >= g.y) continue;
              const double lag = std::abs(t - double(m[(((size_t)z * g.y + ny) * g.x + nx) * kMarks + q] - t0)) / plane_ns;
              sum += lag, worst = std::max(worst, lag), ++cnt;
            }
          }
      std::printf(" @%d: %.1f/%.0f/%.0f", q * kMarkEvery, sum / cnt, worst, (hi - lo) / plane_ns);
    }
    std::printf(" (at plane: neighbours' lag mean/max, spread of all; in planes)\n");
  };
#define TMA(R, TX, TY, TZ, S, WS, D)                                                        \
  report("tma " #TX "x" #TY " TZ" #TZ " S" #S " WS" #WS " D" #D, R,                        \
         tma_launch(tma<T, R, TX, TY, TZ, S, WS, D>, R, TX, TY, TZ, R + S + 1 + (WS ? D : 0)))
#define TMAB(R, TX, TY, TZ, S, MINB)                                                        \
  report("tma " #TX "x" #TY " TZ" #TZ " S" #S " B" #MINB, R,                                \
         tma_launch(tma<T, R, TX, TY, TZ, S, false, 0, MINB>, R, TX, TY, TZ, R + S + 1))
#define TMAD(R, TX, TY, TZ, S, PD)                                                                          \
  report("tma " #TX "x" #TY " TZ" #TZ " S" #S " PD" #PD, R,                                                \
         tma_launch(tma<T, R, TX, TY, TZ, S, false, 0, 0, 0, PD>, R, TX, TY, TZ, R / PD + S + 1, PD))
#define TMAH(R, TX, TY, TZ, S, HALO)                                                                       \
  report("tma " #TX "x" #TY " TZ" #TZ " S" #S " HALO" #HALO, R,                                            \
         tma_launch(tma<T, R, TX, TY, TZ, S, false, 0, 0, 0, 1, HALO>, R, TX, TY, TZ, R + S + 1, 1, HALO))
#define TMAX(R, TX, TY, TZ, S, PD)                                                                          \
  report("tma " #TX "x" #TY " TZ" #TZ " S" #S " PD" #PD " XS", R,                                          \
         tma_launch(tma<T, R, TX, TY, TZ, S, false, 0, 0, 0, PD, 3, true>, R, TX, TY, TZ, R / PD + S + 1, PD, 3, true))
#define TMAP(R, TX, TY, TZ, S, MINB, PACE)                                                                  \
  do {                                                                                                      \
    const auto launch = tma_launch(tma<T, R, TX, TY, TZ, S, false, 0, MINB, PACE>, R, TX, TY, TZ, R + S + 1); \
    report("tma " #TX "x" #TY " TZ" #TZ " S" #S " B" #MINB " PACE" #PACE, R, launch);                     \
    report_drift(#TX "x" #TY " TZ" #TZ " PACE" #PACE, launch);                                           \
  } while (0)
#define CPM(R, TX, TY, TZ, S, D) \
  report("cpm " #TX "x" #TY " TZ" #TZ " S" #S " D" #D, R, cpm_launch(cpm<T, R, TX, TY, TZ, S, D>, R, TX, TY, TZ, S, D))
#define CPL(R, TX, TY, TZ, S) report("cpl " #TX "x" #TY " TZ" #TZ " S" #S, R, cpl_launch(cpl<T, R, TX, TY, TZ, S>, R, TX, TY, TZ, S))
#define PLAIN(R) [&] { plain<T, R><<<dim3((n - 2 * R + 31) / 32, (n - 2 * R + 7) / 8, n - 2 * R), dim3(32, 8)>>>(u, out, n); }
#define ZWIN(R, BX, BY, TZ, PF) \
  report("zwin " #BX "x" #BY " TZ" #TZ " PF" #PF, R, [&] { const int m = n - 2 * R; zwin<T, R, TZ, PF><<<dim3((m + BX - 1) / BX, (m + BY - 1) / BY, (m + TZ - 1) / TZ), dim3(BX, BY)>>>(u, out, n); })
#define PZ(R, BX, BY, BZ, NZ) \
  report("pz " #BX "x" #BY "x" #BZ " NZ" #NZ, R, [&] { const int m = n - 2 * R; pz<T, R, NZ><<<dim3((m + BX - 1) / BX, (m + BY - 1) / BY, (m + BZ * NZ - 1) / (BZ * NZ)), dim3(BX, BY, BZ)>>>(u, out, n); })
#define CPA(R, TX, TY, TZ, S) report("cpa " #TX "x" #TY " TZ" #TZ " S" #S, R, cpa_launch(cpa<T, R, TX, TY, TZ, S>, R, TX, TY, TZ, S))
#define PV(R, BX, BY, VEC) \
  report("pv " #BX "x" #BY " VEC" #VEC, R, [&] { pv<T, R, VEC><<<dim3((n / VEC + BX - 1) / BX, (n - 2 * R + BY - 1) / BY, n - 2 * R), dim3(BX, BY)>>>(u, out, n); })
#define ZV(R, BX, BY, VEC, TZ) \
  report("zv " #BX "x" #BY " VEC" #VEC " TZ" #TZ, R, [&] { const int m = n - 2 * R; zv<T, R, VEC, TZ><<<dim3((n / VEC + BX - 1) / BX, (m + BY - 1) / BY, (m + TZ - 1) / TZ), dim3(BX, BY)>>>(u, out, n); })
  constexpr int V16 = 16 / sizeof(T);
#define ZVR(R, BX, BY, VEC, TZ, ROWS, SST) \
  report("zvr " #BX "x" #BY " V" #VEC " TZ" #TZ " ROWS" #ROWS " SST" #SST, R, [&] { const int m = n - 2 * R; zvr<T, R, VEC, TZ, ROWS, SST><<<dim3((n / VEC + BX - 1) / BX, (m + BY * ROWS - 1) / (BY * ROWS), (m + TZ - 1) / TZ), dim3(BX, BY)>>>(u, out, n); })
  if (!getenv("R4ONLY")) {
    make_ref(1, PLAIN(1));
    report("plain 32x8", 1, PLAIN(1));
    CPL(1, 32, 8, 64, 1);
    CPL(1, 32, 8, 64, 2);
    CPL(1, 16, 16, 64, 2);
  }
  make_ref(4, PLAIN(4));
  if (getenv("HALO")) {  // 2026-11-25 (0c2f1b4): copies without the halo (timing only)
    if (sizeof(T) == 4) {
      TMAH(4, 8, 16, 504, 2, 3);
      TMAH(4, 8, 16, 504, 2, 1);
      TMAH(4, 8, 16, 504, 2, 0);
      TMAH(4, 8, 16, 504, 3, 0);
      TMAH(4, 8, 16, 504, 3, 1);
      TMAH(4, 8, 16, 504, 3, 2);
      TMAH(4, 8, 16, 504, 3, 3);
      TMAH(4, 16, 16, 504, 2, 0);
      TMAH(4, 16, 16, 504, 3, 1);
      TMAH(4, 16, 16, 504, 3, 3);
      TMAH(4, 8, 32, 504, 3, 3);
      TMAH(4, 8, 16, 252, 3, 3);
      TMAH(4, 8, 16, 504, 2, 3);
    } else if (!getenv("FP32ONLY")) {
      TMAH(4, 16, 16, 168, 2, 3);
      TMAH(4, 16, 16, 168, 2, 1);
      TMAH(4, 16, 16, 168, 2, 0);
    }
  } else if (getenv("XS")) {  // 2026-11-25 (f7ee6d9): the x halo in boxes of its own
    if (sizeof(T) == 4) {
      TMAH(4, 8, 16, 504, 2, 3);
      TMAX(4, 8, 16, 504, 2, 1);
      TMAX(4, 8, 16, 504, 3, 1);
      TMAX(4, 8, 16, 504, 4, 1);
      TMAX(4, 16, 16, 504, 2, 1);
      TMAX(4, 16, 16, 504, 3, 1);
      TMAX(4, 16, 16, 504, 4, 1);
      TMAX(4, 16, 16, 252, 3, 1);
      TMAX(4, 8, 32, 504, 3, 1);
      TMAX(4, 8, 32, 504, 4, 1);
      TMAX(4, 8, 16, 504, 1, 2);
      TMAX(4, 8, 16, 504, 2, 2);
      TMAH(4, 8, 16, 504, 2, 3);
    } else if (!getenv("FP32ONLY")) {
      TMAH(4, 16, 16, 168, 2, 3);
      TMAX(4, 16, 16, 168, 2, 1);
      TMAX(4, 16, 16, 168, 3, 1);
      TMAX(4, 32, 16, 168, 2, 1);
    }
  } else if (getenv("HALO4")) {  // 2026-11-25 (f7ee6d9): more planes ahead without (part of) the halo
    if (sizeof(T) == 4) {
      TMAH(4, 8, 16, 504, 2, 3);
      TMAH(4, 8, 16, 504, 3, 0);
      TMAH(4, 8, 16, 504, 4, 0);
      TMAH(4, 8, 16, 504, 5, 0);
      TMAH(4, 8, 16, 504, 4, 1);
      TMAH(4, 8, 16, 504, 4, 2);
      TMAH(4, 8, 16, 252, 4, 0);
      TMAH(4, 16, 16, 504, 4, 0);
      TMAH(4, 16, 16, 504, 4, 1);
      TMAH(4, 16, 16, 504, 4, 2);
      TMAH(4, 8, 32, 504, 4, 1);
      TMAH(4, 8, 32, 504, 4, 2);
      TMAH(4, 8, 16, 504, 2, 3);
    }
  } else if (getenv("AHEAD")) {  // 2026-11-25 (5dbcb1c): larger fp32 tiles with more planes ahead
    if (sizeof(T) == 4) {
      TMAH(4, 8, 16, 504, 2, 3);
      TMAH(4, 16, 16, 504, 3, 3);
      TMAH(4, 16, 16, 252, 2, 3);
      TMAH(4, 16, 16, 252, 3, 3);
      TMAH(4, 16, 16, 168, 3, 3);
      TMAH(4, 16, 16, 126, 3, 3);
      TMAH(4, 16, 16, 252, 4, 3);
      TMAH(4, 8, 32, 252, 3, 3);
      TMAH(4, 8, 32, 168, 3, 3);
      TMAH(4, 16, 8, 504, 3, 3);
      TMAH(4, 16, 8, 252, 3, 3);
      TMAH(4, 16, 8, 504, 4, 3);
      TMAH(4, 8, 24, 504, 3, 3);
      TMAH(4, 16, 16, 252, 3, 3);
      TMAH(4, 8, 16, 504, 2, 3);
    }
  } else if (getenv("PD")) {  // 2026-11-25 (0c2f1b4): slots of PD planes, one wait and barrier every PD planes
    if (sizeof(T) == 4) {
      TMAD(4, 8, 16, 504, 2, 1);
      TMAD(4, 8, 16, 504, 1, 2);
      TMAD(4, 8, 16, 504, 2, 2);
      TMAD(4, 8, 16, 504, 1, 4);
      TMAD(4, 8, 16, 504, 2, 4);
      TMAD(4, 8, 16, 252, 1, 2);
      TMAD(4, 16, 16, 504, 2, 1);
      TMAD(4, 16, 16, 504, 1, 2);
      TMAD(4, 8, 32, 504, 1, 2);
    } else {
      TMAD(4, 16, 16, 168, 2, 1);
      TMAD(4, 16, 16, 168, 1, 2);
      TMAD(4, 16, 16, 168, 2, 2);
      TMAD(4, 16, 16, 168, 1, 4);
    }
  } else if (getenv("PACE")) {  // 2026-11-25 (502f9f1): blocks paced against their neighbours; drift measured
    if (sizeof(T) == 4) {
      TMAP(4, 8, 16, 504, 2, 0, 0);
      TMAP(4, 8, 16, 504, 2, 0, 8);
      TMAP(4, 8, 16, 504, 3, 0, 0);
      TMAP(4, 8, 16, 504, 3, 0, 8);
      TMAP(4, 8, 16, 504, 3, 0, 16);
      TMAP(4, 8, 16, 504, 4, 0, 8);
      TMAP(4, 8, 16, 504, 4, 0, 16);
    }
  } else if (getenv("TMA")) {  // 2026-11-23 (62da8a1): ring planes copied by the tensor memory accelerator
    CPL(4, 32, 8, 63, 2);
    CPL(4, 16, 16, 63, 2);
    TMA(4, 32, 8, 63, 2, false, 0);
    TMA(4, 16, 16, 63, 2, false, 0);
    TMA(4, 16, 16, 32, 2, false, 0);
    TMA(4, 16, 16, 63, 3, false, 0);
    TMA(4, 32, 16, 63, 2, false, 0);
    TMA(4, 16, 32, 63, 2, false, 0);
    TMA(4, 16, 8, 63, 2, false, 0);
    TMA(4, 32, 8, 63, 2, true, 1);
    TMA(4, 16, 16, 63, 2, true, 0);
    TMA(4, 16, 16, 63, 2, true, 1);
    TMA(4, 16, 16, 63, 2, true, 2);
    TMA(4, 32, 16, 63, 2, true, 1);
    TMAB(4, 16, 16, 63, 2, 4);
    TMAB(4, 32, 8, 63, 2, 4);
    TMAB(4, 32, 16, 63, 2, 2);
    TMAB(4, 16, 32, 63, 2, 2);
    TMAB(4, 16, 8, 63, 2, 7);
  } else if (getenv("TMAZ")) {  // 2026-11-25: z slabs of a whole column (no z halo read twice)
    TMA(4, 16, 16, 63, 2, false, 0);
    TMA(4, 16, 16, 126, 2, false, 0);
    TMA(4, 16, 16, 252, 2, false, 0);
    TMA(4, 16, 16, 504, 2, false, 0);
    TMA(4, 32, 8, 504, 2, false, 0);
    TMAB(4, 32, 16, 63, 2, 2);
    TMAB(4, 32, 16, 252, 2, 2);
    TMAB(4, 32, 16, 504, 2, 2);
    TMAB(4, 16, 32, 504, 2, 2);
    TMAB(4, 16, 32, 252, 2, 2);
  } else if (getenv("CPM")) {  // 2026-11-23 (14ad5b0): mbarriers instead of a barrier a plane
    CPL(4, 32, 8, 63, 2);
    CPL(4, 16, 16, 63, 2);
    CPM(4, 32, 8, 63, 2, 0);
    CPM(4, 32, 8, 63, 2, 1);
    CPM(4, 32, 8, 63, 2, 2);
    CPM(4, 16, 16, 63, 2, 0);
    CPM(4, 16, 16, 63, 2, 2);
    CPM(4, 16, 16, 32, 2, 2);
    CPM(4, 32, 8, 63, 3, 2);
    CPM(4, 16, 8, 63, 2, 2);
  } else if (getenv("CPLB")) {  // 2026-11-23: larger tiles with a register cap (blocks an SM)
    CPL(4, 32, 8, 63, 2);
    CPLB(4, 32, 8, 63, 2, 4);
    CPLB(4, 32, 16, 63, 2, 2);
    CPLB(4, 16, 32, 63, 2, 1);
    CPLB(4, 16, 32, 63, 2, 2);
    CPLB(4, 16, 16, 63, 2, 4);
    CPLB(4, 8, 32, 63, 2, 4);
    CPLB(4, 16, 24, 63, 2, 2);
  } else {
    report("plain 32x8", 4, PLAIN(4));
    ZVR(4, 32, 8, V16, 32, 1, false);
    CPA(4, 32, 8, 64, 2);
    CPL(4, 32, 8, 63, 1);
    CPL(4, 32, 8, 63, 2);
    CPC(4, 32, 8, 63, 2, 2, 1);
    CPC(4, 32, 8, 63, 2, 4, 1);
    CPC(4, 32, 8, 63, 2, 8, 1);
    CPC(4, 32, 8, 63, 2, 4, 3);
    CPC(4, 16, 16, 63, 2, 2, 1);
    CPC(4, 16, 16, 63, 2, 4, 1);
    CPC(4, 16, 16, 63, 2, 4, 3);
    CPC(4, 16, 8, 63, 2, 4, 1);
    CPC(4, 32, 4, 63, 2, 4, 1);
    CPL(4, 32, 8, 63, 3);
    CPL(4, 32, 8, 126, 2);
    CPL(4, 16, 16, 63, 2);
    CPL(4, 16, 8, 63, 2);
    CPL(4, 32, 4, 63, 2);
    CPL(4, 64, 4, 63, 2);
    CPL(4, 32, 16, 63, 2);
  }
  CK(cudaFree(progress));
  CK(cudaFree(marks));
  CK(cudaFree(u));
  CK(cudaFree(out));
  CK(cudaFree(ref));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512, reps = argc > 2 ? std::atoi(argv[2]) : 10;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs, L2 %d MB, n=%d\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, n);
  run_precision<double>(n, reps, "fp64");
  run_precision<float>(n, reps, "fp32");
}
