// The box copies of a SYNC on the device (backend::copy_boxes: backends/cuda/backend.cu's copy
// kernel, backends/opencl's): boxes of odd shapes, more of them than one launch takes, of two
// arrays, packed into two buffers at their offsets and unpacked into two other arrays, against
// the same copies done point by point on the host. One CTest test per device backend (box_copy.opencl, box_copy.cuda: label gpu), each
// skipping where the machine has no device for it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "backend_cases.hpp"

namespace {

using opuntia::index_range;
namespace ck = opuntia::thorns::CaKernel;

/// Packs boxes of a grid of `extent` points of `element_size` bytes on `device` into one buffer
/// and unpacks them into another array: each box's points in the buffer, and in the other array,
/// where the host's copy puts them.
void check_box_copies(ck::backend& device, const std::array<int, 3>& extent, std::size_t element_size) {
  const std::size_t count = static_cast<std::size_t>(extent[0]) * extent[1] * extent[2];
  // Values that differ in every byte and point: any point or byte misplaced shows.
  std::vector<std::uint64_t> words(count);
  std::iota(words.begin(), words.end(), std::uint64_t{0x0101010101010101});
  for (auto& w : words) w *= 0x9E3779B97F4A7C15ull;
  const std::size_t bytes = count * element_size;
  std::vector<unsigned char> source(bytes), target(bytes, 0xEE);
  std::memcpy(source.data(), words.data(), bytes);
  // The faces a SYNC sends (x faces one to three points wide, y and z faces, their edges and
  // a corner), a box of one point, and an empty one, in one batch.
  const int ni = extent[0], nj = extent[1], nk = extent[2];
  const std::vector<index_range> boxes{
      {{1, 1, 1}, {2, nj - 1, nk - 1}},          {{ni - 4, 1, 1}, {ni - 1, nj - 1, nk - 1}},
      {{0, 2, 0}, {ni, 4, nk}},                  {{0, 0, nk - 3}, {ni, nj, nk}},
      {{0, 0, 0}, {3, 3, nk}},                   {{ni - 2, nj - 2, nk - 2}, {ni, nj, nk}},
      {{ni / 2, nj / 2, nk / 2}, {ni / 2 + 1, nj / 2 + 1, nk / 2 + 1}}, {{4, 4, 4}, {4, 9, 9}},
      // More than a launch takes (OpenCL: 8 boxes a launch), so a batch ends part-full.
      {{0, 0, 0}, {ni, 1, 1}},                   {{ni - 1, 0, 0}, {ni, nj, nk}},
      {{1, nj - 2, 2}, {ni - 1, nj, nk - 1}}};
  // Boxes alternate between two arrays (the second holding the first's bytes reversed) and two
  // buffers, as a SYNC of several variables to two neighbours does; each box unpacks into the
  // copy-back array of its own array.
  std::vector<unsigned char> sources[2] = {source, std::vector<unsigned char>(source.rbegin(), source.rend())};
  std::vector<ck::box_copy> copies;
  std::size_t offsets[2] = {8, 8};  // each buffer's first bytes stay untouched
  void* arrays[2] = {device.allocate(bytes), device.allocate(bytes)};
  void* copy_backs[2] = {device.allocate(bytes), device.allocate(bytes)};
  std::vector<int> of_array;
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    const int which = static_cast<int>(b % 2);
    ck::box_copy c;
    c.array = arrays[which];
    c.extent = extent;
    c.box = boxes[b];
    c.element_size = element_size;
    c.offset = offsets[which];
    offsets[which] += (boxes[b].points() * element_size + 7) / 8 * 8;
    copies.push_back(c);
    of_array.push_back(which);
  }
  void* buffers[2] = {device.allocate(offsets[0]), device.allocate(offsets[1])};
  for (int which : {0, 1}) {
    device.copy_to_device(arrays[which], sources[which].data(), bytes);
    device.copy_to_device(copy_backs[which], target.data(), bytes);
  }
  for (std::size_t b = 0; b < copies.size(); ++b) copies[b].buffer = buffers[of_array[b]];
  device.copy_boxes(device.queue(), copies, true);
  for (std::size_t b = 0; b < copies.size(); ++b) copies[b].array = copy_backs[of_array[b]];
  device.copy_boxes(device.queue(), copies, false);
  device.synchronize();
  std::vector<unsigned char> packed[2] = {std::vector<unsigned char>(offsets[0]), std::vector<unsigned char>(offsets[1])};
  std::vector<unsigned char> unpacked[2] = {std::vector<unsigned char>(bytes), std::vector<unsigned char>(bytes)};
  for (int which : {0, 1}) {
    device.copy_to_host(packed[which].data(), buffers[which], offsets[which]);
    device.copy_to_host(unpacked[which].data(), copy_backs[which], bytes);
    device.release(arrays[which]);
    device.release(copy_backs[which]);
    device.release(buffers[which]);
  }
  // The host's copy of the same boxes.
  std::vector<unsigned char> expected_targets[2] = {target, target};
  for (std::size_t b = 0; b < copies.size(); ++b) {
    const auto& c = copies[b];
    const int which = of_array[b];
    std::size_t at = c.offset;
    c.box.for_each([&](int i, int j, int k) {
      const std::size_t point = static_cast<std::size_t>(i) + ni * (static_cast<std::size_t>(j) + nj * static_cast<std::size_t>(k));
      ASSERT_EQ(std::memcmp(packed[which].data() + at, sources[which].data() + point * element_size, element_size), 0)
          << "packed point " << i << "," << j << "," << k << " of box " << b << " at offset " << c.offset;
      std::memcpy(expected_targets[which].data() + point * element_size, sources[which].data() + point * element_size,
                  element_size);
      at += element_size;
    });
  }
  for (int which : {0, 1})
    EXPECT_EQ(unpacked[which], expected_targets[which])
        << "array " << which << ", element size " << element_size << ", grid " << ni << "x" << nj << "x" << nk;
}

class box_copy : public ::testing::TestWithParam<variant_check::backend_case> {};

TEST_P(box_copy, a_batch_of_boxes_packs_and_unpacks_the_points_of_each) {
  auto device = variant_check::make_device(GetParam().backend);
  if (device == nullptr || device->shares_host_memory()) GTEST_SKIP() << "no device memory for " << GetParam().backend;
  // The case's grid, and one whose rows are long enough for a copy engine (over a kilobyte).
  for (const auto& extent : {std::array<int, 3>{GetParam().grid.ni, GetParam().grid.nj, GetParam().grid.nk},
                             std::array<int, 3>{301, 9, 7}}) {
    for (const std::size_t element_size : {std::size_t{8}, std::size_t{4}, std::size_t{2}}) check_box_copies(*device, extent, element_size);
  }
}

INSTANTIATE_TEST_SUITE_P(device, box_copy, ::testing::ValuesIn(variant_check::backend_cases(false)),
                         [](const auto& info) { return variant_check::case_name(info.param); });

}  // namespace
