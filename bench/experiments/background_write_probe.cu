// Whether a write of 384 MiB slows a CUDA run beside it, and which kind: a loop of steps runs
// alone for 0.5 s, then beside each disturbance (a thread writing from page-locked, pageable or
// shared memory, with O_DIRECT, on a far CPU, with fdatasync each 16 MiB; a thread copying with
// memcpy; a process forked before CUDA started writing from shared memory; 384 MiB copied eight
// times from the device on a queue of its own into page-locked memory of 4 KiB pages, of 2 MiB
// pages, in pieces spread over time, or within the device; where HDF5 is found, a thread writing
// an HDF5 file of three datasets as a checkpoint is written: H5Dwrite, H5Fflush, fsync), and
// prints the step's time both ways. The step: four launches of a tiny kernel and a synchronisation (bound by
// the host and the launch latency), or with HEAVY set a 7-point update of 256^3 doubles a launch
// with an event every 16 and the host at most four windows ahead (bound by the device, like a
// run), which also prints the device's time a step from the events. bench/RESULTS.md, 2026-12-02:
// on an H200 machine no write moved either loop, which ruled out the write as the cost of a
// background checkpoint and led to the old checkpoint's unlink; the copies then cost a step
// 1-2% while they ran, with 2 MiB host pages as with 4 KiB ones. The HDF5 write asks whether
// what is left (kernels up to 6% slower while a checkpoint's fsync ran, under Nsight Systems)
// comes from HDF5's way of writing.
//   build/experiments/background_write_probe; HEAVY=1 build/experiments/background_write_probe
#include <cuda_runtime.h>
#ifdef PROBE_HDF5
#include <hdf5.h>
#endif
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

static const size_t bytes = size_t(384) << 20;
static const size_t chunk = size_t(16) << 20;

__global__ void star(const double* a, double* b, int n) {
  int i = blockIdx.x * 64 + threadIdx.x, j = blockIdx.y * 4 + threadIdx.y;
  for (int k = blockIdx.z * 4; k < blockIdx.z * 4 + 4; ++k) {
    if (i < 1 || j < 1 || k < 1 || i >= n - 1 || j >= n - 1 || k >= n - 1) continue;
    long p = i + (long)n * (j + (long)n * k);
    b[p] = 0.5 * a[p] + 0.1 * (a[p - 1] + a[p + 1] + a[p - n] + a[p + n] + a[p - (long)n * n] + a[p + (long)n * n]);
  }
}

__global__ void tiny(double* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 0.999 + 1.0;
}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void write_file(const char* path, const char* buf, bool direct) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0644);
  if (fd < 0) { perror("open"); return; }
  for (size_t off = 0; off < bytes; off += chunk) {
    ssize_t w = write(fd, buf + off, chunk);
    if (w != (ssize_t)chunk) { perror("write"); break; }
  }
  fsync(fd);
  close(fd);
  unlink(path);
}

#ifdef PROBE_HDF5
// The bytes as three datasets of doubles (a checkpoint's three time levels), then flushed and
// synced as IOHDF5 does a checkpoint.
static void write_hdf5(const char* path, const char* buf) {
  const hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return;
  const hsize_t count = bytes / 3 / sizeof(double);
  const hid_t space = H5Screate_simple(1, &count, nullptr);
  for (int level = 0; level < 3; ++level) {
    char name[16];
    std::snprintf(name, sizeof name, "level%d", level);
    const hid_t set = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf + level * count * sizeof(double));
    H5Dclose(set);
  }
  H5Sclose(space);
  H5Fflush(file, H5F_SCOPE_GLOBAL);
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) >= 0 && handle != nullptr) fsync(*static_cast<int*>(handle));
  H5Fclose(file);
  unlink(path);
}
#endif

