// What a kernel boundary costs a step, and what the walls' x faces cost, on a Hopper GPU (issue 27:
// the cavity's step at 256^3 against the sum of its kernels' floors). Under Nsight Systems the
// fp32 cavity step (1.852 ms) had its 28 kernels busy 1.760 ms: 3.0-3.5 us idle after each large
// kernel, and its walls' x-face launch took 37-39 us where the y and z faces took 4.4-5.1.
//
// A. A chain of 20 launches of a 7-point Jacobi sweep (p, rhs -> p_new; 256^3 cells of floats in
//    the cavity's layout: 258 points a row in rows of 320, the first cell on a 128-byte line), as
//    the pressure solve runs them: launched plainly, and with programmatic dependent launch
//    (cudaLaunchAttributeProgrammaticStreamSerialization; each kernel waits for the grid before
//    it with griddepcontrol.wait before it touches memory), with and without the kernels letting
//    the next one launch as they start (griddepcontrol.launch_dependents). Then the same chain of
//    tiny kernels: the boundary's cost alone. Each chain is queued behind a spinning kernel, so
//    that the host's rate of launching does not bound it (the figures of bench/RESULTS.md,
//    2026-12-02, were taken without that hold, and are bounds from above).
// B. The x faces of three such arrays as the boundary launcher updates them (a thread a point of
//    the slabs, the lower face's ghost cell and wall and the upper face's ghost cell), after the
//    L2 was filled with other data: as generated (64-bit index arithmetic, every point written),
//    with 32-bit index arithmetic, a thread a row doing all of the row's face points, without the
//    writes of values kept as they are, and a y-face launch for comparison.
//   build/experiments/launch_gap_probe   (on the GPU machine)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int N = 258, PITCH = 320, LEAD = 31;
constexpr size_t ELEMENTS = size_t(PITCH) * N * N;

__device__ __forceinline__ long long at(int i, int j, int k) {
  return LEAD + i + (long long)PITCH * (j + (long long)N * k);
}

__device__ __forceinline__ void wait_for_previous() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void let_next_launch() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

// A thread a column of 4 planes, blocks of 64 x 4: the cells 1..256 of each axis.
template <bool wait, bool trigger>
__global__ void jacobi(const float* __restrict__ p, const float* __restrict__ rhs, float* __restrict__ out) {
  if (trigger) let_next_launch();
  if (wait) wait_for_previous();
  const int i = 1 + blockIdx.x * 64 + threadIdx.x, j = 1 + blockIdx.y * 4 + threadIdx.y;
  if (i > 256 || j > 256) return;
  for (int k = 1 + blockIdx.z * 4; k < 1 + blockIdx.z * 4 + 4 && k <= 256; ++k) {
    const long long c = at(i, j, k);
    out[c] = (p[c - 1] + p[c + 1] + p[c - PITCH] + p[c + PITCH] + p[c - (long long)PITCH * N] +
              p[c + (long long)PITCH * N] - rhs[c]) * (1.0f / 6.0f);
  }
}

template <bool wait, bool trigger>
__global__ void tiny(float* a) {
  if (trigger) let_next_launch();
  if (wait) wait_for_previous();
  if (threadIdx.x == 0) a[blockIdx.x] += 1.0f;
}

// Holds the queue for about `cycles` clock ticks: the chains are queued behind it, so that their
// time is the device's and not the host's rate of launching.
__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

template <typename Kernel, typename... Args>
static void launch(bool programmatic, Kernel kernel, dim3 grid, dim3 block, cudaStream_t s, Args... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.stream = s;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = programmatic ? 1 : 0;
  CHECK(cudaLaunchKernelEx(&config, kernel, args...));
}

// The x faces: slabs [0, 2) and [257, 258) in x over every row (edges and corners included).
__device__ __forceinline__ void face_point(float* vx, float* vy, float* vz, int i, int j, int k, bool keep_writes) {
  const bool upper = i == N - 1, ghost = upper || i == 0;
  const int di = upper ? -1 : 1;
  const long long c = at(i, j, k);
  vx[c] = 0;
  if (ghost) {
    vy[c] = -vy[c + di];
    vz[c] = -vz[c + di];
  } else if (keep_writes) {
    vy[c] = vy[c];
    vz[c] = vz[c];
  }
}

__global__ void x_faces_generated(float* vx, float* vy, float* vz) {  // 64-bit, as generated
  long long point = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long first = 2LL * N * N;
  const bool second = point >= first;
  if (second) {
    point -= first;
    if (point >= 1LL * N * N) return;
  }
  const long long nx = second ? 1 : 2, ny = N;
  const int i = (second ? N - 1 : 0) + (int)(point % nx);
  const int j = (int)((point / nx) % ny);
  const int k = (int)(point / (nx * ny));
  face_point(vx, vy, vz, i, j, k, true);
}

__global__ void x_faces_32bit(float* vx, float* vy, float* vz, int keep_writes) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  const int first = 2 * N * N;
  const bool second = point >= first;
  if (second) {
    point -= first;
    if (point >= N * N) return;
  }
  const int nx = second ? 1 : 2;
  const int i = (second ? N - 1 : 0) + point % nx;
  const int row = point / nx;
  face_point(vx, vy, vz, i, row % N, row / N, keep_writes != 0);
}

__global__ void x_faces_row(float* vx, float* vy, float* vz) {  // a thread a row, its three points
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N * N) return;
  const int j = row % N, k = row / N;
  face_point(vx, vy, vz, 0, j, k, true);
  face_point(vx, vy, vz, 1, j, k, true);
  face_point(vx, vy, vz, N - 1, j, k, true);
}

