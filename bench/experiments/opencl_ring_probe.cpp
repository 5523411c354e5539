// Whether an OpenCL kernel on NVIDIA's platform can fill a ring of local planes with asynchronous
// copies (cp.async, issued by inline PTX, which NVIDIA's OpenCL compiler accepts), as CUDA's
// 3dblock_ring does (issue 28: on an H200 the OpenCL variants reach 63-65% of CUDA's ring for the
// radius-4 star; OpenCL has no asynchronous copy of its own that NVIDIA runs in the background).
// The radius-4 star in fp64 on n^3 points, each variant checked to the bit against a plain
// kernel (a work-item a point) and timed against a buffer copy of the same run:
//   ring, loads:      a work-group owns a TX x TY tile and a slab of z planes; a ring of NB local
//                     planes (tile and halo) that the work-items fill with plain loads and stores
//                     S planes ahead; each work-item's z neighbours in a window of registers
//                     (the CUDA experiment's `cpa`, bench/experiments/gpu_star_designs.cu);
//   ring, loads of 2: the same, two points (16 bytes) a load and a store;
//   ring, cp.async 8: the same ring filled by cp.async.ca of 8 bytes (a point) a copy;
//   ring, cp.async 16: by cp.async.cg of 16 bytes (two points) a copy.
// The cp.async variants are built only where the platform's name contains "NVIDIA"; on any
// other (pocl) the ring with loads still runs, so that the kernel's logic is checked there.
//   build/experiments/opencl_ring_probe [platform = NVIDIA] [n = 512] [repetitions = 10] [tz = 32]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "opencl_platform.hpp"

namespace {

using experiments::check;

// R, TX, TY, S and ASYNC (0: loads; 8 or 16: the bytes of a cp.async) come from the build options.
const char* source = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#define SX (TX + 2 * R)
#define SY (TY + 2 * R)
#define NB (R + S + 1)
#define PLANE (SX * SY)

/* The star's weights: the same expression in every kernel, so that all give the same bits. */
inline double weight(int r) { return r == 0 ? -2.5 : 1.0 / (double)(r * r + 1); }

__kernel void plain(__global const double* restrict u, __global double* restrict out, int n) {
  const int i = get_global_id(0), j = get_global_id(1), k = get_global_id(2);
  if (i < R || j < R || k < R || i >= n - R || j >= n - R || k >= n - R) return;
  const long s = n, p = (long)n * n, c = i + s * j + p * k;
  double sum = weight(0) * u[c];
  for (int r = 1; r <= R; ++r)
    sum += weight(r) * ((u[c - r] + u[c + r]) + (u[c - r * s] + u[c + r * s]) + (u[c - r * p] + u[c + r * p]));
  out[c] = sum;
}

#if ASYNC
/* The 32-bit shared-memory address of a local pointer: an address-space-3 pointer's value. */
#define COPY_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
#define COPY_WAIT_PRIOR_(n) asm volatile("cp.async.wait_group " #n ";" ::: "memory")
#define COPY_WAIT_PRIOR(n) COPY_WAIT_PRIOR_(n)
#if ASYNC == 16
#define COPY(dst, src) \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((uint)(size_t)(dst)), "l"(src) : "memory")
#else
#define COPY(dst, src) \
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"((uint)(size_t)(dst)), "l"(src) : "memory")
#endif
#else
#define COPY_COMMIT()
#define COPY_WAIT_PRIOR(n)
#if ASYNC_GROUP == 2
#define COPY(dst, src) vstore2(vload2(0, src), 0, dst)
#else
#define COPY(dst, src) (*(dst) = *(src))
#endif
#endif
/* Points a copy moves: two with 16-byte copies (x positions of a row in pairs from the tile's
   halo start, which is 16-byte aligned when n is even), one otherwise. */
#if ASYNC == 16 || ASYNC_GROUP == 2
#define GROUP 2
#else
#define GROUP 1
#endif

/* Copies plane k (when inside the grid) into its ring slot, a group of points a work-item at a
   time; then closes the copy group, which the wait counts by. */
inline void issue(__local double* slots, __global const double* u, int n, int k, int bi, int bj, int tid) {
  if (k < n) {
    __local double* dst = slots + (k % NB) * PLANE;
    const long s = n, p = (long)n * n;
    __global const double* src = u + p * k;
    for (int h = tid; h < PLANE / GROUP; h += TX * TY) {
      const int hy = h / (SX / GROUP), hx = (h - hy * (SX / GROUP)) * GROUP;
      const int gx = min(bi - R + hx, n - GROUP), gy = min(bj - R + hy, n - 1);
      COPY(dst + hy * SX + hx, src + gx + s * gy);
    }
  }
  COPY_COMMIT();
}

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void ring(__global const double* restrict u, __global double* restrict out, int n, int tz) {
  __local double planes[NB * PLANE] __attribute__((aligned(16)));
  const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * TX + tx;
  const int bi = R + get_group_id(0) * TX, bj = R + get_group_id(1) * TY;
  const int k0 = R + get_group_id(2) * tz;
  const long s = n, p = (long)n * n;
  const int i = bi + tx, j = bj + ty;
  const bool computes = i < n - R && j < n - R;
  const int kend = min(k0 + tz, n - R);
  double w[2 * R + 1];
  __global const double* col = u + min(i, n - 1) + s * min(j, n - 1);
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
    __local const double* pl = planes + (k % NB) * PLANE + (ty + R) * SX + tx + R;
    w[2 * R] = planes[((k + R) % NB) * PLANE + (ty + R) * SX + tx + R];
    if (computes) {
      double sum = weight(0) * w[R];
#pragma unroll
      for (int r = 1; r <= R; ++r)
        sum += weight(r) * ((pl[-r] + pl[r]) + (pl[-r * SX] + pl[r * SX]) + (w[R - r] + w[R + r]));
      out[i + s * j + p * k] = sum;
    }
  }
  COPY_WAIT_PRIOR(0);
}
)CL";

