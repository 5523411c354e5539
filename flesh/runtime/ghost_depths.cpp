#include "flesh/runtime/ghost_depths.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace opuntia {

namespace {

/// The first tracked face (width > 0) where `have` falls short of `reach`.
std::optional<int> short_face(const ghost_depths::faces& width, const ghost_depths::faces& have,
                              const ghost_depths::faces& reach) {
  for (int f = 0; f < 6; ++f) {
    if (width[f] > 0 && have[f] < reach[f]) return f;
  }
  return std::nullopt;
}

}  // namespace

const char* ghost_depths::face_name(int face) {
  static const char* const names[6] = {"lower x", "upper x", "lower y", "upper y", "lower z", "upper z"};
  return names[face];
}

const ghost_depths::known* ghost_depths::find(const buffer_key& buffer) const {
  const auto found = known_.find(buffer);
  return found == known_.end() ? nullptr : &found->second;
}

void ghost_depths::exchanged(const buffer_key& buffer, const std::string& by, bool faces_only) {
  known_[buffer] = {faces_only ? faces{} : width_, width_, by, {}};
}

ghost_depths::layers ghost_depths::computed(const std::vector<buffer_key>& reads, const faces& stencil) const {
  layers out{width_, width_};
  for (const auto& buffer : reads) {
    const auto* k = find(buffer);
    for (int f = 0; f < 6; ++f) {
      out.depth[f] = std::min(out.depth[f], k != nullptr ? k->depth[f] : 0);
      out.readable[f] = std::min(out.readable[f], k != nullptr ? k->readable[f] : 0);
    }
  }
  for (int f = 0; f < 6; ++f) {
    out.readable[f] = std::max(0, out.readable[f] - stencil[f]);
    out.depth[f] = periodic_[f] ? 0 : std::max(0, out.depth[f] - stencil[f]);
  }
  return out;
}

void ghost_depths::kernel_wrote(const buffer_key& written, const layers& computed, const std::string& kernel) {
  known_[written] = {computed.depth, computed.readable, kernel, {}};
}

void ghost_depths::boundary_wrote(const buffer_key& written, const layers& computed, const faces& exterior,
                                  const std::string& kernel) {
  const auto found = known_.find(written);
  if (found == known_.end()) return;
  auto& k = found->second;
  for (int f = 0; f < 6; ++f) {
    k.depth[f] = std::min(k.depth[f], computed.depth[f]);
    k.readable[f] = std::min(k.readable[f], computed.readable[f]);
  }
  k.writer = kernel;
  for (int f = 0; f < 6; ++f) {
    const int block = physical_blocks_[f];
    if (block == 0) continue;
    // The slab is the block's last `deep` points before face f; the neighbour across the
    // opposite face holds its first layers as ghosts on its own face f, layer j the block's
    // point j - 1 from that face: current where j <= block - deep. A slab deeper than the block
    // overwrites the block's own ghosts on the opposite face too, from the first layer out.
    const int deep = std::max(1, exterior[f]);
    const int kept = std::max(0, block - deep);
    const int opposite = f ^ 1;
    if (kept >= k.readable[f] && (deep <= block || k.readable[opposite] == 0)) continue;
    k.depth[f] = std::min(k.depth[f], kept);
    k.readable[f] = std::min(k.readable[f], kept);
    k.thin_blocks[f] = fmt::format("the blocks at the physical {} face are {} point{} thick, and {} rewrites the {} "
                                   "nearest that face, which the neighbouring blocks hold as ghosts",
                                   face_name(f), block, block == 1 ? "" : "s", kernel, deep);
    if (deep > block) {
      k.depth[opposite] = k.readable[opposite] = 0;
      k.thin_blocks[opposite] = k.thin_blocks[f];
    }
  }
}

bool ghost_depths::short_of(const buffer_key& buffer, const faces& reach) const {
  const auto* k = find(buffer);
  return k == nullptr || short_face(width_, k->depth, reach).has_value();
}

std::optional<int> ghost_depths::stale_face(const buffer_key& buffer, const faces& reach) const {
  const auto* k = find(buffer);
  return k == nullptr ? std::nullopt : short_face(width_, k->readable, reach);
}

}  // namespace opuntia
