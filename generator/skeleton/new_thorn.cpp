#include "generator/skeleton/new_thorn.hpp"

#include <cctype>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "generator/semantic/reserved_names.hpp"

namespace opuntia::gen {
namespace {

std::int64_t factorial(int n) {
  std::int64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

fraction reduced(std::int64_t numerator, std::int64_t denominator) {
  if (denominator < 0) numerator = -numerator, denominator = -denominator;
  const std::int64_t g = std::gcd(numerator, denominator);
  return {numerator / g, denominator / g};
}

fraction plus(const fraction& a, const fraction& b) {
  const std::int64_t l = std::lcm(a.denominator, b.denominator);
  return reduced(a.numerator * (l / a.denominator) + b.numerator * (l / b.denominator), l);
}

/// A coefficient as C source: a quotient of two literals, which every compiler folds to the
/// double nearest the fraction, so that the body and the host routines use the same values.
std::string literal(const fraction& c) {
  return c.denominator == 1 ? fmt::format("{}.0", c.numerator) : fmt::format("{}.0 / {}.0", c.numerator, c.denominator);
}

double value(const fraction& c) { return static_cast<double>(c.numerator) / static_cast<double>(c.denominator); }

/// One axis of the Laplacian in the body: w * (c_0 u + sum_m c_m (u(+m) + u(-m))).
std::string axis_sum(const std::vector<fraction>& c, int axis, const std::string& weight) {
  const auto offset = [&](int m) {
    int o[3] = {0, 0, 0};
    o[axis] = m;
    return fmt::format("I3D_l(u, {}, {}, {})", o[0], o[1], o[2]);
  };
  std::string s = fmt::format("{} * ((CCTK_REAL)({}) * I3D_l(u, 0, 0, 0)", weight, literal(c[0]));
  for (std::size_t m = 1; m < c.size(); ++m) {
    const int mm = static_cast<int>(m);
    s += fmt::format(" +\n                    (CCTK_REAL)({}) * ({} + {})", literal(c[m]), offset(mm), offset(-mm));
  }
  return s + ")";
}

}  // namespace

std::vector<fraction> second_difference_coefficients(int radius) {
  if (radius < 1 || radius > most_new_thorn_radius) {
    throw std::invalid_argument(fmt::format("radius {} is not between 1 and {}", radius, most_new_thorn_radius));
  }
  const std::int64_t r2 = factorial(radius) * factorial(radius);
  std::vector<fraction> c(static_cast<std::size_t>(radius) + 1);
  fraction sum{0, 1};
  for (int m = 1; m <= radius; ++m) {
    // 2 (R!)^2 / (m^2 (R - m)! (R + m)!), reduced step by step to stay within 64 bits.
    const fraction a = reduced(2 * r2, factorial(radius - m) * static_cast<std::int64_t>(m) * m);
    fraction cm = reduced(a.numerator, a.denominator * factorial(radius + m));
    if (m % 2 == 0) cm.numerator = -cm.numerator;
    c[static_cast<std::size_t>(m)] = cm;
    sum = plus(sum, cm);
  }
  c[0] = reduced(-2 * sum.numerator, sum.denominator);
  return c;
}

std::vector<skeleton_file> new_thorn_files(const new_thorn_options& options) {
  const std::string& name = options.name;
  if (const auto reason = reserved_thorn_name(name)) throw std::invalid_argument(fmt::format("'{}' is {}", name, *reason));
  const std::string kernel = options.kernel.empty() ? name + "_Update" : options.kernel;
  if (!is_letter_identifier(kernel)) {
    throw std::invalid_argument(fmt::format(
        "--kernel '{}' is not a kernel name: letters, digits and underscores, beginning with a letter", kernel));
  }
  if (options.type != "3dblock" && options.type != "3dstencil") {
    throw std::invalid_argument(fmt::format("--type '{}': expected 3dblock or 3dstencil", options.type));
  }
  if (options.radius < 1 || options.radius > most_new_thorn_radius) {
    throw std::invalid_argument(
        fmt::format("--radius {}: expected 1 to {} (points each side)", options.radius, most_new_thorn_radius));
  }
  const int r = options.radius;
  const auto c = second_difference_coefficients(r);
  std::string lower = name;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));