int main() {
  // A child forked before CUDA starts: it writes from shared memory when told through a pipe.
  char* shared = (char*)mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  memset(shared, 1, bytes);
  int to_child[2], from_child[2];
  if (pipe(to_child) || pipe(from_child)) return 1;
  pid_t child = fork();
  if (child == 0) {
    char c;
    while (read(to_child[0], &c, 1) == 1) {
      if (c == 'q') _exit(0);
      write_file("/tmp/probe_child.bin", shared, false);
      if (write(from_child[1], "d", 1) != 1) _exit(1);
    }
    _exit(0);
  }
  cpu_set_t all;
  sched_getaffinity(0, sizeof all, &all);
  printf("cpus allowed: %d; main on cpu %d\n", CPU_COUNT(&all), sched_getcpu());

  const int n = 1 << 14;
  double* d;
  cudaMalloc(&d, n * sizeof(double));
  const int N = 256;
  double *ga, *gb;
  cudaMalloc(&ga, sizeof(double) * N * N * N);
  cudaMalloc(&gb, sizeof(double) * N * N * N);
  cudaMemset(ga, 0, sizeof(double) * N * N * N);
  cudaMemset(gb, 0, sizeof(double) * N * N * N);
  cudaEvent_t ev[64];
  for (auto& e : ev) cudaEventCreate(&e);
  long launched = 0;
  cudaStream_t s;
  cudaStreamCreate(&s);
  char* pinned;
  cudaMallocHost(&pinned, bytes);
  memset(pinned, 2, bytes);
  char* pageable = (char*)aligned_alloc(4096, bytes);
  memset(pageable, 3, bytes);
  char* target = (char*)aligned_alloc(4096, bytes);
  memset(target, 4, bytes);
  // The snapshot's copy to the host: from a device buffer, on a queue of its own, into page-locked
  // memory of 4 KiB pages (cudaMallocHost) or of 2 MiB pages (transparent huge pages, registered).
  char* device_source;
  cudaMalloc(&device_source, bytes);
  cudaMemset(device_source, 5, bytes);
  char* device_target;
  cudaMalloc(&device_target, bytes);
  char* huge = (char*)mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  madvise(huge, bytes, MADV_HUGEPAGE);
  memset(huge, 6, bytes);
  cudaHostRegister(huge, bytes, cudaHostRegisterDefault);
  {
    FILE* rollup = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    while (rollup && fgets(line, sizeof line, rollup)) {
      if (strncmp(line, "AnonHugePages", 13) == 0) printf("huge pages of the process: %s", line);
    }
    if (rollup) fclose(rollup);
  }
  cudaStream_t side;
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  auto copies = [&](char* into, cudaMemcpyKind kind, size_t piece, int pause_us) {
    for (int r = 0; r < 8; ++r) {
      for (size_t off = 0; off < bytes; off += piece) {
        cudaMemcpyAsync(into + off, device_source + off, piece, kind, side);
        if (pause_us > 0) {
          cudaStreamSynchronize(side);
          usleep(pause_us);
        }
      }
      cudaStreamSynchronize(side);
    }
  };

  // One step: 4 launches and a synchronisation, as a host-bound run's.
  const bool heavy = getenv("HEAVY") != nullptr;
  double gpu_ms = 0;
  long gpu_steps = 0;
  auto step = [&] {
    if (!heavy) {
      for (int l = 0; l < 4; ++l) tiny<<<n / 256, 256, 0, s>>>(d, n);
      cudaStreamSynchronize(s);
      return;
    }
    if (launched % 16 == 0) {
      int slot = (launched / 16) % 64;
      cudaEventRecord(ev[slot], s);
      if (launched >= 64) {  // wait for the event of 4 windows ago: a bounded queue, and time the window after it
        int old = ((launched / 16) - 4) % 64, next = ((launched / 16) - 3) % 64;
        cudaEventSynchronize(ev[next]);
        float ms;
        cudaEventElapsedTime(&ms, ev[old], ev[next]);
        gpu_ms += ms;
        gpu_steps += 16;
      }
    }
    star<<<dim3(N / 64, N / 4, N / 4), dim3(64, 4, 1), 0, s>>>(ga, gb, N);
    std::swap(ga, gb);
    ++launched;
  };
  for (int i = 0; i < 2000; ++i) step();
  auto rate_for = [&](double seconds) {
    gpu_ms = 0; gpu_steps = 0;
    double t0 = now();
    long steps = 0;
    while (now() - t0 < seconds) { step(); ++steps; }
    return (now() - t0) / steps;
  };
  auto rate_while = [&](std::atomic<bool>& done) {
    gpu_ms = 0; gpu_steps = 0;
    double t0 = now();
    long steps = 0;
    while (!done.load()) { step(); ++steps; }
    return std::make_pair((now() - t0) / steps, now() - t0);
  };
  int main_cpu = sched_getcpu();
  int far_cpu = -1;
  for (int c = CPU_SETSIZE - 1; c >= 0; --c)
    if (CPU_ISSET(c, &all) && c != main_cpu) { far_cpu = c; break; }

  struct disturbance { std::string name; std::function<void()> run; bool pin_far; };
  std::vector<disturbance> list = {
      {"control: thread sleeps 0.3 s", [] { usleep(300000); }, false},
      {"thread writes from pinned memory", [&] { write_file("/tmp/probe.bin", pinned, false); }, false},
      {"thread writes from pageable memory", [&] { write_file("/tmp/probe.bin", pageable, false); }, false},
      {"thread writes from the shared mapping", [&] { write_file("/tmp/probe.bin", shared, false); }, false},
      {"thread writes O_DIRECT from pinned memory", [&] { write_file("/tmp/probe.bin", pinned, true); }, false},
      {"thread memcpy pinned -> pageable x4 (no syscalls)", [&] { for (int r = 0; r < 4; ++r) memcpy(target, pinned, bytes); }, false},
      {"thread writes from pinned memory, on a far cpu", [&] { write_file("/tmp/probe.bin", pinned, false); }, true},
      {"thread writes from pinned memory, fresh page cache file each 16 MiB with fdatasync", [&] {
         int fd = open("/tmp/probe.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
         for (size_t off = 0; off < bytes; off += chunk) { if (write(fd, pinned + off, chunk) < 0) break; fdatasync(fd); }
         close(fd); unlink("/tmp/probe.bin"); }, false},
      {"side queue copies device -> page-locked host (cudaMallocHost) x8", [&] { copies(pinned, cudaMemcpyDeviceToHost, bytes, 0); }, false},
      {"side queue copies device -> 2 MiB pages registered x8", [&] { copies(huge, cudaMemcpyDeviceToHost, bytes, 0); }, false},
      {"side queue copies device -> page-locked host, 8 MiB pieces 1 ms apart x8", [&] { copies(pinned, cudaMemcpyDeviceToHost, size_t(8) << 20, 1000); }, false},
      {"side queue copies device -> device x8", [&] { copies(device_target, cudaMemcpyDeviceToDevice, bytes, 0); }, false},
#ifdef PROBE_HDF5
      {"thread writes an HDF5 file of three datasets from pinned memory, H5Fflush, fsync", [&] { write_hdf5("/tmp/probe.h5", pinned); }, false},
#endif
      {"child process writes from the shared mapping", [&] {
         char c = 'w';
         if (write(to_child[1], &c, 1) != 1) return;
         if (read(from_child[0], &c, 1) != 1) return; }, false},
  };
  for (int round = 0; round < 2; ++round) {
    for (auto& dist : list) {
      double alone = rate_for(0.5);
      double gpu_alone = gpu_steps ? gpu_ms * 1e3 / gpu_steps : 0;
      std::atomic<bool> done{false};
      double t0 = now();
      std::thread th([&] {
        if (dist.pin_far && far_cpu >= 0) {
          cpu_set_t one; CPU_ZERO(&one); CPU_SET(far_cpu, &one);
          sched_setaffinity(0, sizeof one, &one);
        }
        dist.run();
        done = true;
      });
      auto [beside, span] = rate_while(done);
      th.join();
      double gpu_beside = gpu_steps ? gpu_ms * 1e3 / gpu_steps : 0;
      printf("%-80s step alone %.2f us, beside %.2f us (%+.1f%%) over %.3f s; on the GPU %.2f / %.2f us a step\n", dist.name.c_str(),
             alone * 1e6, beside * 1e6, 100 * (beside / alone - 1), now() - t0, gpu_alone, gpu_beside);
      fflush(stdout);
    }
  }
  if (write(to_child[1], "q", 1) != 1) return 1;
  waitpid(child, nullptr, 0);
  return 0;
}
