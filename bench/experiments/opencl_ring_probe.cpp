// Whether an OpenCL kernel on NVIDIA's platform can fill a ring of local planes with asynchronous
// copies (cp.async, issued by inline PTX, which NVIDIA's OpenCL compiler accepts), as CUDA's
// 3dblock_ring does (issue 28: on an H200 the OpenCL variants reach 63-65% of CUDA's ring for the
// radius-4 star; OpenCL has no asynchronous copy of its own that NVIDIA runs in the background).
// The radius-4 star in fp64 and in fp32 on n^3 points, each variant checked to the bit against a
// plain kernel (a work-item a point) and timed against a buffer copy of the same run:
//   ring, loads:       a work-group owns a TX x TY tile and a slab of z planes; a ring of NB
//                      local planes (tile and halo) that the work-items fill with plain loads and
//                      stores S planes ahead; each work-item's z neighbours in a window of
//                      registers (the CUDA experiment's `cpa`, bench/experiments/gpu_star_designs.cu);
//   ring, cp.async 8:  the same ring filled by cp.async.ca of 8 bytes (a point) a copy (fp64);
//   ring, cp.async 16: by cp.async.cg of 16 bytes a copy;
//   lanes:             the CUDA experiment's `cpl`: a work-item owns 16 bytes of a row (G = 2
//                      doubles or 4 floats), the ring's rows are whole 16-byte groups filled by
//                      cp.async.cg of 16 bytes (loads on other platforms), the z window holds
//                      groups, x neighbours come from the groups around the work-item's and y
//                      neighbours a group a row; tiles of TX x TY work-items and S from 1 to 3
//                      (a tile whose ring needs more than 48 KiB is skipped); "scalar stores":
//                      a store a point, where the others store a work-item's 16 bytes at once;
//   lanes, bulk rows:  `lanes` with each ring row copied by one cp.async.bulk (NVIDIA), SY copies a
//                      plane completing on an mbarrier a slot;
//   lanes, tma:        the same ring filled by one tensor copy a plane (cp.async.bulk.tensor, as
//                      CUDA's 3dblock_ring), from a CUtensorMap of u's device address (read by a
//                      kernel) encoded by CUDA's driver, loaded at run time where there is one;
//                      "fenced": the map acquired by the tensor-map proxy before its first use.
// The cp.async variants are built only where the platform's name contains "NVIDIA"; on any
// other (pocl) the variants with loads still run, so that the kernels' logic is checked there.
//   build/experiments/opencl_ring_probe [platform = NVIDIA] [n = 512] [repetitions = 10] [tz = 32]
// (PROBE_PTX_DIR=folder: each program's binary, PTX on NVIDIA's platform, written there;
// PROBE_ONLY=text: only the variants whose name contains it), or
//   build/experiments/opencl_ring_probe --compile PLATFORM FILE.cl "OPTIONS" OUT: one file's binary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "opencl_platform.hpp"
#if PROBE_TMA
#include <cuda.h>  // CUtensorMap and cuTensorMapEncodeTiled's types, for lanes_tma's map
#include <dlfcn.h>
#endif

namespace {

using experiments::check;

// R, TX, TY, S, ASYNC (0: loads; 8 or 16: the bytes of a cp.async), ASYNC_GROUP and REAL_FLOAT
// come from the build options.
const char* source = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#if REAL_FLOAT
typedef float real;
typedef float4 realg;
#define G 4
#define VLOADG vload4
#define VSTOREG vstore4
#else
typedef double real;
typedef double2 realg;
#define G 2
#define VLOADG vload2
#define VSTOREG vstore2
#endif
#define SX (TX + 2 * R)
#define SY (TY + 2 * R)
#define NB (R + S + 1)
#define PLANE (SX * SY)

/* The star's weights: the same constants in every kernel, so that all give the same bits. */
#define WEIGHT(r) \
  ((r) == 0 ? (real)-2.5 : (r) == 1 ? (real)0.5 : (r) == 2 ? (real)0.2 : (r) == 3 ? (real)0.1 : (real)(1.0 / 17.0))

/* u's device address, for the tensor map of lanes_tma (the host encodes it with CUDA's driver). */
__kernel void address_of(__global const real* u, __global ulong* address) { address[0] = (ulong)u; }

__kernel void plain(__global const real* restrict u, __global real* restrict out, int n) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i < R || j < R || k < R || i >= n - R || j >= n - R || k >= n - R) return;
  const long s = n, p = (long)n * n, c = i + s * j + p * k;
  real sum = WEIGHT(0) * u[c];
#pragma unroll
  for (int r = 1; r <= R; ++r)
    sum += WEIGHT(r) * ((u[c - r] + u[c + r]) + (u[c - r * s] + u[c + r * s]) + (u[c - r * p] + u[c + r * p]));
  out[c] = sum;
}

