#pragma once
// The boxes Hopper's copy engine moves (cp.async.bulk.tensor from a map that CUDA's driver
// encodes with cuTensorMapEncodeTiled): the one rule both GPU rings that it fills go by, CUDA's
// 3dblock_ring (thorns/CaKernel/backends/cuda/tensor_copy.cuh, templates/cuda/3dblock.h.tpl) and
// OpenCL's on NVIDIA's platform (thorns/CaKernel/backends/opencl/launch.hpp). Plain C++ (no CUDA
// or OpenCL header), so that the rule is unit-tested where there is no GPU; callable from CUDA
// device code too, where the CUDA template asks it at compile time.

#if defined(__CUDACC__)
#define OPUNTIA_TENSOR_BOXES_HOST_DEVICE __host__ __device__
#else
#define OPUNTIA_TENSOR_BOXES_HOST_DEVICE
#endif

namespace opuntia {

/// Whether the copy engine can move boxes of `box_x` x `box_y` elements of `element_bytes`
/// bytes each: a box row a multiple of 16 bytes, 1 to 256 elements a side (the limits
/// cuTensorMapEncodeTiled enforces on a box).
///   tensor_box_fits(8, 40, 16) && !tensor_box_fits(8, 41, 16) && !tensor_box_fits(4, 264, 16)
OPUNTIA_TENSOR_BOXES_HOST_DEVICE constexpr bool tensor_box_fits(int element_bytes, int box_x, int box_y) {
  return element_bytes > 0 && box_x > 0 && box_x <= 256 && box_y > 0 && box_y <= 256 && box_x * element_bytes % 16 == 0;
}

}  // namespace opuntia

#undef OPUNTIA_TENSOR_BOXES_HOST_DEVICE
