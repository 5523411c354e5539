// The CUDA backend: device memory with cudaMalloc, explicit copies, one GPU per process (picked
// by the local rank under MPI launchers), every call checked.
#include <cstdlib>
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

class cuda_backend final : public backend {
public:
  explicit cuda_backend(int device) : device_(device) { OPUNTIA_CUDA_CHECK(cudaSetDevice(device_)); }
  std::string name() const override { return "cuda"; }
  bool shares_host_memory() const override { return false; }
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    OPUNTIA_CUDA_CHECK(cudaMalloc(&p, bytes == 0 ? 1 : bytes));
    return p;
  }
  void release(void* device) override { cudaFree(device); }  // never throws: called from destructors
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    OPUNTIA_CUDA_CHECK(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
  }
  void synchronize() override {
    OPUNTIA_CUDA_CHECK(cudaGetLastError());
    OPUNTIA_CUDA_CHECK(cudaDeviceSynchronize());
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
