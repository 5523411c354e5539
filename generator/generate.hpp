#pragma once
// The generator as one pure function: thorn descriptions and templates in, files out.
// No I/O, no clock, no environment: the same inputs give the same bytes.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "generator/semantic/thorn_model.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::gen {

struct generator_inputs {
  std::vector<thorn_sources> thorns;    // the thorns to generate code for
  std::vector<thorn_sources> library;   // every thorn known, consulted for `inherits:`
  source_file deps_ccl;
  std::map<std::string, source_file> templates;  // key: path under the templates directory
  std::vector<std::string> backends;    // empty: every top-level group of deps.ccl
  // Whether each variant's templates must define the launcher and the traits its bindings link
  // against (emit.hpp: launcher_name, axes_trait_name): true for a thorn built into Opuntia,
  // false to read templates written for another framework (CaCUDA's own) without linking them.
  bool check_link_contract = true;
  // Sibling thorn folders that could not be read (the path that failed, and why): skipped, and
  // named only where an `inherits:` finds no implementation (one of them may have held it).
  std::vector<std::pair<std::string, std::string>> unread_library;
};

struct generated_file {
  std::string path;      // relative to the output directory: <Thorn>/<backend>/<file>
  std::string text;
  bool replace = true;   // false: a user-owned stub, never overwrite an existing file
  bool compile = false;  // a translation unit to build (also listed in <backend>/<Thorn>_sources.inc)
  std::string kernel;    // the kernel a per-kernel (scope=file) output belongs to; empty otherwise

  friend bool operator==(const generated_file&, const generated_file&) = default;
};

/// Generates every output of every thorn in `inputs`, sorted by path.
/// Throws input_error with every problem found, in every thorn, each with its place and source
/// line, and each once.
std::vector<generated_file> generate(const generator_inputs& inputs);

/// `diagnostics` with each repeated one (the same text, place and line) dropped, in order: a
/// template error is found once per kernel and backend that uses the template.
std::vector<diagnostic> distinct(const std::vector<diagnostic>& diagnostics);

}  // namespace opuntia::gen
