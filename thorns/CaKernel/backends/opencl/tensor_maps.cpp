// CUDA's tensor-map encoder for OpenCL's rings (tensor_maps.hpp). Built with CUDA's headers where
// CMake found them (OPUNTIA_OPENCL_TENSOR_MAPS, thorns/CMakeLists.txt), for the types and
// entry points; the driver itself is loaded at run time.
#include "tensor_maps.hpp"

#include <fmt/format.h>

#include <cstring>
#include <utility>

#if OPUNTIA_OPENCL_TENSOR_MAPS
#include <cuda.h>
#include <dlfcn.h>

#include "thorns/CaKernel/backends/tensor_map_encoding.hpp"
#endif

namespace opuntia::opencl {

#if OPUNTIA_OPENCL_TENSOR_MAPS

/// cuda.h renames most entry points to their latest version (cuCtxPushCurrent is
/// cuCtxPushCurrent_v2): dlsym must ask for that name, which the macro's expansion spells.
#define OPUNTIA_CUDA_SYMBOL_TEXT(name) #name
#define OPUNTIA_CUDA_SYMBOL(name) OPUNTIA_CUDA_SYMBOL_TEXT(name)

struct tensor_map_encoder::driver {
  void* library = nullptr;
  decltype(&cuTensorMapEncodeTiled) encode_tiled = nullptr;
  decltype(&cuCtxPushCurrent) push_current = nullptr;
  decltype(&cuCtxPopCurrent) pop_current = nullptr;
  decltype(&cuDevicePrimaryCtxRelease) release_primary = nullptr;
  CUdevice device = 0;
  CUcontext primary = nullptr;  // the device's primary context, retained
  ~driver() {
    if (primary != nullptr && release_primary != nullptr) release_primary(device);
    // The library stays loaded: CUDA's driver does not support being unloaded within a process.
  }
};

namespace {

template <typename F>
F symbol(void* library, const char* name) {
  return reinterpret_cast<F>(dlsym(library, name));
}

}  // namespace

std::unique_ptr<tensor_map_encoder> tensor_map_encoder::for_device(const std::array<unsigned char, 16>& uuid,
                                                                   std::string& why) {
  auto d = std::make_unique<driver>();
  d->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (d->library == nullptr) {
    why = "CUDA's driver (libcuda.so.1) could not be loaded";
    return nullptr;
  }
  const auto init = symbol<decltype(&cuInit)>(d->library, OPUNTIA_CUDA_SYMBOL(cuInit));
  const auto count = symbol<decltype(&cuDeviceGetCount)>(d->library, OPUNTIA_CUDA_SYMBOL(cuDeviceGetCount));
  const auto get = symbol<decltype(&cuDeviceGet)>(d->library, OPUNTIA_CUDA_SYMBOL(cuDeviceGet));
  const auto get_uuid = symbol<decltype(&cuDeviceGetUuid)>(d->library, OPUNTIA_CUDA_SYMBOL(cuDeviceGetUuid));
  const auto retain = symbol<decltype(&cuDevicePrimaryCtxRetain)>(d->library, OPUNTIA_CUDA_SYMBOL(cuDevicePrimaryCtxRetain));
  d->encode_tiled = symbol<decltype(&cuTensorMapEncodeTiled)>(d->library, OPUNTIA_CUDA_SYMBOL(cuTensorMapEncodeTiled));
  d->push_current = symbol<decltype(&cuCtxPushCurrent)>(d->library, OPUNTIA_CUDA_SYMBOL(cuCtxPushCurrent));
  d->pop_current = symbol<decltype(&cuCtxPopCurrent)>(d->library, OPUNTIA_CUDA_SYMBOL(cuCtxPopCurrent));
  d->release_primary =
      symbol<decltype(&cuDevicePrimaryCtxRelease)>(d->library, OPUNTIA_CUDA_SYMBOL(cuDevicePrimaryCtxRelease));
  if (init == nullptr || count == nullptr || get == nullptr || get_uuid == nullptr || retain == nullptr ||
      d->encode_tiled == nullptr || d->push_current == nullptr || d->pop_current == nullptr ||
      d->release_primary == nullptr) {
    why = "CUDA's driver has no cuTensorMapEncodeTiled (CUDA 12 or later has)";
    return nullptr;
  }
  if (const CUresult r = init(0); r != CUDA_SUCCESS) {
    why = fmt::format("cuInit failed (CUresult {})", static_cast<int>(r));
    return nullptr;
  }
  int devices = 0;
  if (count(&devices) != CUDA_SUCCESS) devices = 0;
  for (int n = 0; n < devices; ++n) {
    CUdevice device = 0;
    CUuuid id{};
    if (get(&device, n) != CUDA_SUCCESS || get_uuid(&id, device) != CUDA_SUCCESS) continue;
    if (std::memcmp(id.bytes, uuid.data(), uuid.size()) != 0) continue;
    // The encoder wants a current context (without one it answers CUDA_ERROR_INVALID_CONTEXT).
    // The device's primary context does: the map holds only the buffer's address, which OpenCL's
    // kernels use in OpenCL's own context (H200, 2026-12-03: bench/experiments/opencl_ring_probe.cpp).
    if (const CUresult r = retain(&d->primary, device); r != CUDA_SUCCESS) {
      d->primary = nullptr;
      why = fmt::format("CUDA's primary context could not be retained (CUresult {})", static_cast<int>(r));
      return nullptr;
    }
    d->device = device;
    return std::unique_ptr<tensor_map_encoder>(new tensor_map_encoder(std::move(d)));
  }
  why = "no CUDA device has the OpenCL device's UUID";
  return nullptr;
}

std::optional<tensor_map_bytes> tensor_map_encoder::encode(std::uint64_t address, const tensor_map_shape& shape,
                                                           std::string& why) const {
  const auto bytes = static_cast<cuuint64_t>(shape.element_bytes);
  if (bytes != 4 && bytes != 8) {
    why = fmt::format("elements of {} bytes (tensor copies take 4 or 8)", shape.element_bytes);
    return std::nullopt;
  }
  CUtensorMap map{};
  // Current only while encoding, so that OpenCL's calls find the thread as they left it.
  if (const CUresult r = driver_->push_current(driver_->primary); r != CUDA_SUCCESS) {
    why = fmt::format("cuCtxPushCurrent failed (CUresult {})", static_cast<int>(r));
    return std::nullopt;
  }
  const CUresult encoded = encode_plane_boxes(driver_->encode_tiled, map, reinterpret_cast<void*>(address),
                                              shape.dims[0], shape.dims[1], shape.dims[2], shape.plane_rows, bytes,
                                              shape.box[0], shape.box[1], 1);
  CUcontext popped = nullptr;
  driver_->pop_current(&popped);
  if (encoded != CUDA_SUCCESS) {
    why = refused_plane_boxes(shape.box[0], shape.box[1], shape.dims[0], shape.dims[1], shape.dims[2], bytes, encoded);
    return std::nullopt;
  }
  static_assert(sizeof map == sizeof(tensor_map_bytes), "a CUtensorMap is 128 bytes");
  tensor_map_bytes out{};
  std::memcpy(out.data(), &map, sizeof map);
  return out;
}

#else

struct tensor_map_encoder::driver {};

std::unique_ptr<tensor_map_encoder> tensor_map_encoder::for_device(const std::array<unsigned char, 16>&,
                                                                   std::string& why) {
  why = "this build has no CUDA headers (CMake found no CUDA toolkit)";
  return nullptr;
}

std::optional<tensor_map_bytes> tensor_map_encoder::encode(std::uint64_t, const tensor_map_shape&,
                                                           std::string& why) const {
  why = "this build has no CUDA headers";
  return std::nullopt;
}

#endif

tensor_map_encoder::tensor_map_encoder(std::unique_ptr<driver> d) : driver_(std::move(d)) {}
tensor_map_encoder::~tensor_map_encoder() = default;

}  // namespace opuntia::opencl
