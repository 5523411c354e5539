#pragma once
// What the CaKernel runtime needs from a backend. Each backend lives in backends/<name>/ with
// the same file names; the rest of the runtime talks to this interface only.
#include <cstddef>
#include <memory>
#include <string>

namespace opuntia::thorns::CaKernel {

class backend {
public:
  virtual ~backend() = default;
  virtual std::string name() const = 0;
  /// OpenMP: kernels read and write the host arrays themselves, so nothing is ever copied.
  virtual bool shares_host_memory() const = 0;
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* device) = 0;
  virtual void copy_to_device(void* device, const void* host, std::size_t bytes) = 0;
  virtual void copy_to_host(void* host, const void* device, std::size_t bytes) = 0;
  virtual void synchronize() = 0;
};

/// The backend called `name` ("openmp", ...), or nullptr when this build has none by that name.
std::unique_ptr<backend> make_openmp_backend();

}  // namespace opuntia::thorns::CaKernel
