// The CUDA backend: device memory with cudaMalloc, explicit copies, one GPU per process (picked
// by the local rank under MPI launchers), every call checked. Kernels and copies to the device
// go to one stream in order; copies to the host to a second stream, so that reading one
// variable back waits for the kernel that wrote it and not for every kernel enqueued after it.
#include <cstdlib>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "../../src/backend.hpp"
#include "thorns/CaKernel/backends/cuda/check.hpp"

namespace opuntia::thorns::CaKernel {
namespace {

/// The rank of this process on its node, from the environment MPI launchers set; 0 otherwise.
int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return 0;
}

/// A cudaEvent_t recorded on a stream, with timing (the per-routine timers read it).
class cuda_event final : public queue_event {
public:
  explicit cuda_event(cudaStream_t stream) {
    OPUNTIA_CUDA_CHECK(cudaEventCreate(&event_));
    const cudaError_t recorded = cudaEventRecord(event_, stream);
    if (recorded != cudaSuccess) cudaEventDestroy(event_);
    OPUNTIA_CUDA_CHECK(recorded);
  }
  ~cuda_event() override { cudaEventDestroy(event_); }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  void wait() override { OPUNTIA_CUDA_CHECK(cudaEventSynchronize(event_)); }
  bool done() override {
    const cudaError_t status = cudaEventQuery(event_);
    if (status == cudaErrorNotReady) return false;
    OPUNTIA_CUDA_CHECK(status);
    return true;
  }
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

class cuda_backend final : public backend {
public:
  explicit cuda_backend(int device) : device_(device) {
    OPUNTIA_CUDA_CHECK(cudaSetDevice(device_));
    // Blocking streams (the default flags): a launch on the legacy default stream, as a caller
    // that sets no kernel_call::queue makes, stays ordered with them.
    OPUNTIA_CUDA_CHECK(cudaStreamCreate(&compute_));
    const cudaError_t created = cudaStreamCreate(&transfer_);
    if (created != cudaSuccess) cudaStreamDestroy(compute_);
    OPUNTIA_CUDA_CHECK(created);
  }
  ~cuda_backend() override {
    cudaStreamDestroy(transfer_);
    cudaStreamDestroy(compute_);
  }
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;
  std::string name() const override { return "cuda"; }
  std::string device_description() const override {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_));
    return fmt::format("cuda device {}: {}", device_, properties.name);
  }
  bool shares_host_memory() const override { return false; }
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    OPUNTIA_CUDA_CHECK(cudaMalloc(&p, bytes == 0 ? 1 : bytes));
    return p;
  }
  void release(void* device) override { cudaFree(device); }  // never throws: called from destructors
  void* queue() const override { return compute_; }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, compute_));
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, transfer_));
    OPUNTIA_CUDA_CHECK(cudaStreamSynchronize(transfer_));
  }
  void synchronize() override {
    OPUNTIA_CUDA_CHECK(cudaGetLastError());
    OPUNTIA_CUDA_CHECK(cudaDeviceSynchronize());
  }
  queue_event_ptr record() override { return std::make_shared<cuda_event>(compute_); }
  double elapsed_seconds(queue_event& from, queue_event& to) override {
    float milliseconds = 0;
    OPUNTIA_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, static_cast<cuda_event&>(from).get(),
                                            static_cast<cuda_event&>(to).get()));
    return milliseconds * 1e-3;
  }
  // The grid function store's arrays are pinned where they are (cudaHostRegister) rather than
  // allocated pinned (cudaHostAlloc): the store keeps one allocation path for every backend, its
  // arrays keep their first-touch placement on the cores that compute on them, and only arrays
  // that get a device copy are pinned.
  void pin(void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaHostRegister(host, bytes == 0 ? 1 : bytes, cudaHostRegisterDefault));
  }
  void unpin(void* host) noexcept override {
    if (cudaHostUnregister(host) != cudaSuccess) cudaGetLastError();
  }
  std::optional<std::size_t> memory_available() const override {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
      cudaGetLastError();
      return std::nullopt;
    }
    return free_bytes;
  }

private:
  int device_;
  cudaStream_t compute_ = nullptr, transfer_ = nullptr;
};

}  // namespace

std::unique_ptr<backend> make_cuda_backend(const backend_options&) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error of a machine without a GPU
    return nullptr;
  }
  return std::make_unique<cuda_backend>(local_rank() % count);
}

}  // namespace opuntia::thorns::CaKernel

namespace opuntia::thorns::CaKernel {

std::string describe_cuda_devices(const backend_options&) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "cuda: no device\n";
  }
  std::string out;
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp properties{};
    OPUNTIA_CUDA_CHECK(cudaGetDeviceProperties(&properties, d));
    out += fmt::format("cuda device {}: {} (compute capability {}.{}, {} MiB){}\n", d, properties.name, properties.major,
                       properties.minor, properties.totalGlobalMem >> 20, d == local_rank() % count ? "  [default]" : "");
  }
  return out;
}

}  // namespace opuntia::thorns::CaKernel
