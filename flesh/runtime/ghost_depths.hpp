#pragma once
// How deep the ghost zones of each buffer are current: what lets a SYNC skip its exchange when
// the ghost zones are wider than the stencils (the CaKernel paper's latency hiding). A 3dblock
// kernel computes every point where its STENCIL fits in the local block, ghost zones included,
// so ghost layers beyond the stencil's reach are computed again, redundantly, from ghosts the
// last exchange brought: after an exchange of width w, a kernel of radius r leaves w - r layers
// current, the next one w - 2r, and a SYNC only needs to exchange when fewer layers are current
// than the variable's readers reach. Ghost zones w = k r wide thus exchange on every k-th SYNC.
//
// Depths count layers on each face (xn, xp, yn, yp, zn, zp) outwards from the owned points, and
// "current on d layers" means on the whole local block grown by d on each face, edges and
// corners included (an exchange fills those too): a point d layers out, read with a stencil of
// reach r, then reads only points within d + r layers. The bookkeeping is the same on every rank
// (it depends only on the schedule, the stencils and the ghost widths), so every rank decides to
// exchange or not alike, as the collective exchange needs.
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "flesh/grid/grid_functions.hpp"

namespace opuntia {

class ghost_depths {
public:
  using faces = std::array<int, 6>;

  /// `width[f]`: the width of the ghost zones on face f where some rank's face f is exchanged
  /// (a neighbour or a periodic image), 0 where none is: such faces are never tracked.
  /// `periodic[f]`: face f is one of a periodic direction. There a kernel's redundant layers
  /// never count: a point in a periodic image's ghost zone has coordinates a period away from
  /// the point it stands for, so a kernel that uses coordinates (a source term, a boundary
  /// formula) computes another value there than the image's owner.
  /// `physical_blocks[f]`: the points, along face f's axis, of the blocks whose face f is a
  /// physical boundary and that have a neighbour across the opposite face; 0 where there are none.
  /// A boundary kernel's slab on face f deeper than that less the ghost width rewrites points
  /// the neighbour holds as ghosts (the block is thin: few points a rank), and the neighbour's
  /// ghost layers on its face f are then stale until an exchange.
  explicit ghost_depths(const faces& width, const std::array<bool, 6>& periodic = {},
                        const faces& physical_blocks = {})
      : width_(width), periodic_(periodic), physical_blocks_(physical_blocks) {}

  const faces& width() const { return width_; }
  /// "lower x", "upper x", ... for face 0..5.
  static const char* face_name(int face);

  /// What is known of a buffer. A buffer never written, or last written by a host routine, is
  /// unknown: a SYNC exchanges it, and what a kernel computes from it counts as current on no
  /// ghost layer. Only layers computed from what an exchange brought count, so a skipped exchange
  /// would have brought exactly the values already there. (A host routine may fill ghost zones
  /// from a formula that is not the periodic image, as WaveToy's initial data does: trusting
  /// them would change the results.) Reading an unknown buffer is not an error: the routine
  /// that wrote it may have filled the ghost zones on purpose.
  struct known {
    faces depth{};     // layers equal to what an exchange would bring, edges and corners included
    faces readable{};  // layers a kernel may read: the same, but for the edges a boundary
                       // kernel rewrote across a periodic face (the boundary's own values there)
    std::string writer;  // the routine or kernel that left it so
    // On each face where a boundary kernel left fewer layers than before, why: "the blocks at
    // the physical upper x face are 1 point thick, ..."; kept until the buffer is exchanged or
    // computed whole again.
    std::array<std::string, 6> thin_blocks{};
  };
  const known* find(const buffer_key& buffer) const;

  /// After an exchange: every layer current; or, where it filled the faces only, every layer
  /// readable along the axes but none whole (the edges and corners are stale).
  void exchanged(const buffer_key& buffer, const std::string& by, bool faces_only = false);
  /// After a host routine wrote it.
  void forget(const buffer_key& buffer) { known_.erase(buffer); }

  /// What a kernel of STENCIL `stencil` that reads `reads` computes from them: per face, the
  /// shallowest read less the stencil (an unknown read counts as none current). Across a
  /// periodic face the layers are readable but not what an exchange would bring.
  struct layers {
    faces depth{}, readable{};
  };
  layers computed(const std::vector<buffer_key>& reads, const faces& stencil) const;
  /// After `kernel`, which computes every point where its stencil fits, wrote `written` with
  /// what it `computed`.
  void kernel_wrote(const buffer_key& written, const layers& computed, const std::string& kernel);
  /// After a boundary kernel wrote `written` on the physical faces' slabs, `exterior[f]` deep
  /// (at least 1, as boundary_slab): what it leaves is no more than before it, than it computed,
  /// and than the slabs leave of what neighbours of thin blocks hold as ghosts (physical_blocks);
  /// an unknown buffer stays so.
  void boundary_wrote(const buffer_key& written, const layers& computed, const faces& exterior,
                      const std::string& kernel);

  /// Whether a SYNC must exchange `buffer` for readers reaching `reach`: fewer layers are
  /// current on some tracked face (or the buffer is unknown).
  bool short_of(const buffer_key& buffer, const faces& reach) const;
  /// The first tracked face where a known `buffer` has fewer readable layers than `reach`: a
  /// kernel reading it there would read stale ghosts (a SYNC is missing). nullopt: none.
  std::optional<int> stale_face(const buffer_key& buffer, const faces& reach) const;

private:
  faces width_;
  std::array<bool, 6> periodic_;
  faces physical_blocks_;
  std::map<buffer_key, known> known_;
};

}  // namespace opuntia
