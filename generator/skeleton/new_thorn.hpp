#pragma once
// `opuntia-gen new-thorn`: the files of a new thorn that builds and runs as written. A pure
// function of its options, as `generate` is; main.cpp writes the files.
//
// The thorn evolves du/dt = alpha laplacian(u) on a periodic box with one kernel whose Laplacian
// is the centred difference of order 2 R (R = --radius points each side), from a product of sines.
// Such a u is an eigenfunction of the difference operator, so the explicit Euler steps multiply it
// by a number known in closed form: the thorn's check routine compares the run with that exact
// answer at the end, and the run fails when they differ by more than rounding.
#include <cstdint>
#include <string>
#include <vector>

namespace opuntia::gen {

struct new_thorn_options {
  std::string name;          // the thorn: letters, digits and underscores, a letter first
  std::string kernel;        // empty: <name>_Update
  std::string type = "3dblock";  // 3dblock | 3dstencil
  int radius = 1;            // points each side, 1 to most_radius
};

/// The widest stencil new-thorn writes: the coefficients' integers stay exact in 64 bits.
inline constexpr int most_new_thorn_radius = 8;

/// A rational coefficient p / q, in lowest terms, q > 0.
struct fraction {
  std::int64_t numerator = 0;
  std::int64_t denominator = 1;
};

/// c_0 .. c_R of the centred second difference of order 2R: f'' ~ (c_0 f(x) + sum_m c_m (f(x + m h)
/// + f(x - m h))) / h^2, with c_m = 2 (-1)^(m+1) (R!)^2 / (m^2 (R - m)! (R + m)!) and
/// c_0 = -2 sum_m c_m (R = 1: 1, -2; R = 4: -205/72, 8/5, -1/5, 8/315, -1/560).
std::vector<fraction> second_difference_coefficients(int radius);

struct skeleton_file {
  std::string path;  // relative to the thorn's folder
  std::string text;
};

/// The thorn's files: its CCL files, the kernel body, the host routines, a README, a parameter
/// file and a test script. Throws std::invalid_argument, naming the option, for a name that is
/// not an identifier, a type other than 3dblock or 3dstencil, or a radius out of range.
std::vector<skeleton_file> new_thorn_files(const new_thorn_options& options);

}  // namespace opuntia::gen
