#include "flesh/runtime/halo_memory.hpp"

#include <cstring>

namespace opuntia {

std::vector<std::byte>& host_halo_memory::buffer(int slot) {
  if (static_cast<std::size_t>(slot) >= buffers_.size()) buffers_.resize(static_cast<std::size_t>(slot) + 1);
  return buffers_[static_cast<std::size_t>(slot)];
}

std::byte* host_halo_memory::message(int slot, std::size_t bytes, bool) {
  auto& b = buffer(slot);
  if (b.size() < bytes) b.resize(bytes);
  return b.data();
}

void host_halo_memory::copy(int slot, const std::vector<halo_piece>& pieces, bool pack) {
  auto& b = buffer(slot);
  for (const auto& piece : pieces) {
    const std::size_t element = piece.variable->element_size();
    if (b.size() < piece.offset + piece.box.points() * element) b.resize(piece.offset + piece.box.points() * element);
    auto* field = static_cast<std::byte*>(data_of_(*piece.variable));
    std::byte* message = b.data() + piece.offset;
    const auto& box = piece.box;
    const std::size_t row = static_cast<std::size_t>(box.end[0] - box.begin[0]) * element;
    for (int k = box.begin[2]; k < box.end[2]; ++k) {
      for (int j = box.begin[1]; j < box.end[1]; ++j) {
        const std::size_t first = static_cast<std::size_t>(box.begin[0]) +
                                  static_cast<std::size_t>(piece.extent[0]) *
                                      (static_cast<std::size_t>(j) + static_cast<std::size_t>(piece.extent[1]) * static_cast<std::size_t>(k));
        std::byte* field_row = field + first * element;
        if (pack) {
          std::memcpy(message, field_row, row);
        } else {
          std::memcpy(field_row, message, row);
        }
        message += row;
      }
    }
  }
}

void host_halo_memory::pack(int slot, const std::vector<halo_piece>& pieces) { copy(slot, pieces, true); }
void host_halo_memory::unpack(int slot, const std::vector<halo_piece>& pieces) { copy(slot, pieces, false); }

}  // namespace opuntia