#if ASYNC
#define COPY_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define COPY_WAIT_PRIOR_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define COPY_WAIT_PRIOR(n) COPY_WAIT_PRIOR_(n)
/* The 32-bit shared-memory address of a local pointer: an address-space-3 pointer's value. */
#define COPY16(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((uint)(size_t)(dst)), "l"(src) : "memory")
#if ASYNC == 16
#define COPY(dst, src) COPY16(dst, src)
#else
#define COPY(dst, src) \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(size_t)(dst)), "l"(src) : "memory")
#endif
#else
#define COPY_COMMIT()
#define COPY_WAIT_PRIOR(n)
#define COPY16(dst, src) (*(__local realg*)(dst) = VLOADG(0, src))
#if ASYNC_GROUP > 1
#define COPY(dst, src) COPY16(dst, src)
#else
#define COPY(dst, src) (*(dst) = *(src))
#endif
#endif
/* Points a copy moves: 16 bytes' worth with 16-byte copies (x positions of a row in groups from
   the tile's halo start, which is 16-byte aligned when n is a multiple of G), one otherwise. */
#if ASYNC == 16 || ASYNC_GROUP > 1
#define GROUP G
#else
#define GROUP 1
#endif

/* Copies plane k (when inside the grid) into its ring slot, a group of points a work-item at a
   time; then closes the copy group, which the wait counts by. */
inline void issue(__local real* slots, __global const real* u, int n, int k, int bi, int bj, int tid) {
  if (k < n) {
    __local real* dst = slots + (k % NB) * PLANE;
    const long s = n, p = (long)n * n;
    __global const real* src = u + p * k;
    for (int h = tid; h < PLANE / GROUP; h += TX * TY) {
      const int hy = h / (SX / GROUP), hx = (h - hy * (SX / GROUP)) * GROUP;
      const int gx = min(bi - R + hx, n - GROUP), gy = min(bj - R + hy, n - 1);
      COPY(dst + hy * SX + hx, src + gx + s * gy);
    }
  }
  COPY_COMMIT();
}

/* ring: a work-item a point. */
__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void ring(__global const real* restrict u, __global real* restrict out, int n, int tz) {
  __local real planes[NB * PLANE] __attribute__((aligned(16)));
  const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * TX + tx;
  const int bi = R + get_group_id(0) * TX, bj = R + get_group_id(1) * TY;
  const int k0 = R + get_group_id(2) * tz;
  const long s = n, p = (long)n * n;
  const int i = bi + tx, j = bj + ty;
  const bool computes = i < n - R && j < n - R;
  const int kend = min(k0 + tz, n - R);
  real w[2 * R + 1];
  __global const real* col = u + min(i, n - 1) + s * min(j, n - 1);
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) w[d + 1] = col[p * (k0 - R + d)];
  for (int k = k0; k < k0 + R + S; ++k) issue(planes, u, n, k, bi, bj, tid);
  for (int k = k0; k < kend; ++k) {
    /* Plane k + R has landed: the groups up to plane k + R + S - 1 were issued, S - 1 may pend. */
    COPY_WAIT_PRIOR(S_MINUS_1);
    barrier(CLK_LOCAL_MEM_FENCE);
    issue(planes, u, n, k + R + S, bi, bj, tid); /* into plane k - 1's slot, read by all by now */
#pragma unroll
    for (int d = 0; d < 2 * R; ++d) w[d] = w[d + 1];
    __local const real* pl = planes + (k % NB) * PLANE + (ty + R) * SX + tx + R;
    w[2 * R] = planes[((k + R) % NB) * PLANE + (ty + R) * SX + tx + R];
    if (computes) {
      real sum = WEIGHT(0) * w[R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        sum += WEIGHT(r) * ((pl[-r] + pl[r]) + (pl[-r * SX] + pl[r * SX]) + (w[R - r] + w[R + r]));
      out[i + s * j + p * k] = sum;
    }
  }
  COPY_WAIT_PRIOR(0);
}

/* lanes: CUDA's `cpl` (bench/experiments/gpu_star_designs.cu). A work-item owns G points of a row
   (16 bytes); the ring's rows are whole 16-byte groups, the x halo rounded up to groups (XG a
   side). The z window holds groups; the x neighbours are read as the 2 XG + 1 groups around the
   work-item's, the y neighbours as one group a row. */
#define XG ((R + G - 1) / G)
#define SXG (TX + 2 * XG)
#define PLANEG (SXG * SY)
typedef union { realg v; real s[G]; } lanes_group;

