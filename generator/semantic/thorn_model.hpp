#pragma once
// A thorn after the semantic pass: its files parsed, its kernels' keys interpreted and every
// name checked against the thorn's interface and parameters.
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ccl/model/cakernel_model.hpp"
#include "ccl/model/interface_model.hpp"
#include "ccl/model/param_model.hpp"
#include "ccl/model/param_range.hpp"
#include "ccl/model/schedule_model.hpp"
#include "ccl/model/variable_kinds.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::gen {

// The generator works in the terms of ccl/: source files, diagnostics, syntax trees.
using namespace opuntia::ccl;

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
  /// Files and folders under `dir` that are there but cannot serve as a kernel body, by the same
  /// path, with why ("cannot be read: Permission denied", "is a link pointing outside thorn T (to
  /// /x/b.kernel)", "is not a regular file (it is a FIFO)"): a body named there is reported with
  /// that reason rather than as missing.
  std::map<std::string, std::string> unusable_files;
};

/// A kernel variable with what its grid function says about it.
struct kernel_variable {
  std::string name;            // as the body names it: `phi`, or `phi_p` for a past time level
  std::string grid_function;   // the grid function: `phi` for both
  int timelevel = 0;           // 0: current; n: n steps back (Cactus's `_p` suffix, once per step)
  std::string group;
  std::string implementation;  // of the thorn that declares the grid function
  ccl::data_type data_type = ccl::data_type::cctk_real;
  centerings centering = vertex_centred;  // of its group
  int timelevels = 1;
  bool cached = false;
  kernel_intent intent = kernel_intent::in;
  /// The body reaches the buffer this variable's kernel writes (the variable itself; a
  /// separateinout one's second buffer) only at the point it computes: the template value
  /// written_at_centre, where a template may keep that point in a register until the row is done.
  bool written_at_centre = false;
  std::string description;
  source_location where;
};

/// What a kernel reads through `params.<name>`: a parameter of param.ccl, fixed for the run, or
/// a grid scalar (a TYPE=SCALAR variable of interface.ccl), read at each launch.
struct kernel_parameter {
  std::string name;
  std::string cactus_type;  // INT, REAL, BOOLEAN, KEYWORD, STRING
  std::string c_type;       // CCTK_INT or CCTK_REAL (KEYWORD and STRING cannot reach a kernel)
  std::string description;
  source_location where;
  std::string source = "parameter";  // "parameter" (param.ccl) or "scalar" (a grid scalar)
  std::string scalar_name;           // a scalar's `impl::name`: kernel_binding::scalars holds it
  int scalar_index = -1;             // a scalar's place in kernel_call::scalars (this kernel's)
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
  /// The planes below the current one that the body reads off the z axis from a cached
  /// variable (its I3D_l with a constant k < 0 and i or j not the constant 0), at most the
  /// STENCIL's zn: the template value off_axis_zn.
  int off_axis_zn = 0;
  std::vector<kernel_variable> variables;
  std::vector<kernel_parameter> parameters;
  std::string description;
  source_location where;
};

/// A grid-function group from interface.ccl with its options interpreted.
struct variable_group_model {
  std::string name;
  ccl::data_type data_type = ccl::data_type::cctk_real;
  ccl::group_type group_type = ccl::group_type::scalar;  // Cactus's default TYPE
  centerings centering = vertex_centred;                  // CENTERING={vcc}: x, y, z
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
/// and shared parameters. Throws input_error with every problem found, each at its place.
/// `unread_others`: thorn folders beside them that could not be read, and why, named where an
/// `inherits:` finds no implementation (one of them may have held it).
thorn_model check_thorn(const thorn_sources& sources, const std::vector<thorn_sources>& others,
                        const std::vector<std::pair<std::string, std::string>>& unread_others = {});

}  // namespace opuntia::gen