struct variant {
  const char* name;
  int async_bytes;  // 0: loads
  int group;        // points a copy
};

}  // namespace

int main(int argc, char** argv) {
  const std::string wanted = argc > 1 ? argv[1] : "NVIDIA";
  const int n = argc > 2 ? std::atoi(argv[2]) : 512;
  const int repetitions = argc > 3 ? std::atoi(argv[3]) : 10;
  const int tz = argc > 4 ? std::atoi(argv[4]) : 32;
  constexpr int R = 4, TX = 32, TY = 8, S = 2;
  if (n % 2 != 0 || n < 2 * R + 2 || repetitions < 1 || tz < 1) {
    std::fprintf(stderr, "n must be even and at least %d, repetitions and tz at least 1\n", 2 * R + 2);
    return 1;
  }
  const auto chosen = experiments::device_of_platform(wanted);
  const bool nvidia = chosen.platform_name.find("NVIDIA") != std::string::npos;
  cl_device_id device = chosen.device;
  char device_name[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof device_name, device_name, nullptr);
  std::printf("device: %s; n = %d, tz = %d, tile %d x %d, %d planes ahead\n", device_name, n, tz, TX, TY, S);
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  check(status, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, "clCreateCommandQueue");

  const size_t points = size_t(n) * n * n, bytes = points * sizeof(double);
  std::vector<double> host(points);
  for (size_t c = 0; c < points; ++c) host[c] = std::sin(0.001 * double(c % 100003)) + 0.5 * double(c % 7);
  cl_mem u = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &status);
  check(status, "clCreateBuffer u");
  cl_mem reference = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer reference");
  cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
  check(status, "clCreateBuffer out");
  const double zero = 0;
  check(clEnqueueFillBuffer(queue, reference, &zero, sizeof zero, 0, bytes, 0, nullptr, nullptr), "fill");

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
  const auto [copy_best, copy_median] = time_of([&](cl_event* e) {
    check(clEnqueueCopyBuffer(queue, u, out, 0, 0, bytes, 0, nullptr, e), "clEnqueueCopyBuffer");
  });
  const double copy_bandwidth = 2.0 * double(bytes) / copy_best;
  std::printf("copy: %.1f us best, %.1f median: %.0f GB/s\n", copy_best * 1e6, copy_median * 1e6, copy_bandwidth * 1e-9);

  const auto build = [&](int async_bytes, int group) -> cl_program {
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    check(status, "clCreateProgramWithSource");
    const std::string options = "-cl-std=CL1.2 -DR=" + std::to_string(R) + " -DTX=" + std::to_string(TX) +
                                " -DTY=" + std::to_string(TY) + " -DS=" + std::to_string(S) +
                                " -DS_MINUS_1=" + std::to_string(S - 1) + " -DASYNC=" + std::to_string(async_bytes) +
                                " -DASYNC_GROUP=" + std::to_string(group);
    if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      size_t length = 0;
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &length);
      std::string log(length, '\0');
      clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, length, log.data(), nullptr);
      std::printf("  build failed (%s):\n%s\n", options.c_str(), log.c_str());
      clReleaseProgram(program);
      return nullptr;
    }
    return program;
  };
  const double floor_bytes = 2.0 * double(bytes);  // read u, write out, once a point
  const auto report = [&](const char* name, std::pair<double, double> t, bool same) {
    std::printf("%-22s %8.1f us best, %8.1f median: %5.1f%% of copy (median %5.1f%%), %s\n", name, t.first * 1e6,
                t.second * 1e6, 100.0 * floor_bytes / t.first / copy_bandwidth,
                100.0 * floor_bytes / t.second / copy_bandwidth, same ? "bit-equal" : "DIFFERS");
  };
  std::vector<double> expected(points), got(points);
  {
    cl_program program = build(0, 1);
    if (program == nullptr) return 1;
    cl_kernel plain = clCreateKernel(program, "plain", &status);
    check(status, "clCreateKernel plain");
    clSetKernelArg(plain, 0, sizeof u, &u);
    clSetKernelArg(plain, 1, sizeof reference, &reference);
    clSetKernelArg(plain, 2, sizeof n, &n);
    const size_t global[3] = {size_t(n), size_t(n), size_t(n)}, local[3] = {64, 4, 1};
    const auto t = time_of([&](cl_event* e) {
      check(clEnqueueNDRangeKernel(queue, plain, 3, nullptr, global, n % 64 == 0 && n % 4 == 0 ? local : nullptr, 0,
                                   nullptr, e),
            "plain");
    });
    check(clEnqueueReadBuffer(queue, reference, CL_TRUE, 0, bytes, expected.data(), 0, nullptr, nullptr), "read");
    report("plain (the reference)", t, true);
    clReleaseKernel(plain);
    clReleaseProgram(program);
  }
  const variant variants[] = {
      {"ring, loads", 0, 1},
      {"ring, loads of 2", 0, 2},
      {"ring, cp.async 8", 8, 1},
      {"ring, cp.async 16", 16, 2},
  };
  for (const auto& v : variants) {
    if (v.async_bytes != 0 && !nvidia) continue;
    cl_program program = build(v.async_bytes, v.group);
    if (program == nullptr) continue;
    cl_kernel ring = clCreateKernel(program, "ring", &status);
    check(status, "clCreateKernel ring");
    clSetKernelArg(ring, 0, sizeof u, &u);
    clSetKernelArg(ring, 1, sizeof out, &out);
    clSetKernelArg(ring, 2, sizeof n, &n);
    clSetKernelArg(ring, 3, sizeof tz, &tz);
    // Zeros, as plain's output off the points it computes: a ring that leaves a point unwritten differs.
    check(clEnqueueFillBuffer(queue, out, &zero, sizeof zero, 0, bytes, 0, nullptr, nullptr), "clear");
    const int interior = n - 2 * R;
    const size_t groups[3] = {size_t((interior + TX - 1) / TX), size_t((interior + TY - 1) / TY),
                              size_t((interior + tz - 1) / tz)};
    const size_t global[3] = {groups[0] * TX, groups[1] * TY, groups[2]}, local[3] = {TX, TY, 1};
    const auto t = time_of([&](cl_event* e) {
      check(clEnqueueNDRangeKernel(queue, ring, 3, nullptr, global, local, 0, nullptr, e), "ring");
    });
    check(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr), "read");
    report(v.name, t, std::memcmp(got.data(), expected.data(), bytes) == 0);
    clReleaseKernel(ring);
    clReleaseProgram(program);
  }
  clReleaseMemObject(u);
  clReleaseMemObject(reference);
  clReleaseMemObject(out);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