inline void issue_groups(__local realg* slots, __global const real* u, int n, int k, int bi, int bj, int tid) {
  if (k < n) {
    __local realg* dst = slots + (k % NB) * PLANEG;
    const long s = n, p = (long)n * n;
    __global const real* src = u + p * k;
#pragma unroll
    for (int q = 0; q < (PLANEG + TX * TY - 1) / (TX * TY); ++q) {
      const int h = tid + q * TX * TY;
      if (h < PLANEG) {
        const int hy = h / SXG, hx = h - hy * SXG;
        const int gx = min(bi - XG * G + hx * G, n - G), gy = min(bj - R + hy, n - 1);
        COPY16(dst + h, src + gx + s * gy);
      }
    }
  }
  COPY_COMMIT();
}

/* One plane of a `lanes` work-item, plane k + R of the ring landed: slides its z window by one
   plane and takes the newest from the ring, then computes its G points and stores them at `to`,
   16 bytes at once where they are all inside (`whole`). Both `lanes` kernels, whichever copies
   fill their rings. */
inline void lanes_plane(__local const realg* planes, realg* w, int k, int tx, int ty, bool computes, bool whole,
                        __global real* to, int i, int n) {
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) w[d] = w[d + 1];
  __local const realg* pl = planes + (k % NB) * PLANEG + (ty + R) * SXG + tx + XG;
  w[2 * R] = planes[((k + R) % NB) * PLANEG + (ty + R) * SXG + tx + XG];
  if (!computes) return;
  union { realg v[2 * XG + 1]; real s[G * (2 * XG + 1)]; } xs;
#pragma unroll
  for (int g = -XG; g <= XG; ++g) xs.v[g + XG] = pl[g];
  lanes_group ym[R], yp[R], zm[R], zp[R], c, result;
  c.v = w[R];
#pragma unroll
  for (int r = 1; r <= R; ++r) {
    ym[r - 1].v = pl[-r * SXG];
    yp[r - 1].v = pl[r * SXG];
    zm[r - 1].v = w[R - r];
    zp[r - 1].v = w[R + r];
  }
#pragma unroll
  for (int l = 0; l < G; ++l) {
    real sum = WEIGHT(0) * c.s[l];
#pragma unroll
    for (int r = 1; r <= R; ++r)
      sum += WEIGHT(r) * ((xs.s[XG * G + l - r] + xs.s[XG * G + l + r]) + (ym[r - 1].s[l] + yp[r - 1].s[l]) +
                          (zm[r - 1].s[l] + zp[r - 1].s[l]));
    result.s[l] = sum;
  }
  if (whole && !SCALAR_STORES) {
    VSTOREG(result.v, 0, to);
  } else {
#pragma unroll
    for (int l = 0; l < G; ++l)
      if (i + l < n - R) to[l] = result.s[l];
  }
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void lanes(__global const real* restrict u, __global real* restrict out, int n, int tz) {
  __local realg planes[NB * PLANEG];
  const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * TX + tx;
  const int bi = R + get_group_id(0) * TX * G, bj = R + get_group_id(1) * TY;
  const int k0 = R + get_group_id(2) * tz;
  const long s = n, p = (long)n * n;
  const int i = bi + tx * G, j = bj + ty;
  const bool computes = i < n - R && j < n - R, whole = i + G <= n - R;
  const int kend = min(k0 + tz, n - R);
  realg w[2 * R + 1];
  __global const real* col = u + min(i, n - G) + s * min(j, n - 1);
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) w[d + 1] = VLOADG(0, col + p * (k0 - R + d));
  for (int k = k0; k < k0 + R + S; ++k) issue_groups(planes, u, n, k, bi, bj, tid);
  for (int k = k0; k < kend; ++k) {
    COPY_WAIT_PRIOR(S_MINUS_1);
    barrier(CLK_LOCAL_MEM_FENCE);
    issue_groups(planes, u, n, k + R + S, bi, bj, tid);
    lanes_plane(planes, w, k, tx, ty, computes, whole, out + i + s * j + p * k, i, n);
  }
  COPY_WAIT_PRIOR(0);
}
#if BULK
/* lanes_bulk: `lanes` with each ring plane's rows copied by one bulk copy a row
   (cp.async.bulk, 16-byte multiples), SY work-items issuing one each, completing on an mbarrier a
   slot that work-item 0 arms with the plane's bytes: SY copy instructions a plane where `lanes`
   issues one a 16-byte group, the nearest OpenCL C comes to CUDA's one tensor copy a plane. A
   row is copied whole from the tile's halo start: at the grid's last x tile it reads up to a
   tile past the row's end (the next row, or the buffer's padding after the last), into columns
   that feed no point computed. */
inline uint local_address(__local const void* p) { return (uint)(size_t)p; }

inline void wait_phase(__local ulong* bar, uint parity) {
  uint done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(local_address(bar)), "r"(parity) : "memory");
}

