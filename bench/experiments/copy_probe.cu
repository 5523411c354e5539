// What a kernel must do to copy memory as fast as cudaMemcpyAsync on a Hopper GPU: the copy
// every benchmark divides by is the driver's device-to-device cudaMemcpyAsync, and a plain
// grid-stride copy kernel reached only 92% of it on an H200 in fp64, 87-89% in fp32
// (gpu_star_designs, bench/RESULTS.md 2026-12-03), which bounds every stencil at about that.
// Each kernel here copies the same bytes; the table gives its bandwidth against the driver's in
// the same run, best of REPS, and checks the copy to the byte.
//
//   plain U=u          16-byte loads and stores, U loads in flight a thread before its stores,
//                      either grid-stride over the array on 8 blocks of 256 threads an SM
//                      ("persistent") or a thread for every U groups ("full")
//   load=... store=... the same with cache qualifiers: loads nc (read-only path), cs (streaming,
//                      evict first), nc.na (no L1 allocation), L2::256B (a 256-byte L2
//                      prefetch); stores cs (streaming), cg (L2 only), na (no L1 allocation)
//   bulk CH S B        one thread a block copies chunks of CH bytes through a ring of S shared
//                      slots with 1D bulk copies (cp.async.bulk, the tensor memory accelerator),
//                      B blocks an SM
//
// Then the 7-point star of fp64 and fp32 values at 256^3 and 512^3 in the copy's manner (a
// thread a 16-byte group of x points, blocks of 32 x BY threads streaming TZ planes with a
// window of three in registers), bit-checked against a thread-a-point kernel, and one copy and
// one star timed three ways (the best launch between events, the median launch, back-to-back
// batches) to show what the way of timing does to a fraction of copy. NO_STAR7=1 skips them.
//
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -I. bench/experiments/copy_probe.cu -o copy_probe
// Run:   ./copy_probe [MiB ...] [REPS]   (default 64 128 512 1024 MiB, 10 repetitions)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/gpu_timing.hpp"

#define CK OPUNTIA_CUDA_CHECK

// A compile-time int as a value, for the generic lambdas that run each case (C++17).
template <int V>
constexpr std::integral_constant<int, V> c{};

enum Load { load_plain, load_nc, load_cs, load_nc_na, load_l2_256 };
enum Store { store_plain, store_cs, store_cg, store_na };

template <int L>
__device__ __forceinline__ int4 load16(const int4* p) {
  int4 r;
  if constexpr (L == load_plain) {
    r = *p;
  } else if constexpr (L == load_nc) {
    r = __ldg(p);
  } else if constexpr (L == load_cs) {
    r = __ldcs(p);
  } else if constexpr (L == load_nc_na) {
    asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(p));
  } else {
    asm volatile("ld.global.nc.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(p));
  }
  return r;
}

template <int S>
__device__ __forceinline__ void store16(int4* p, int4 v) {
  if constexpr (S == store_plain) {
    *p = v;
  } else if constexpr (S == store_cs) {
    __stcs(p, v);
  } else if constexpr (S == store_cg) {
    __stcg(p, v);
  } else {
    asm volatile("st.global.L1::no_allocate.v4.s32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w)
                 : "memory");
  }
}