__global__ void y_faces(float* vx, float* vy, float* vz) {  // rows 0, 1 and 257 of every plane
  const int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point >= 3 * N * N) return;
  const int i = point % N, slab_row = (point / N) % 3, k = point / (3 * N);
  const int j = slab_row == 2 ? N - 1 : slab_row;
  const bool upper = j == N - 1, ghost = upper || j == 0;
  const long long c = at(i, j, k), d = upper ? -PITCH : PITCH;
  vy[c] = 0;
  vx[c] = ghost ? -vx[c + d] : vx[c];
  vz[c] = ghost ? -vz[c + d] : vz[c];
}

int main() {
  float *p, *rhs, *out, *vx, *vy, *vz, *flush, *small;
  const size_t bytes = ELEMENTS * sizeof(float) + 256;
  for (float** a : {&p, &rhs, &out, &vx, &vy, &vz}) {
    CHECK(cudaMalloc(a, bytes));
    CHECK(cudaMemset(*a, 0, bytes));
  }
  const size_t flush_bytes = size_t(512) << 20;
  CHECK(cudaMalloc(&flush, flush_bytes));
  CHECK(cudaMalloc(&small, 4096 * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  // The median over `rounds` of body's time on the device, in us, each round after `before` (untimed).
  const auto timed_after = [&](auto before, auto body, int rounds) {
    std::vector<float> ms;
    for (int r = 0; r < rounds; ++r) {
      before();
      CHECK(cudaEventRecord(e0, s));
      body();
      CHECK(cudaEventRecord(e1, s));
      CHECK(cudaEventSynchronize(e1));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2] * 1e3;
  };
  // The chains: queued behind a spin of about 0.3 ms (2e9 ticks a second or less), which the
  // host's launches of 20 kernels take less than.
  const auto timed = [&](auto body, int rounds) { return timed_after([&] { spin<<<1, 1, 0, s>>>(600000); }, body, rounds); };
  {
    // copy bandwidth of the same arrays, for scale
    const double us = timed([&] { CHECK(cudaMemcpyAsync(out, p, ELEMENTS * sizeof(float), cudaMemcpyDeviceToDevice, s)); }, 20);
    std::printf("copy of one array: %.1f us, %.0f GB/s\n", us, 2.0 * ELEMENTS * sizeof(float) / us / 1e3);
  }
  const dim3 grid(4, 64, 64), block(64, 4);
  struct chain_mode {
    const char* name;
    bool programmatic;
    void (*jacobi_kernel)(const float*, const float*, float*);
    void (*tiny_kernel)(float*);
  };
  const chain_mode modes[] = {
      {"plain launches", false, jacobi<false, false>, tiny<false, false>},
      {"programmatic, griddepcontrol.wait first", true, jacobi<true, false>, tiny<true, false>},
      {"programmatic, launch_dependents then wait", true, jacobi<true, true>, tiny<true, true>},
      {"plain launches (again)", false, jacobi<false, false>, tiny<false, false>},
      {"programmatic, launch_dependents then wait (again)", true, jacobi<true, true>, tiny<true, true>},
  };
  for (const auto& m : modes) {
    const double sweep = timed([&] {
      for (int n = 0; n < 20; ++n) launch(m.programmatic, m.jacobi_kernel, grid, block, s, (const float*)(n % 2 ? out : p), (const float*)rhs, n % 2 ? p : out);
    }, 30) / 20;
    const double tiny_us = timed([&] {
      for (int n = 0; n < 20; ++n) launch(m.programmatic, m.tiny_kernel, dim3(132), dim3(128), s, small);
    }, 30) / 20;
    const double floor_bytes = 3.0 * 256 * 256 * 256 * sizeof(float);
    std::printf("A %-50s jacobi %.2f us a sweep (%.0f GB/s of its floor), tiny %.2f us a launch\n", m.name, sweep,
                floor_bytes / sweep / 1e3, tiny_us);
  }
  const auto fill_l2 = [&] { CHECK(cudaMemsetAsync(flush, 1, flush_bytes, s)); };
  const auto face_time = [&](auto launch_faces) { return timed_after(fill_l2, launch_faces, 30); };
  const int threads = 256;
  const unsigned x_blocks = (3 * N * N + threads - 1) / threads, row_blocks = (N * N + threads - 1) / threads;
  std::printf("B x faces as generated (64-bit index arithmetic): %.2f us\n",
              face_time([&] { x_faces_generated<<<x_blocks, threads, 0, s>>>(vx, vy, vz); }));
  std::printf("B x faces, 32-bit index arithmetic: %.2f us\n",
              face_time([&] { x_faces_32bit<<<x_blocks, threads, 0, s>>>(vx, vy, vz, 1); }));
  std::printf("B x faces, 32-bit, kept values not written: %.2f us\n",
              face_time([&] { x_faces_32bit<<<x_blocks, threads, 0, s>>>(vx, vy, vz, 0); }));
  std::printf("B x faces, a thread a row: %.2f us\n", face_time([&] { x_faces_row<<<row_blocks, threads, 0, s>>>(vx, vy, vz); }));
  std::printf("B y faces (rows 0, 1, 257 of each plane): %.2f us\n",
              face_time([&] { y_faces<<<x_blocks, threads, 0, s>>>(vx, vy, vz); }));
  std::printf("B nothing after the fill (the events alone): %.2f us\n", face_time([&] {}));
  // The x faces with the arrays' lines in the L2 (as after a kernel that wrote them): no fill.
  std::printf("B x faces as generated, after a sweep that wrote vz: %.2f us\n",
              timed_after([&] { jacobi<false, false><<<grid, block, 0, s>>>(vx, vy, vz); },
                          [&] { x_faces_generated<<<x_blocks, threads, 0, s>>>(vx, vy, vz); }, 30));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