inline void issue_row_copies(__local realg* slots, __local ulong* bars, __global const void* from, int n, int k,
                             int bi, int bj, int tid) {
  __global const real* u = (__global const real*)from;
  if (k >= n) return; /* never waited for */
  __local ulong* bar = bars + k % NB;
  if (tid == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(local_address(bar)),
                 "r"((uint)(PLANEG * 16)) : "memory");
  if (tid < SY) {
    const long s = n, p = (long)n * n;
    __global const real* src = u + p * k + s * min(bj - R + tid, n - 1) + bi - XG * G;
    __local realg* dst = slots + (k % NB) * PLANEG + tid * SXG;
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(local_address(dst)), "l"(src), "r"((uint)(SXG * 16)), "r"(local_address(bar)) : "memory");
  }
}

#if TMA
/* lanes_tma: the same ring filled by one tensor copy a plane (cp.async.bulk.tensor, CUDA's
   3dblock_ring's copy), work-item 0 issuing it, from a CUtensorMap the host encoded for u's
   device address (a 40 x SY x 1 box of the [z][y][x] array; past the grid, zeros). TMA_FENCE:
   the map, which the host wrote to a global buffer, acquired by the tensor-map proxy first. */
inline void issue_rows(__local realg* slots, __local ulong* bars, __global const void* tmap, int n, int k, int bi,
                       int bj, int tid) {
  if (k >= n || tid != 0) return; /* never waited for */
  __local ulong* bar = bars + k % NB;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(local_address(bar)),
               "r"((uint)(PLANEG * 16)) : "memory");
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
               :: "r"(local_address(slots + (k % NB) * PLANEG)), "l"(tmap), "r"(bi - XG * G), "r"(bj - R), "r"(k),
                  "r"(local_address(bar)) : "memory");
}
#else
inline void issue_rows(__local realg* slots, __local ulong* bars, __global const void* tmap, int n, int k, int bi,
                       int bj, int tid) {
  issue_row_copies(slots, bars, tmap, n, k, bi, bj, tid);
}
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void lanes_bulk(__global const real* restrict u, __global real* restrict out, int n, int tz, __global const void* tmap) {
  /* A tensor copy's destination starts on 128 bytes: the slots start on the first 128-byte
     boundary of the array, whatever alignment the platform's compiler gave it. */
  __local realg planes_allocated[NB * PLANEG + 8] __attribute__((aligned(128)));
  __local realg* const planes = planes_allocated + ((128u - (local_address(planes_allocated) & 127u)) & 127u) / 16u;
  __local ulong bars[NB];
  const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * TX + tx;
  const int bi = R + get_group_id(0) * TX * G, bj = R + get_group_id(1) * TY;
  const int k0 = R + get_group_id(2) * tz;
  const long s = n, p = (long)n * n;
  const int i = bi + tx * G, j = bj + ty;
  const bool computes = i < n - R && j < n - R, whole = i + G <= n - R;
  const int kend = min(k0 + tz, n - R);
  if (tid == 0) {
    for (int b = 0; b < NB; ++b)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(local_address(bars + b)), "r"(1) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#if TMA && TMA_FENCE
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(tmap) : "memory");
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  realg w[2 * R + 1];
  __global const real* col = u + min(i, n - G) + s * min(j, n - 1);
#pragma unroll
  for (int d = 0; d < 2 * R; ++d) w[d + 1] = VLOADG(0, col + p * (k0 - R + d));
  __global const void* from = TMA ? tmap : (__global const void*)u;
  for (int k = k0; k < k0 + R + S; ++k) issue_rows(planes, bars, from, n, k, bi, bj, tid);
  /* The planes the first R steps read, k0 .. k0 + R - 1 (first fills of their slots), before the
     steps' own waits: an mbarrier says one slot's copy landed, not the copies issued before it
     (cp.async's wait_group does), so every plane read is waited for, once. */
  for (int k = k0; k < k0 + R; ++k) wait_phase(bars + k % NB, 0u);
  for (int k = k0; k < kend; ++k) {
    /* Plane k + R: its slot's fill (k + R - k0) / NB, whose phase has that parity. */
    wait_phase(bars + (k + R) % NB, (uint)((k + R - k0) / NB) & 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    issue_rows(planes, bars, from, n, k + R + S, bi, bj, tid);
    lanes_plane(planes, w, k, tx, ty, computes, whole, out + i + s * j + p * k, i, n);
  }
  /* Every copy issued has landed before the work-group's local memory goes: the planes past
     those computed that were issued (up to k + R + S - 1 < n). */
  for (int k = kend; k < kend + S && k + R < n; ++k) wait_phase(bars + (k + R) % NB, (uint)((k + R - k0) / NB) & 1u);
}
#endif
)CL";

