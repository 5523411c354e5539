#pragma once
// Which OpenCL device a run uses: CaKernel::opencl_platform and CaKernel::opencl_device, each
// an index or a case-insensitive name substring; by default the first GPU, else the first
// device. Pure functions over a description of the machine, so they are tested without OpenCL.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opuntia::thorns::CaKernel::opencl_selection {

struct device_info {
  std::string name;
  std::string type;  // GPU, CPU, accelerator, other
  std::string version;
  std::string driver_version;
  std::uint64_t global_memory = 0;  // CL_DEVICE_GLOBAL_MEM_SIZE in bytes; 0: not known
};

struct platform_info {
  std::string name;
  std::string version;
  std::vector<device_info> devices;
};

struct device_choice {
  std::size_t platform = 0;
  std::size_t device = 0;  // within the platform
};

/// The device the selectors pick. `platform_selector` (empty: every platform) chooses platforms
/// by index, or by a substring of their name or version ("pocl" finds "Portable Computing
/// Language", whose version says PoCL);
/// `device_selector` (empty: the first GPU of those, else their first device) counts or names
/// devices of the chosen platforms in listed order. Throws std::invalid_argument naming the
/// parameter and listing what the machine has.
device_choice choose(const std::vector<platform_info>& platforms, const std::string& platform_selector,
                     const std::string& device_selector);

/// What a backend that may decline takes: the device `choose` picks, except that with
/// `gpu_only` (CaKernel::backend = "auto") a pick that is not a GPU is declined (nullopt), and
/// with no selector set a machine whose platforms list no device at all (pocl run as an ordinary
/// user lists its platform with none) is declined too, whatever `gpu_only` says: the caller then
/// goes on to the next backend, or says the machine has no device for this one. Selectors that
/// the parameter file set and that match nothing are still an error naming them.
std::optional<device_choice> choose_if_offered(const std::vector<platform_info>& platforms,
                                               const std::string& platform_selector, const std::string& device_selector,
                                               bool gpu_only);

/// The platforms and devices as `opuntia --list-devices` prints them, `default_choice` marked.
std::string describe(const std::vector<platform_info>& platforms, const device_choice* default_choice);

}  // namespace opuntia::thorns::CaKernel::opencl_selection