template <int U, int L, int S>
__global__ void __launch_bounds__(256) copy_vectors(const int4* __restrict__ a, int4* __restrict__ b, long long groups) {
  const long long step = (long long)gridDim.x * blockDim.x * U;
  for (long long base = (long long)blockIdx.x * blockDim.x * U + threadIdx.x; base < groups; base += step) {
    int4 r[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (base + u * blockDim.x < groups) r[u] = load16<L>(a + base + u * blockDim.x);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (base + u * blockDim.x < groups) store16<S>(b + base + u * blockDim.x, r[u]);
  }
}

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// One thread a block: chunk c of CH bytes goes global -> slot -> global; a slot is refilled once
// its store has read it. Chunks are dealt to the blocks round robin.
template <int CH, int S>
__global__ void copy_bulk(const char* __restrict__ a, char* __restrict__ b, long long bytes) {
  extern __shared__ __align__(128) char ring[];
  __shared__ __align__(8) std::uint64_t full[S];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < S; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(full + s)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const long long chunks = bytes / CH;  // the host asks for whole chunks
  auto issue = [&](long long c, int s) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(full + s)), "r"(CH) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem(ring + s * CH)),
                 "l"(a + c * CH), "r"(CH), "r"(smem(full + s))
                 : "memory");
  };
  long long c = blockIdx.x;
  for (int s = 0; s < S && c + (long long)s * gridDim.x < chunks; ++s) issue(c + (long long)s * gridDim.x, s);
  for (long long i = 0; c < chunks; ++i, c += gridDim.x) {
    const int s = int(i % S);
    const unsigned parity = unsigned(i / S) & 1u;
    asm volatile(
        "{\n .reg .pred done;\n W_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra W_%=;\n}" ::"r"(
            smem(full + s)),
        "r"(parity)
        : "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(b + c * CH), "r"(smem(ring + s * CH)),
                 "r"(CH)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    const long long next = c + (long long)S * gridDim.x;
    if (next < chunks) {
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
      issue(next, s);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// The 7-point star the way the fastest copy moves memory: a thread a 16-byte group of x points
// (2 in fp64, 4 in fp32), blocks of 32 x BY threads over 32 groups and BY rows, TZ planes a block
// with a window of three planes in registers, many short-lived blocks (TZ small) instead of long
// columns. x and y neighbours come through the read-only cache. Boundary points are not written.
template <typename T>
struct group_of;
template <>
struct group_of<double> {
  using type = double2;
};
template <>
struct group_of<float> {
  using type = float4;
};

template <typename T>
__device__ __forceinline__ T star7_point(T c, T xm, T xp, T ym, T yp, T zm, T zp) {
  return T(-6) * c + (((xm + xp) + (ym + yp)) + (zm + zp));
}

template <typename T>
__global__ void star7_reference(const T* __restrict__ u, T* __restrict__ out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
  if (x < 1 || x > n - 2 || y < 1 || y > n - 2 || z < 1 || z > n - 2) return;
  const long long p = n, pp = (long long)n * n, i = x + p * y + pp * z;
  out[i] = star7_point(u[i], u[i - 1], u[i + 1], u[i - p], u[i + p], u[i - pp], u[i + pp]);
}

template <typename T, int TZ, int BY>
__global__ void __launch_bounds__(32 * BY) star7_groups(const T* __restrict__ u, T* __restrict__ out, int n) {
  constexpr int N = 16 / sizeof(T);
  using V = typename group_of<T>::type;
  const int x0 = (blockIdx.x * 32 + threadIdx.x) * N, y = blockIdx.y * BY + threadIdx.y, z0 = blockIdx.z * TZ;
  if (x0 >= n || y < 1 || y > n - 2) return;
  const long long p = n, pp = (long long)n * n;
  T zm[N], zc[N], zp[N];
  auto load = [&](T (&dst)[N], long long i) {
    const V v = __ldg(reinterpret_cast<const V*>(u + i));
    if constexpr (N == 2) {
      dst[0] = v.x, dst[1] = v.y;
    } else {
      dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
    }
  };
  const long long row = x0 + p * y;
  if (z0 >= 1) load(zm, row + pp * (z0 - 1));
  load(zc, row + pp * z0);
#pragma unroll
  for (int t = 0; t < TZ; ++t) {
    const int z = z0 + t;
    if (z > n - 2) break;
    load(zp, row + pp * (z + 1));
    if (z >= 1) {
      const long long i = row + pp * z;
      T ym[N], yp[N], res[N];
      load(ym, i - p);
      load(yp, i + p);
      const T xm = x0 > 0 ? __ldg(u + i - 1) : T(0), xp = x0 + N < n ? __ldg(u + i + N) : T(0);
#pragma unroll
      for (int l = 0; l < N; ++l)
        res[l] = star7_point(zc[l], l == 0 ? xm : zc[l - 1], l == N - 1 ? xp : zc[l + 1], ym[l], yp[l], zm[l], zp[l]);
      if (x0 >= 1 && x0 + N <= n - 1) {
        if constexpr (N == 2)
          *reinterpret_cast<V*>(out + i) = make_double2(res[0], res[1]);
        else
          *reinterpret_cast<V*>(out + i) = make_float4(res[0], res[1], res[2], res[3]);
      } else {
#pragma unroll
        for (int l = 0; l < N; ++l)
          if (x0 + l >= 1 && x0 + l <= n - 2) out[i + l] = res[l];
      }
    }
#pragma unroll
    for (int l = 0; l < N; ++l) zm[l] = zc[l], zc[l] = zp[l];
  }
}

using opuntia::bench::time_best;

// The same launch timed three ways: the best single launch between events (how gpu_stencil_bench
// timed its copy before 2026-12-04), the median of single launches, and the mean launch of the
// best of three batches of back-to-back launches by the host's clock (how it times every case).
struct three_timings {
  float best, median, batched;
};

three_timings time_three_ways(const std::function<void()>& f, int reps) {
  three_timings t{};
  t.best = time_best(f, reps);
  std::vector<float> each = opuntia::bench::launch_times(f, 4 * reps);
  std::sort(each.begin(), each.end());
  t.median = each[each.size() / 2];
  t.batched = float(opuntia::bench::best_batch_ms(f, reps));
  return t;
}

template <typename T>
void run_star7(int n, int reps, const char* precision) {
  const long long count = (long long)n * n * n, bytes = count * (long long)sizeof(T);
  T *u, *ref, *out;
  CK(cudaMalloc(&u, bytes));
  CK(cudaMalloc(&ref, bytes));
  CK(cudaMalloc(&out, bytes));
  std::vector<T> h(count);
  unsigned x = 12345;
  for (auto& v : h) x = x * 1664525u + 1013904223u, v = T((x >> 8) * (1.0 / 16777216.0));
  CK(cudaMemcpy(u, h.data(), bytes, cudaMemcpyHostToDevice));
  const float memcpy_ms = time_best([&] { CK(cudaMemcpyAsync(ref, u, bytes, cudaMemcpyDeviceToDevice)); }, reps);
  const double memcpy_bw = 2.0 * bytes / (memcpy_ms * 1e-3) / 1e9;
  star7_reference<T><<<dim3((n + 127) / 128, n, n), 128>>>(u, ref, n);
  std::vector<T> expected(count), got(count);
  CK(cudaMemcpy(expected.data(), ref, bytes, cudaMemcpyDeviceToHost));
  std::printf("\nstar7 %s %d^3: cudaMemcpyAsync %.3f ms %.0f GB/s\n", precision, n, memcpy_ms, memcpy_bw);
  auto report = [&](const std::string& name, const std::function<void()>& f) {
    CK(cudaMemcpy(out, u, bytes, cudaMemcpyDeviceToDevice));
    const float ms = time_best(f, reps);
    CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(got.data(), expected.data(), bytes) == 0;
    const double bw = 2.0 * bytes / (ms * 1e-3) / 1e9;
    std::printf("star7 %s %d^3 %-24s %.3f ms %6.0f GB/s %6.1f%% of memcpy %s\n", precision, n, name.c_str(), ms, bw,
                100 * bw / memcpy_bw, same ? "bit-equal" : "WRONG");
  };
  report("reference", [&] { star7_reference<T><<<dim3((n + 127) / 128, n, n), 128>>>(u, out, n); });
  constexpr int N = 16 / sizeof(T);
  auto groups = [&](auto tz_, auto by_) {
    constexpr int TZ = decltype(tz_)::value, BY = decltype(by_)::value;
    const dim3 grid((n / N + 31) / 32, (n + BY - 1) / BY, (n + TZ - 1) / TZ);
    report("groups TZ=" + std::to_string(TZ) + " BY=" + std::to_string(BY),
           [&] { star7_groups<T, TZ, BY><<<grid, dim3(32, BY)>>>(u, out, n); });
  };
  groups(c<1>, c<2>);
  groups(c<1>, c<4>);
  groups(c<1>, c<8>);
  groups(c<2>, c<4>);
  groups(c<2>, c<8>);
  groups(c<4>, c<4>);
  groups(c<4>, c<8>);
  groups(c<8>, c<4>);
  groups(c<16>, c<4>);
  // Each way of timing, the copy and one design, and the design's fraction of the copy by each.
  const three_timings copy = time_three_ways([&] { CK(cudaMemcpyAsync(ref, u, bytes, cudaMemcpyDeviceToDevice)); }, reps);
  const dim3 grid((n / N + 31) / 32, (n + 3) / 4, (n + 3) / 4);
  const three_timings design = time_three_ways([&] { star7_groups<T, 4, 4><<<grid, dim3(32, 4)>>>(u, out, n); }, reps);
  std::printf("timings %s %d^3: copy best / median / batched %.4f / %.4f / %.4f ms; groups TZ=4 BY=4 %.4f / %.4f / %.4f ms;"
              " of copy: best/best %.1f%%, median/median %.1f%%, batched/batched %.1f%%, batched/best %.1f%%\n",
              precision, n, copy.best, copy.median, copy.batched, design.best, design.median, design.batched,
              100 * copy.best / design.best, 100 * copy.median / design.median, 100 * copy.batched / design.batched,
              100 * copy.best / design.batched);
  CK(cudaFree(u));
  CK(cudaFree(ref));
  CK(cudaFree(out));
}

int run(int argc, char** argv) {
  std::vector<long long> mibs;
  int reps = 10;
  for (int i = 1; i < argc; ++i) mibs.push_back(std::atoll(argv[i]));
  if (mibs.size() > 1) reps = int(mibs.back()), mibs.pop_back();
  if (mibs.empty()) mibs = {64, 128, 512, 1024};
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, sms);
  for (long long mib : mibs) {
    const long long bytes = mib << 20, groups = bytes / 16;
    char *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    std::vector<unsigned> h(bytes / 4);
    unsigned x = 12345;
    for (auto& v : h) v = x = x * 1664525u + 1013904223u;
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    const float memcpy_ms = time_best([&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }, reps);
    const double memcpy_bw = 2.0 * bytes / (memcpy_ms * 1e-3) / 1e9;
    std::printf("\n%lld MiB: cudaMemcpyAsync %.3f ms %.0f GB/s\n", mib, memcpy_ms, memcpy_bw);
    auto report = [&](const std::string& name, const std::function<void()>& f) {
      CK(cudaMemset(b, 0, bytes));
      const float ms = time_best(f, reps);
      std::vector<unsigned> back(bytes / 4);
      CK(cudaMemcpy(back.data(), b, bytes, cudaMemcpyDeviceToHost));
      const bool same = back == h;
      const double bw = 2.0 * bytes / (ms * 1e-3) / 1e9;
      std::printf("%lld MiB %-34s %.3f ms %6.0f GB/s %6.1f%% of memcpy %s\n", mib, name.c_str(), ms, bw,
                  100 * bw / memcpy_bw, same ? "" : "WRONG");
    };
    const int persistent = sms * 8;  // 8 blocks of 256 threads an SM
    auto vectors = [&](auto u_, auto l_, auto s_, const char* label, bool full) {
      constexpr int U = decltype(u_)::value, L = decltype(l_)::value, S = decltype(s_)::value;
      const int grid = full ? int((groups + 256LL * U - 1) / (256LL * U)) : persistent;
      report(std::string(label) + (full ? " full" : " persistent"), [&] {
        copy_vectors<U, L, S><<<grid, 256>>>(reinterpret_cast<const int4*>(a), reinterpret_cast<int4*>(b), groups);
      });
    };
    vectors(c<1>, c<load_plain>, c<store_plain>, "plain U=1", false);
    vectors(c<2>, c<load_plain>, c<store_plain>, "plain U=2", false);
    vectors(c<4>, c<load_plain>, c<store_plain>, "plain U=4", false);
    vectors(c<8>, c<load_plain>, c<store_plain>, "plain U=8", false);
    vectors(c<1>, c<load_plain>, c<store_plain>, "plain U=1", true);
    vectors(c<4>, c<load_plain>, c<store_plain>, "plain U=4", true);
    vectors(c<4>, c<load_nc>, c<store_plain>, "U=4 load=nc", false);
    vectors(c<4>, c<load_cs>, c<store_plain>, "U=4 load=cs", false);
    vectors(c<4>, c<load_nc_na>, c<store_plain>, "U=4 load=nc.na", false);
    vectors(c<4>, c<load_l2_256>, c<store_plain>, "U=4 load=L2::256B", false);
    vectors(c<4>, c<load_plain>, c<store_cs>, "U=4 store=cs", false);
    vectors(c<4>, c<load_plain>, c<store_cg>, "U=4 store=cg", false);
    vectors(c<4>, c<load_plain>, c<store_na>, "U=4 store=na", false);
    vectors(c<4>, c<load_cs>, c<store_cs>, "U=4 load=cs store=cs", false);
    vectors(c<4>, c<load_l2_256>, c<store_cs>, "U=4 load=L2::256B store=cs", false);
    vectors(c<1>, c<load_cs>, c<store_cs>, "U=1 load=cs store=cs", true);
    vectors(c<2>, c<load_nc>, c<store_cs>, "U=2 load=nc store=cs", true);
    auto bulk = [&](auto ch_, auto s_, int per_sm) {
      constexpr int CH = decltype(ch_)::value, S = decltype(s_)::value;
      CK(cudaFuncSetAttribute(copy_bulk<CH, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, CH * S));
      report("bulk " + std::to_string(CH / 1024) + "K S=" + std::to_string(S) + " B=" + std::to_string(per_sm), [&] {
        copy_bulk<CH, S><<<sms * per_sm, 32, CH * S>>>(a, b, bytes);
      });
    };
    bulk(c<4096>, c<4>, 4);
    bulk(c<8192>, c<4>, 2);
    bulk(c<8192>, c<4>, 4);
    bulk(c<16384>, c<4>, 2);
    bulk(c<16384>, c<2>, 4);
    bulk(c<32768>, c<2>, 2);
    bulk(c<16384>, c<6>, 2);
    CK(cudaFree(a));
    CK(cudaFree(b));
  }
  if (!std::getenv("NO_STAR7"))
    for (int n : {256, 512}) {
      run_star7<double>(n, reps, "fp64");
      run_star7<float>(n, reps, "fp32");
    }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "copy_probe: %s\n", e.what());
    return 1;
  }
}