struct variant {
  const char* name;
  const char* kernel;  // ring: a work-item a point; lanes: 16 bytes of points a work-item
  int async_bytes;     // 0: loads
  int group;           // points a copy: 1, or 16 bytes' worth
  int tx, ty, s;       // work-items of a work-group; planes copied ahead
  int scalar_stores = 0;  // lanes: a store a point instead of one a work-item
  int tma = 0;            // lanes_bulk: 1 one tensor copy a plane, 2 the same after the map's proxy fence
  bool bulk() const { return std::string(kernel) == "lanes_bulk"; }  // copies completing on mbarriers
};

}  // namespace

int main(int argc, char** argv) {
  // --compile PLATFORM FILE OPTIONS OUT: builds an OpenCL C file and writes the program's binary
  // (PTX on NVIDIA's platform), to read what the platform's compiler made of a generated kernel.
  if (argc == 6 && std::string(argv[1]) == "--compile") {
    const auto chosen = experiments::device_of_platform(argv[2]);
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &chosen.device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    std::string text;
    if (FILE* f = std::fopen(argv[3], "rb")) {
      char buffer[4096];
      for (size_t got; (got = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, got);
      std::fclose(f);
    }
    const char* pointer_to_text = text.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &pointer_to_text, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    if (clBuildProgram(program, 1, &chosen.device, argv[4], nullptr, nullptr) != CL_SUCCESS) {
      size_t length = 0;
      clGetProgramBuildInfo(program, chosen.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &length);
      std::string log(length, '\0');
      clGetProgramBuildInfo(program, chosen.device, CL_PROGRAM_BUILD_LOG, length, log.data(), nullptr);
      std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
      return 1;
    }
    size_t size = 0;
    check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), "binary size");
    std::vector<unsigned char> binary(size);
    unsigned char* pointer = binary.data();
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr), "binary");
    FILE* out = std::fopen(argv[5], "wb");
    if (out == nullptr) return 1;
    std::fwrite(binary.data(), 1, binary.size(), out);
    std::fclose(out);
    return 0;
  }
  const std::string wanted = argc > 1 ? argv[1] : "NVIDIA";
  const int n = argc > 2 ? std::atoi(argv[2]) : 512;
  const int repetitions = argc > 3 ? std::atoi(argv[3]) : 10;
  const int tz = argc > 4 ? std::atoi(argv[4]) : 32;
  constexpr int R = 4;
  if (n % 4 != 0 || n < 2 * R + 4 || repetitions < 1 || tz < 1) {
    std::fprintf(stderr, "n must be a multiple of 4 and at least %d, repetitions and tz at least 1\n", 2 * R + 4);
    return 1;
  }
  const auto chosen = experiments::device_of_platform(wanted);
#if PROBE_TMA
  // CUDA's driver, where there is one: its tensor-map encoder for lanes_tma.
  using encode_function = decltype(&cuTensorMapEncodeTiled);
  encode_function encode_tensor_map = nullptr;
  CUcontext cuda_primary = nullptr;
  decltype(&cuCtxSetCurrent) cuda_set_current = nullptr;
  if (void* driver = dlopen("libcuda.so.1", RTLD_NOW)) {
    const auto init = reinterpret_cast<decltype(&cuInit)>(dlsym(driver, "cuInit"));
    if (init != nullptr && init(0) == CUDA_SUCCESS)
      encode_tensor_map = reinterpret_cast<encode_function>(dlsym(driver, "cuTensorMapEncodeTiled"));
    // The encoder wants a current context (without one it answers CUDA_ERROR_INVALID_CONTEXT).
    // OpenCL's context is not CUDA's current one on this thread; the device's primary context
    // will do: the map only holds the buffer's address, which the kernel reads in OpenCL's
    // context (CUDA's cuMemGetAddressRange and cuPointerGetAttribute do not know that address,
    // and the map works all the same: H200, 2026-12-03).
    const auto retain = reinterpret_cast<decltype(&cuDevicePrimaryCtxRetain)>(dlsym(driver, "cuDevicePrimaryCtxRetain"));
    const auto set_current = reinterpret_cast<decltype(&cuCtxSetCurrent)>(dlsym(driver, "cuCtxSetCurrent"));
    if (encode_tensor_map != nullptr && retain != nullptr && set_current != nullptr) {
      const CUresult retained = retain(&cuda_primary, 0);
      std::printf("CUDA's primary context on device 0: %d\n", int(retained));
      cuda_set_current = set_current;
    }
  }
  if (encode_tensor_map == nullptr) std::printf("no CUDA driver: the tensor-map variants are skipped\n");
