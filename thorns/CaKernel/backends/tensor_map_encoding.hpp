#pragma once
// How both GPU rings ask CUDA's driver for the tensor map of an array whose planes the copy engine
// moves in boxes (cuTensorMapEncodeTiled): CUDA's 3dblock_ring (cuda/tensor_copy.cuh, the driver
// reached through the runtime's entry points) and OpenCL's on NVIDIA's platform
// (opencl/tensor_maps.cpp, the driver loaded at run time). Each backend reaches the driver its own
// way; the map's layout and options are this one. Needs CUDA's driver header (types only).
#include <cuda.h>

#include <cstdint>
#include <string>

namespace opuntia {

/// Encodes into `map` the tensor map of an ni x nj x nk array of `element_bytes`-byte elements (4
/// or 8: the callers check) at `address` (x contiguous, rows packed, planes `plane_rows` rows
/// apart: nj or more) in boxes of box_x
/// x box_y x box_z elements, through `encode_tiled` (cuTensorMapEncodeTiled however the caller
/// reached it): no interleave or swizzle (the rings read the slots as plain rows), lines promoted
/// to the L2 in 256 bytes, and zeros where a box leaves the array. The copies move bits, so an
/// integer type of the element's size serves reals and integers alike. Returns the driver's answer.
template <typename EncodeTiled>
CUresult encode_plane_boxes(EncodeTiled encode_tiled, CUtensorMap& map, void* address, std::uint64_t ni,
                            std::uint64_t nj, std::uint64_t nk, std::uint64_t plane_rows, std::uint64_t element_bytes,
                            std::uint32_t box_x,
                            std::uint32_t box_y, std::uint32_t box_z) {
  const CUtensorMapDataType type = element_bytes == 8 ? CU_TENSOR_MAP_DATA_TYPE_INT64 : CU_TENSOR_MAP_DATA_TYPE_INT32;
  const cuuint64_t dims[3] = {ni, nj, nk};
  const cuuint64_t strides[2] = {ni * element_bytes, ni * plane_rows * element_bytes};
  const cuuint32_t box[3] = {box_x, box_y, box_z};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  return encode_tiled(&map, type, 3, address, dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/// What a refusal says: the boxes, the array and the driver's code.
inline std::string refused_plane_boxes(std::uint64_t box_x, std::uint64_t box_y, std::uint64_t ni, std::uint64_t nj,
                                       std::uint64_t nk, std::uint64_t element_bytes, CUresult result) {
  return "cuTensorMapEncodeTiled refused boxes of " + std::to_string(box_x) + " x " + std::to_string(box_y) + " of a " +
         std::to_string(ni) + " x " + std::to_string(nj) + " x " + std::to_string(nk) + " array of " +
         std::to_string(element_bytes) + "-byte elements (CUresult " + std::to_string(static_cast<int>(result)) + ")";
}

}  // namespace opuntia
