// The OpenMP backend: kernels run on the host's cores over the host arrays, so "device"
// memory is host memory and copies never happen.
#include <cstdlib>
#include <cstring>
#include <new>

#include <fmt/format.h>
#include <omp.h>

#include "../../src/backend.hpp"

namespace opuntia::thorns::CaKernel {
namespace {

class openmp_backend final : public backend {
public:
  std::string name() const override { return "openmp"; }
  std::string device_description() const override {
    const int threads = omp_get_max_threads();
    return fmt::format("openmp: {} thread{}", threads, threads == 1 ? "" : "s");
  }
  bool shares_host_memory() const override { return true; }
  void* allocate(std::size_t bytes) override {
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void release(void* device) override { std::free(device); }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    if (device != host) std::memcpy(device, host, bytes);
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    if (device != host) std::memcpy(host, device, bytes);
  }
  void synchronize() override {}  // launches return when their parallel region ends
};

}  // namespace

std::unique_ptr<backend> make_openmp_backend(const backend_options&) { return std::make_unique<openmp_backend>(); }

std::string describe_openmp_devices(const backend_options&) {
  return fmt::format("openmp: the host's cores, {} threads\n", omp_get_max_threads());
}

}  // namespace opuntia::thorns::CaKernel