#endif
  const bool nvidia = chosen.platform_name.find("NVIDIA") != std::string::npos;
  cl_device_id device = chosen.device;
  char device_name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, nullptr);
  std::printf("device: %s; n = %d, tz = %d\n", device_name, n, tz);
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, "clCreateCommandQueue");

  // The best and the median of `repetitions` timings of `enqueue`, in seconds, from its event.
  const auto time_of = [&](auto enqueue) {
    std::vector<double> seconds;
    for (int r = 0; r < repetitions + 1; ++r) {
      cl_event event = nullptr;
      enqueue(&event);
      check(clWaitForEvents(1, &event), "clWaitForEvents");
      cl_ulong start = 0, end = 0;
      clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
      clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
      clReleaseEvent(event);
      if (r > 0) seconds.push_back(double(end - start) * 1e-9);  // the first one loads the code
    }
    std::sort(seconds.begin(), seconds.end());
    return std::make_pair(seconds.front(), seconds[seconds.size() / 2]);
  };
  const auto build = [&](bool single, const variant& v) -> cl_program {
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    const std::string options = "-cl-std=CL1.2 -DR=" + std::to_string(R) + " -DTX=" + std::to_string(v.tx) +
                                " -DTY=" + std::to_string(v.ty) + " -DS=" + std::to_string(v.s) +
                                " -DS_MINUS_1=" + std::to_string(v.s - 1) + " -DASYNC=" +
                                std::to_string(v.async_bytes) + " -DASYNC_GROUP=" + std::to_string(v.group) +
                                " -DREAL_FLOAT=" + std::to_string(single ? 1 : 0) +
                                " -DSCALAR_STORES=" + std::to_string(v.scalar_stores) +
                                " -DBULK=" + std::to_string(v.bulk() ? 1 : 0) +
                                " -DTMA=" + std::to_string(v.tma > 0 ? 1 : 0) +
                                " -DTMA_FENCE=" + std::to_string(v.tma == 2 ? 1 : 0);
    if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      size_t length = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &length);
      std::string log(length, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, length, log.data(), nullptr);
      std::printf("  build failed (%s):\n%s\n", options.c_str(), log.c_str());
      clReleaseProgram(program);
      return nullptr;
    }
    // PROBE_PTX_DIR: each program's binary (NVIDIA's is PTX text) there, named by its options.
    if (const char* folder = std::getenv("PROBE_PTX_DIR")) {
      size_t size = 0;
      check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), "binary size");
      std::vector<unsigned char> binary(size);
      unsigned char* pointer = binary.data();
      check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr), "binary");
      std::string file = std::string(folder) + "/" + v.kernel + (single ? "_f" : "_d") + "_a" +
                         std::to_string(v.async_bytes) + "_" + std::to_string(v.tx) + "x" + std::to_string(v.ty) +
                         "_s" + std::to_string(v.s) + "_t" + std::to_string(v.tma) + ".ptx";
      if (FILE* f = std::fopen(file.c_str(), "wb")) {
        std::fwrite(binary.data(), 1, binary.size(), f);
        std::fclose(f);
      }
    }
    return program;
  };

  for (const bool single : {false, true}) {
    // PROBE_PRECISION=fp64 or fp32: that one only.
    if (const char* only = std::getenv("PROBE_PRECISION"); only != nullptr && std::string(only) != (single ? "fp32" : "fp64"))
      continue;
    const size_t real_bytes = single ? sizeof(float) : sizeof(double);
    const int g = int(16 / real_bytes);
    const size_t points = size_t(n) * n * n, bytes = points * real_bytes;
    std::vector<unsigned char> host(bytes);
    for (size_t c = 0; c < points; ++c) {
      const double value = std::sin(0.001 * double(c % 100003)) + 0.5 * double(c % 7);
      if (single) {
        const float f = float(value);
        std::memcpy(&host[c * real_bytes], &f, real_bytes);
      } else {
        std::memcpy(&host[c * real_bytes], &value, real_bytes);
      }
    }
    // u is padded by 64 points: lanes_bulk's last row copy may read up to a tile past the grid.
    host.resize(bytes + 64 * real_bytes);
    cl_mem u = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size(), host.data(), &status);
    check(status, "clCreateBuffer u");
    cl_mem reference = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "clCreateBuffer reference");
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "clCreateBuffer out");
    const unsigned char zero[8] = {};
    check(clEnqueueFillBuffer(queue, reference, zero, real_bytes, 0, bytes, 0, nullptr, nullptr), "fill");

    std::printf("\n%s\n", single ? "fp32" : "fp64");
    const auto [copy_best, copy_median] = time_of([&](cl_event* e) {
      check(clEnqueueCopyBuffer(queue, u, out, 0, 0, bytes, 0, nullptr, e), "clEnqueueCopyBuffer");
    });
    const double copy_bandwidth = 2.0 * double(bytes) / copy_best;
    std::printf("copy: %.1f us best, %.1f median: %.0f GB/s\n", copy_best * 1e6, copy_median * 1e6,
                copy_bandwidth * 1e-9);
    const double floor_bytes = 2.0 * double(bytes);  // read u, write out, once a point
    const auto report = [&](const std::string& name, std::pair<double, double> t, bool same) {
      std::printf("%-36s %8.1f us best, %8.1f median: %5.1f%% of copy (median %5.1f%%), %s\n", name.c_str(),
                  t.first * 1e6, t.second * 1e6, 100.0 * floor_bytes / t.first / copy_bandwidth,
                  100.0 * floor_bytes / t.second / copy_bandwidth, same ? "bit-equal" : "DIFFERS");
    };
    std::vector<unsigned char> expected(bytes), got(bytes);
