#pragma once
// Tensor maps for OpenCL's rings on NVIDIA GPUs of compute capability 9.0 and later: the
// 3dblock_ring of templates/opencl/3dblock.h.tpl copies each plane of a cached variable into its
// ring with one cp.async.bulk.tensor (inline PTX), as CUDA's does (backends/cuda/tensor_copy.cuh),
// from a CUtensorMap that only CUDA's driver can encode. NVIDIA's OpenCL runs on that driver: the
// maps are encoded by it (libcuda.so.1, loaded at run time, so that a build or a machine without
// CUDA keeps OpenCL) for a buffer's device address, which an OpenCL kernel reads. On an H200 the
// radius-4 star's ring ran at 72.6% of copy in fp64 at 512^3 this way against 60.2% filled by
// cp.async 16 bytes a work-item, bit-equal (bench/experiments/opencl_ring_probe.cpp,
// bench/RESULTS.md 2026-12-03).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace opuntia::opencl {

/// One tensor map's 128 bytes, as the kernel reads them from a global buffer.
using tensor_map_bytes = std::array<unsigned char, 128>;

/// An array of `dims` elements of `element_bytes` (4 or 8; x contiguous, then y, then z; planes
/// `plane_rows` rows apart in memory), copied in boxes of `box` elements in x and y and one
/// plane in z.
struct tensor_map_shape {
  std::array<std::uint64_t, 3> dims{};
  std::uint64_t plane_rows = 0;
  std::array<std::uint32_t, 2> box{};
  int element_bytes = 0;
};

/// CUDA's driver, opened for the GPU of one OpenCL device.
class tensor_map_encoder {
 public:
  /// The encoder for the CUDA device whose UUID is `uuid` (cl_khr_device_uuid's CL_DEVICE_UUID_KHR
  /// of the OpenCL device), or none, with the reason in `why`: no libcuda.so.1, a driver without
  /// cuTensorMapEncodeTiled, no device of that UUID, or a build without CUDA's headers.
  static std::unique_ptr<tensor_map_encoder> for_device(const std::array<unsigned char, 16>& uuid, std::string& why);

  /// The map of the array at device address `address` (16-byte aligned), or none where the driver
  /// refuses it, with the reason in `why`. Past the array the copies bring zeros.
  std::optional<tensor_map_bytes> encode(std::uint64_t address, const tensor_map_shape& shape, std::string& why) const;

  ~tensor_map_encoder();
  tensor_map_encoder(const tensor_map_encoder&) = delete;
  tensor_map_encoder& operator=(const tensor_map_encoder&) = delete;

 private:
  struct driver;
  explicit tensor_map_encoder(std::unique_ptr<driver> d);
  std::unique_ptr<driver> driver_;
};

}  // namespace opuntia::opencl
