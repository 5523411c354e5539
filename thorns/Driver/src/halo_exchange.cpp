#include "halo_exchange.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace opuntia::thorns::Driver {

halo_exchange::halo_exchange(const grid_layout& layout, const std::array<int, 6>& neighbours)
    : layout_(layout), neighbours_(neighbours) {
  const auto owned_points = layout_.interior();
  for (int d = 0; d < 3; ++d) {
    const int owned = owned_points.end[d] - owned_points.begin[d];
    if (exchanges() && owned < layout_.ghosts[d]) {
      // The driver refuses such a split with the parameters; this guards the exchange itself.
      throw std::logic_error(fmt::format("halo_exchange: {} points along axis {} are fewer than the {} ghost layers "
                                         "they must fill",
                                         owned, d, layout_.ghosts[d]));
    }
  }
}

bool halo_exchange::exchanges() const {
  for (int f = 0; f < 6; ++f) {
    if (!layout_.physical[f] && neighbours_[f] >= 0 && layout_.ghosts[f / 2] > 0) return true;
  }
  return false;
}

std::size_t halo_exchange::box::points() const {
  return static_cast<std::size_t>(end[0] - begin[0]) * static_cast<std::size_t>(end[1] - begin[1]) *
         static_cast<std::size_t>(end[2] - begin[2]);
}

halo_exchange::box halo_exchange::slab(int d, int first, int layers) const {
  box b{{0, 0, 0}, layout_.local};
  b.begin[d] = first;
  b.end[d] = first + layers;
  return b;
}

void halo_exchange::copy(const box& b, const field_view& f, std::byte* buffer, bool pack) const {
  auto* base = static_cast<std::byte*>(f.data);
  const std::size_t row = static_cast<std::size_t>(b.end[0] - b.begin[0]) * f.element_size;
  for (int k = b.begin[2]; k < b.end[2]; ++k) {
    for (int j = b.begin[1]; j < b.end[1]; ++j) {
      std::byte* field_row = base + layout_.index(b.begin[0], j, k) * f.element_size;
      if (pack) {
        std::memcpy(buffer, field_row, row);
      } else {
        std::memcpy(field_row, buffer, row);
      }
      buffer += row;
    }
  }
}

void halo_exchange::exchange(std::span<const field_view> fields, communicator& ranks) {
  std::size_t element_bytes = 0;  // of one point of every field
  for (const auto& f : fields) element_bytes += f.element_size;
  for (int d = 0; d < 3; ++d) {
    const int g = layout_.ghosts[d];
    const int n = layout_.local[d];
    std::vector<message> sends, receives;
    struct side_boxes {
      box send, receive;
      std::vector<std::byte>* send_buffer;
      std::vector<std::byte>* receive_buffer;
    };
    std::vector<side_boxes> sides;
    for (int side = 0; side < 2; ++side) {
      const int face = 2 * d + side;
      if (g == 0 || layout_.physical[face] || neighbours_[face] < 0) continue;
      side_boxes s{side == 0 ? slab(d, g, g) : slab(d, n - 2 * g, g), side == 0 ? slab(d, 0, g) : slab(d, n - g, g),
                   &buffers_[2 * side], &buffers_[2 * side + 1]};
      const std::size_t bytes = s.send.points() * element_bytes;
      s.send_buffer->resize(bytes);
      s.receive_buffer->resize(bytes);
      std::byte* out = s.send_buffer->data();
      for (const auto& f : fields) {
        copy(s.send, f, out, true);
        out += s.send.points() * f.element_size;
      }
      // A message is tagged with the face of the receiver it fills: what leaves through this
      // rank's lower face fills the neighbour's upper ghosts.
      sends.push_back({neighbours_[face], 2 * d + (1 - side), *s.send_buffer});
      receives.push_back({neighbours_[face], face, *s.receive_buffer});
      sides.push_back(s);
    }
    if (sides.empty()) continue;
    ranks.exchange(sends, receives);
    for (const auto& s : sides) {
      std::byte* in = s.receive_buffer->data();
      for (const auto& f : fields) {
        copy(s.receive, f, in, false);
        in += s.receive.points() * f.element_size;
      }
    }
  }
}

}  // namespace opuntia::thorns::Driver