#if PROBE_TMA
    cl_ulong u_address = 0;  // u's device address (address_of), for the tensor-copy variants' map
#endif
    cl_mem tensor_map = clCreateBuffer(context, CL_MEM_READ_ONLY, 128, nullptr, &status);
    check(status, "clCreateBuffer tensor map");
    {
      cl_program program = build(single, {"plain", "plain", 0, 1, 32, 8, 2});
      if (program == nullptr) return 1;
      cl_kernel plain = clCreateKernel(program, "plain", &status);
      check(status, "clCreateKernel plain");
      clSetKernelArg(plain, 0, sizeof u, &u);
      clSetKernelArg(plain, 1, sizeof reference, &reference);
      clSetKernelArg(plain, 2, sizeof n, &n);
      const size_t global[3] = {size_t(n), size_t(n), size_t(n)}, local[3] = {64, 4, 1};
      const auto t = time_of([&](cl_event* e) {
        check(clEnqueueNDRangeKernel(queue, plain, 3, nullptr, global, n % 64 == 0 ? local : nullptr, 0, nullptr, e),
              "plain");
      });
      check(clEnqueueReadBuffer(queue, reference, CL_TRUE, 0, bytes, expected.data(), 0, nullptr, nullptr), "read");
      report("plain (the reference)", t, true);
#if PROBE_TMA
      cl_kernel address_of = clCreateKernel(program, "address_of", &status);
      check(status, "clCreateKernel address_of");
      cl_mem address = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof u_address, nullptr, &status);
      check(status, "clCreateBuffer address");
      clSetKernelArg(address_of, 0, sizeof u, &u);
      clSetKernelArg(address_of, 1, sizeof address, &address);
      const size_t one = 1;
      check(clEnqueueNDRangeKernel(queue, address_of, 1, nullptr, &one, &one, 0, nullptr, nullptr), "address_of");
      check(clEnqueueReadBuffer(queue, address, CL_TRUE, 0, sizeof u_address, &u_address, 0, nullptr, nullptr), "read");
      clReleaseMemObject(address);
      clReleaseKernel(address_of);
#endif
      clReleaseKernel(plain);
      clReleaseProgram(program);
    }
    std::vector<variant> variants = {
        {"ring, loads", "ring", 0, 1, 32, 8, 2},
        {"ring, cp.async 16", "ring", 16, g, 32, 8, 2},
        {"lanes, loads", "lanes", 0, g, 16, 8, 2},
    };
    if (!single) variants.push_back({"ring, cp.async 8", "ring", 8, 1, 32, 8, 2});
    for (const int s : {1, 2, 3})
      for (const auto& [tx, ty] : {std::pair{16, 8}, {16, 16}, {32, 4}, {8, 16}, {32, 8}, {8, 32}})
        variants.push_back({"lanes, cp.async 16", "lanes", 16, g, tx, ty, s});
    for (const auto& [tx, ty] : {std::pair{16, 8}, {16, 16}, {8, 16}})
      variants.push_back({"lanes, scalar stores", "lanes", 16, g, tx, ty, 2, 1});
    for (const int s : {1, 2, 3})
      for (const auto& [tx, ty] : {std::pair{16, 8}, {16, 16}, {32, 4}, {8, 16}})
        variants.push_back({"lanes, bulk rows", "lanes_bulk", 32, g, tx, ty, s});
#if PROBE_TMA
    for (const int s : {1, 2, 3})
      for (const auto& [tx, ty] : {std::pair{16, 8}, {16, 16}, {32, 4}, {8, 16}}) {
        variants.push_back({"lanes, tma", "lanes_bulk", 32, g, tx, ty, s, 0, 1});
        variants.push_back({"lanes, tma fenced", "lanes_bulk", 32, g, tx, ty, s, 0, 2});
      }