  // The default grid: 33 points a side on [0, 1], periodic (32 owned, h = 1/32), and a time step
  // 0.4 of explicit Euler's limit 2 / (alpha |lambda|), |lambda| <= 3 (|c_0| + 2 sum |c_m|) / h^2.
  constexpr int points = 33;
  const double h = 1.0 / (points - 1);
  double spread = std::abs(value(c[0]));
  for (std::size_t m = 1; m < c.size(); ++m) spread += 2 * std::abs(value(c[m]));
  const double timestep = 0.4 * 2 / (3 * spread / (h * h));

  std::vector<std::string> literals;
  for (const auto& x : c) literals.push_back(literal(x));
  const std::string coefficient_list = fmt::format("{}", fmt::join(literals, ", "));

  std::vector<skeleton_file> files;
  files.push_back({"README.md", fmt::format(R"~(# {0}

Written by `opuntia-gen new-thorn {0} --kernel {1} --type {2} --radius {3}`: a starting point.

du/dt = alpha laplacian(u) on a periodic box, one explicit Euler step an iteration, by the kernel
`{1}` (`src/{1}.kernel`): the centred second differences of order {4} ({3} points each side),
`TYPE=*/{2}`. The initial data is a product of sines; the difference operator multiplies it by a
number known in closed form (`src/{0}.cpp`), so `{0}_Check` compares the run with the exact
answer at the end and fails the run when they differ by more than rounding.

    opuntia par/{0}.par         # prints "INFO ({0}): u matches the exact answer ..."
    bash test/exact_answer.sh OPUNTIA

Build it into `opuntia` with `cmake -DOPUNTIA_THORN_DIRS=<the folder holding {0}>`, or into a
program of your own with `find_package(Opuntia)` and `opuntia_add_executable` (docs/).
)~",
                                                  name, kernel, options.type, r, 2 * r)});

  files.push_back({"interface.ccl", fmt::format(R"~(# Interface definition for thorn {0}
implements: {1}
inherits:

public:
CCTK_REAL state TYPE=GF TIMELEVELS=1 "the evolved field"
{{
  u
}} "u"
)~",
                                                name, lower)});

  files.push_back({"param.ccl", fmt::format(R"~(# Parameter definitions for thorn {0}
restricted:

CCTK_REAL alpha "diffusivity: du/dt = alpha laplacian(u)"
{{
  (0:* :: "positive"
}} 1.0

INT kx "periods of the initial sine across the box in x"
{{
  1:* :: "at least one"
}} 1

INT ky "periods of the initial sine across the box in y"
{{
  1:* :: "at least one"
}} 1

INT kz "periods of the initial sine across the box in z"
{{
  1:* :: "at least one"
}} 1

CCTK_REAL tolerance "the largest |u - exact| / max |exact| that {0}_Check accepts"
{{
  0:* :: "0: 1000 machine epsilons of CCTK_REAL a step"
}} 0
)~",
                                            name)});

  files.push_back({"schedule.ccl", fmt::format(R"~(# Schedule definitions for thorn {0}
STORAGE: state

schedule {0}_Init AT CCTK_INITIAL
{{
  LANG: C
}} "u = sin(2 pi kx x / Lx) sin(2 pi ky y / Ly) sin(2 pi kz z / Lz)"

schedule CAKERNEL_Launch_{1} IN CCTK_EVOL
{{
  LANG: C
  SYNC: state
}} "one explicit Euler step of du/dt = alpha laplacian(u)"

schedule {0}_Check AT CCTK_TERMINATE
{{
  LANG: C
}} "compare u with the exact answer; fail the run where they differ"
)~",
                                               name, kernel)});

  files.push_back({"cakernel.ccl", fmt::format(R"~(# Kernel descriptor for thorn {0}: one stencil of radius {2}.
CCTK_KERNEL {1}
  TYPE=*/{3}
  STENCIL="{2},{2},{2},{2},{2},{2}"
  TILE="64,4,4"
{{
  CCTK_KERNEL_VARIABLE cached=yes intent=separateinout
  {{
    u
  }} "read u, write u_out"
  CCTK_KERNEL_PARAMETER
  {{
    alpha
  }} "diffusivity"
}}
)~",
                                               name, kernel, r, options.type)});

  files.push_back({"src/" + kernel + ".kernel",
                   fmt::format(R"~(/* One explicit Euler step of du/dt = alpha laplacian(u): the centred second difference of
   order {1} along each axis, (c_0 u + sum_m c_m (u(x + m h) + u(x - m h))) / h^2 with
   c = {2} (src/{3}.cpp uses the same). */
CAKERNEL_{0}_Begin
  /* Divisions of the parameters only: the compiler takes them out of the loop over the points. */
  const CCTK_REAL wx = 1 / (params.cagh_dx * params.cagh_dx), wy = 1 / (params.cagh_dy * params.cagh_dy),
                  wz = 1 / (params.cagh_dz * params.cagh_dz);
  CCTK_REAL laplacian;
CAKERNEL_{0}_Computations_Begin
  laplacian = {4} +
              {5} +
              {6};
  I3D(u_out, 0, 0, 0) = I3D_l(u, 0, 0, 0) + params.cagh_dt * params.alpha * laplacian;
CAKERNEL_{0}_Computations_End
CAKERNEL_{0}_End
)~",
                               kernel, 2 * r, coefficient_list, name, axis_sum(c, 0, "wx"), axis_sum(c, 1, "wy"),
                               axis_sum(c, 2, "wz"))});

  files.push_back({"src/" + name + ".cpp", fmt::format(R"~(// Host routines of thorn {0}: the initial data, and the run checked against its exact answer.
//
// On the periodic box (Driver::periodic: global index i and i + n - 1 are the same point, the
// period L = (n - 1) h), the initial u = sin(kx x') sin(ky y') sin(kz z'), x' = x - xmin and
// k = 2 pi periods / L, is the imaginary part of e^(i kx x') sin(ky y') sin(kz z'), which the
// kernel's difference operators multiply by a number, its rate: the Laplacian of order 2R by
//   lambda = sum over the axes of (c_0 + 2 sum_m c_m cos(m k h)) / h^2
// (a centred first difference along x would add -i sin(kx h) / h). Each explicit Euler step
// multiplies it by g = 1 + dt rate, so after n steps u = Im(g^n e^(i kx x')) sin(ky y') sin(kz z')
// = |g^n| sin(kx x' + arg g^n) sin(ky y') sin(kz z') at every point, to rounding.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "{0}_parameters.hpp"
#include "opuntia/collective_error.hpp"
#include "opuntia/routine_context.hpp"

namespace opuntia::thorns::{0} {{
namespace {{

// c_0 .. c_R of src/{1}.kernel.
constexpr double coefficients[] = {{{2}}};

struct mode {{
  double wave_number[3];      // 2 pi periods / L along each axis
  std::complex<double> rate;  // what the kernel's right-hand side multiplies e^(i kx x') sin(ky y') sin(kz z') by
}};

mode the_mode(const grid_layout& g, const parameters& p) {{
  const int periods[3] = {{static_cast<int>(p.kx), static_cast<int>(p.ky), static_cast<int>(p.kz)}};
  mode m{{}};
  for (int d = 0; d < 3; ++d) {{
    m.wave_number[d] = 2 * std::numbers::pi * periods[d] / ((g.global[d] - 1) * g.delta[d]);
    double lambda = coefficients[0];
    for (int s = 1; s < static_cast<int>(std::size(coefficients)); ++s) {{
      lambda += 2 * coefficients[s] * std::cos(s * m.wave_number[d] * g.delta[d]);
    }}
    m.rate += p.alpha * lambda / (g.delta[d] * g.delta[d]);
  }}
  return m;
}}

/// The mode after `steps` explicit Euler steps of `dt` at point (i, j, k).
double exact_value(const grid_layout& g, const mode& m, double dt, int steps, int i, int j, int k) {{
  const std::complex<double> factor = std::pow(1.0 + dt * m.rate, steps);
  const int index[3] = {{i, j, k}};
  double x[3];
  for (int d = 0; d < 3; ++d) x[d] = m.wave_number[d] * (g.coordinate(d, index[d]) - g.origin[d]);
  return std::abs(factor) * std::sin(x[0] + std::arg(factor)) * std::sin(x[1]) * std::sin(x[2]);
}}

}}  // namespace

void {0}_Init(routine_context& context) {{
  const auto& g = context.grid();
  const auto m = the_mode(g, context.parameters<parameters>());
  auto u = context.write("u");
  for (int k = 0; k < g.local[2]; ++k) {{
    for (int j = 0; j < g.local[1]; ++j) {{
      for (int i = 0; i < g.local[0]; ++i) u[g.index(i, j, k)] = exact_value(g, m, 0, 0, i, j, k);
    }}
  }}
}}

void {0}_Check(routine_context& context) {{
  const auto& g = context.grid();
  const auto& p = context.parameters<parameters>();
  const auto m = the_mode(g, p);
  const auto u = context.read("u");
  const auto exact = [&](int i, int j, int k) {{ return exact_value(g, m, context.dt(), context.iteration(), i, j, k); }};
  // The points this rank owns, combined over the ranks.
  const double error = context.interior_norms([&](int i, int j, int k) {{ return u[g.index(i, j, k)] - exact(i, j, k); }}).max_abs;
  const double scale = context.interior_norms(exact).max_abs;
  const double relative = scale > 0 ? error / scale : error;
  const double tolerance = p.tolerance > 0 ? static_cast<double>(p.tolerance)
                                           : 1000 * std::numeric_limits<CCTK_REAL>::epsilon() * std::max(1, context.iteration());
  if (!(relative <= tolerance)) {{
    throw collective_error(fmt::format("{0}: u differs from the exact answer after {{}} iterations: max |u - exact| / max |exact| "
                                       "= {{:.3e}}, more than {0}::tolerance ({{:.3e}})",
                                       context.iteration(), relative, tolerance));
  }}
  context.info(fmt::format("u matches the exact answer after {{}} iterations: max |u - exact| / max |exact| = {{:.3e}} "
                           "(tolerance {{:.3e}})",
                           context.iteration(), relative, tolerance));
}}

}}  // namespace opuntia::thorns::{0}
)~",
                                                       name, kernel, coefficient_list)});

  files.push_back({"par/" + name + ".par", fmt::format(R"~(# Thorn {0}: du/dt = alpha laplacian(u) on the periodic unit cube, 20 explicit Euler steps; at the
# end {0}_Check compares u with the exact answer (the run fails where they differ).
ActiveThorns = "{0}"

Cactus::cctk_itlast = 20

# 33 points a side, periodic: 32 of them distinct, h = 1/32. The ghost zones are as wide as the
# stencil ({1} points), which a periodic direction fills on every SYNC.
Driver::global_nx = {2}
Driver::global_ny = {2}
Driver::global_nz = {2}
Driver::periodic = yes
Driver::ghost_size = {1}

# Explicit Euler is stable for dt < 2 / (alpha |lambda|); this is 0.4 of it for alpha = 1.
Time::timestep = {3:.6g}

{0}::alpha = 1.0
IO::out_dir = $parfile
)~",
                                                       name, r, points, timestep)});

  files.push_back({"test/exact_answer.sh", fmt::format(R"~(#!/usr/bin/env bash
# Thorn {0} against its exact answer: runs par/{0}.par with the opuntia program given, in a
# temporary folder, and checks that it prints "INFO ({0}): u matches the exact answer".
#   bash test/exact_answer.sh OPUNTIA [MPIRUN_ARGS...]   (MPIRUN_ARGS: run under mpirun, e.g. -np 2)
set -euo pipefail
opuntia=$(realpath "${{1:?usage: test/exact_answer.sh OPUNTIA [MPIRUN_ARGS...]}}")
shift
thorn=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$thorn/par/{0}.par" "$work/"
cd "$work"
if [ $# -gt 0 ]; then
  mpirun "$@" "$opuntia" {0}.par | tee run.log
else
  "$opuntia" {0}.par | tee run.log
fi
grep -q "^INFO ({0}): u matches the exact answer" run.log
echo "{0}: exact answer test passed"
)~",
                                                       name)});
  return files;
}

}  // namespace opuntia::gen
