#include "flesh/runtime/ghost_depths.hpp"

#include <algorithm>

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

const ghost_depths::known* ghost_depths::find(const buffer_key& buffer) const {
  const auto found = known_.find(buffer);
  return found == known_.end() ? nullptr : &found->second;
}

void ghost_depths::exchanged(const buffer_key& buffer, const std::string& by, bool faces_only) {
  known_[buffer] = {faces_only ? faces{} : width_, width_, by};
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

void ghost_depths::kernel_wrote(const buffer_key& written, const layers& computed, bool whole_block,
                                const std::string& kernel) {
  if (whole_block) {
    known_[written] = {computed.depth, computed.readable, kernel};
    return;
  }
  const auto found = known_.find(written);
  if (found == known_.end()) return;
  auto& k = found->second;
  for (int f = 0; f < 6; ++f) {
    k.depth[f] = std::min(k.depth[f], computed.depth[f]);
    k.readable[f] = std::min(k.readable[f], computed.readable[f]);
  }
  k.writer = kernel;
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