#endif
    for (const auto& v : variants) {
      if (v.async_bytes != 0 && !nvidia) continue;
      // The lanes' ring: (TX + 2 XG) groups of 16 bytes a row, TY + 2R rows, R + S + 1 planes.
      const bool owns_lanes = std::string(v.kernel).rfind("lanes", 0) == 0;
      const size_t local_bytes = owns_lanes
                                     ? size_t(v.tx + 2 * ((R + g - 1) / g)) * 16 * (v.ty + 2 * R) * (R + v.s + 1) + (v.bulk() ? 128 : 0)
                                     : size_t(v.tx + 2 * R) * real_bytes * (v.ty + 2 * R) * (R + v.s + 1);
      const std::string name = std::string(v.name) + " " + std::to_string(v.tx) + "x" + std::to_string(v.ty) +
                               " S" + std::to_string(v.s);
      // PROBE_ONLY=text: only the variants whose name (with tile and S) contains it.
      if (const char* only = std::getenv("PROBE_ONLY"); only != nullptr && name.find(only) == std::string::npos) continue;
      if (local_bytes > 48 * 1024) {
        std::printf("%-36s skipped: %zu bytes of local memory\n", name.c_str(), local_bytes);
        continue;
      }
      if (v.tma > 0) {
#if PROBE_TMA
        // The ring's slots must start on 128 bytes for a tensor copy's destination.
        const unsigned row_points = unsigned(v.tx + 2 * ((R + g - 1) / g)) * unsigned(g);
        if (size_t(row_points) * real_bytes * (v.ty + 2 * R) % 128 != 0) {
          std::printf("%-36s skipped: a slot not a multiple of 128 bytes\n", name.c_str());
          continue;
        }
        if (encode_tensor_map == nullptr) continue;
        CUtensorMap map{};
        const cuuint64_t dims[3] = {cuuint64_t(n), cuuint64_t(n), cuuint64_t(n)};
        const cuuint64_t strides[2] = {cuuint64_t(n) * real_bytes, cuuint64_t(n) * n * real_bytes};
        const cuuint32_t box[3] = {row_points, cuuint32_t(v.ty + 2 * R), 1}, element_strides[3] = {1, 1, 1};
        // Current only while encoding, so that OpenCL's calls find the thread as they left it.
        if (cuda_set_current != nullptr) cuda_set_current(cuda_primary);
        const CUresult encoded = encode_tensor_map(
            &map, single ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3,
            reinterpret_cast<void*>(u_address), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (cuda_set_current != nullptr) cuda_set_current(nullptr);
        if (encoded != CUDA_SUCCESS) {
          std::printf("%-36s skipped: cuTensorMapEncodeTiled gave %d\n", name.c_str(), int(encoded));
          continue;
        }
        check(clEnqueueWriteBuffer(queue, tensor_map, CL_TRUE, 0, sizeof map, &map, 0, nullptr, nullptr), "map");
#endif
      }
      cl_program program = build(single, v);
      if (program == nullptr) continue;
      cl_kernel kernel = clCreateKernel(program, v.kernel, &status);
      check(status, "clCreateKernel");
      clSetKernelArg(kernel, 0, sizeof u, &u);
      clSetKernelArg(kernel, 1, sizeof out, &out);
      clSetKernelArg(kernel, 2, sizeof n, &n);
      clSetKernelArg(kernel, 3, sizeof tz, &tz);
      if (v.bulk()) clSetKernelArg(kernel, 4, sizeof tensor_map, &tensor_map);
      // Zeros, as plain's output off the points it computes: a kernel that leaves a point unwritten differs.
      check(clEnqueueFillBuffer(queue, out, zero, real_bytes, 0, bytes, 0, nullptr, nullptr), "clear");
      const int interior = n - 2 * R, points_x = v.tx * (owns_lanes ? g : 1);
      const size_t groups[3] = {size_t((interior + points_x - 1) / points_x), size_t((interior + v.ty - 1) / v.ty),
                                size_t((interior + tz - 1) / tz)};
      const size_t global[3] = {groups[0] * v.tx, groups[1] * v.ty, groups[2]};
      const size_t local[3] = {size_t(v.tx), size_t(v.ty), 1};
      const auto t = time_of([&](cl_event* e) {
        check(clEnqueueNDRangeKernel(queue, kernel, 3, nullptr, global, local, 0, nullptr, e), v.kernel);
      });
      check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr), "read");
      const bool same = std::memcmp(got.data(), expected.data(), bytes) == 0;
      report(name, t, same);
      if (!same) {  // where: the first point that differs, and how many do
        size_t first = points, differing = 0;
        for (size_t c = 0; c < points; ++c)
          if (std::memcmp(&got[c * real_bytes], &expected[c * real_bytes], real_bytes) != 0) {
            if (first == points) first = c;
            ++differing;
          }
        const auto value = [&](const std::vector<unsigned char>& data) {
          if (single) { float f; std::memcpy(&f, &data[first * real_bytes], sizeof f); return double(f); }
          double d; std::memcpy(&d, &data[first * real_bytes], sizeof d); return d;
        };
        std::printf("  %zu points differ, the first at (%zu, %zu, %zu): %g, expected %g\n", differing, first % n,
                    first / n % n, first / n / n, value(got), value(expected));
      }
      clReleaseKernel(kernel);
      clReleaseProgram(program);
    }
    clReleaseMemObject(tensor_map);
    clReleaseMemObject(u);
    clReleaseMemObject(reference);
    clReleaseMemObject(out);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
