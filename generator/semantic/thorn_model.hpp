#pragma once
// A thorn after the semantic pass: its files parsed, its kernels' keys interpreted and every
// name checked against the thorn's interface and parameters.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "generator/model/cakernel_model.hpp"
#include "generator/model/interface_model.hpp"
#include "generator/model/param_model.hpp"
#include "generator/model/schedule_model.hpp"
#include "generator/source_file.hpp"

namespace opuntia::gen {

/// The files of one thorn, as read from `thorns/<Name>/`.
struct thorn_sources {
  std::string name;                       // the thorn's directory name
  std::string dir;                        // the directory as shown in diagnostics
  source_file interface_ccl;
  source_file param_ccl;
  source_file schedule_ccl;
  std::optional<source_file> cakernel_ccl;
  std::vector<std::string> present_files;  // paths relative to `dir` that exist (kernel bodies)
  /// The text of each present file of at most `max_embedded_file_size` bytes, by the same path:
  /// kernel bodies, which backends that compile at run time (OpenCL) embed in their launchers.
  std::map<std::string, std::string> file_texts;
  static constexpr std::size_t max_embedded_file_size = 1 << 20;
};

enum class kernel_intent { in, out, inout, separateinout };
std::string to_string(kernel_intent intent);

/// A kernel variable with what its grid function says about it.
struct kernel_variable {
  std::string name;            // as the body names it: `phi`, or `phi_p` for a past time level
  std::string grid_function;   // the grid function: `phi` for both
  int timelevel = 0;           // 0: current; n: n steps back (Cactus's `_p` suffix, once per step)
  std::string group;
  std::string implementation;  // of the thorn that declares the grid function
  std::string data_type;       // CCTK_REAL, CCTK_INT, ...
  int timelevels = 1;
  bool cached = false;
  kernel_intent intent = kernel_intent::in;
  std::string description;
  source_location where;
};

struct kernel_parameter {
  std::string name;
  std::string cactus_type;  // INT, REAL, BOOLEAN, KEYWORD, STRING
  std::string c_type;       // CCTK_INT or CCTK_REAL (KEYWORD and STRING cannot reach a kernel)
  std::string description;
  source_location where;
};

/// A kernel with its keys interpreted.
struct kernel_model {
  std::string name;
  std::string type_pattern;                    // TYPE as written, e.g. */3dblock
  source_location type_where;
  std::array<int, 6> stencil{1, 1, 1, 1, 1, 1};  // xn, xp, yn, yp, zn, zp
  std::array<int, 3> tile{16, 16, 16};
  std::array<int, 6> exterior{0, 0, 0, 0, 0, 0};
  bool share_code = false;
  std::string code_path;                       // relative to the thorn, default src/<name>.kernel
  std::string code_file;                       // the body as the generator was given it: <thorn dir>/<code_path>
  std::string code_text;                       // the body's text
  std::vector<kernel_variable> variables;
  std::vector<kernel_parameter> parameters;
  std::string description;
  source_location where;
};

/// A grid-function group from interface.ccl with its options interpreted.
struct variable_group_model {
  std::string name;
  std::string data_type;    // CCTK_REAL, CCTK_INT, ...
  std::string group_type;   // GF, ARRAY, SCALAR
  access_level access = access_level::private_access;
  int dim = 3;
  std::string timelevels = "1";  // a number or a parameter name (Cactus allows both)
  std::string vector_size;
  std::vector<std::string> variables;
  std::vector<key_value> options;  // everything as written, for the bindings
  std::string description;
  source_location where;
};

struct thorn_model {
  std::string name;
  std::string implementation;
  std::vector<std::string> inherits;
  interface_file interface_syntax;
  param_file params;
  schedule_file schedule;
  std::vector<variable_group_model> groups;
  std::vector<kernel_model> kernels;
};

/// Parses every file of `sources`; `others` are thorns consulted for inherited grid functions
/// and shared parameters. Throws generator_error with every problem found, each at its place.
thorn_model check_thorn(const thorn_sources& sources, const std::vector<thorn_sources>& others);

}  // namespace opuntia::gen

namespace opuntia::gen {

/// A numeric range of param.ccl: `*`, `5`, `1:10`, `(0:1]`, `0:*:2`.
struct numeric_range {
  std::string lower;  // empty: unbounded
  std::string upper;  // empty: unbounded
  bool lower_open = false;
  bool upper_open = false;
  std::string step;   // empty: none
};

/// Interprets an INT/REAL range spec; nullopt when it is not one.
std::optional<numeric_range> parse_numeric_range(const std::string& spec);

/// A number as param.ccl writes it (`1.d-3` too); nullopt when `text` is not one.
std::optional<double> numeric_value(const std::string& text);

/// Whether `value` lies in `range` as the flesh checks a parameter's value: each end open or
/// closed or absent; for an INT with a step, only base + k * step (base: the lower end, else 0).
bool range_contains(const numeric_range& range, double value, bool integer);

/// Whether no value (no integer, for an INT) lies in `range`: `5:1`, `(1:1]`, INT `(0:1)`.
bool range_is_empty(const numeric_range& range, bool integer);

/// Whether `text` is an integer / a real number as param.ccl and parfiles write them
/// (Fortran exponents `1.d-3` and `1.0D+2` included).
bool is_integer_literal(const std::string& text);
bool is_real_literal(const std::string& text);
/// `1.d-3` -> `1.e-3`: a REAL literal in C syntax.
std::string c_real_literal(const std::string& text);

}  // namespace opuntia::gen
