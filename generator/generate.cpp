#include "generator/generate.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "generator/emit/emit.hpp"
#include "ccl/parse.hpp"
#include "generator/semantic/kernel_body.hpp"
#include "generator/semantic/template_tree.hpp"

namespace opuntia::gen {
namespace {

/// Diagnostics made away from their file carry no line text; fill it in from the inputs.
std::vector<diagnostic> with_line_texts(std::vector<diagnostic> ds, const generator_inputs& inputs) {
  std::vector<const source_file*> files{&inputs.deps_ccl};
  for (const auto* set : {&inputs.thorns, &inputs.library}) {
    for (const auto& t : *set) {
      files.insert(files.end(), {&t.interface_ccl, &t.param_ccl, &t.schedule_ccl});
      if (t.cakernel_ccl) files.push_back(&*t.cakernel_ccl);
    }
  }
  for (const auto& [_, t] : inputs.templates) files.push_back(&t);
  fill_line_texts(ds, files);
  return ds;
}

std::vector<std::string> chosen_backends(const generator_inputs& inputs, const template_tree& tree) {
  if (inputs.backends.empty()) return tree.backends;
  std::vector<std::string> chosen;
  for (const auto& b : inputs.backends) {
    const auto found = std::find_if(tree.backends.begin(), tree.backends.end(), [&](const auto& x) { return iequals(x, b); });
    if (found == tree.backends.end()) {
      throw input_error(whole_file_error(inputs.deps_ccl.path, fmt::format("unknown backend '{}'{}; deps.ccl defines: {}", b,
                                                   did_you_mean(b, tree.backends), join_names(tree.backends))));
    }
    if (std::find(chosen.begin(), chosen.end(), *found) == chosen.end()) chosen.push_back(*found);
  }
  return chosen;
}

/// Each kernel's body against the frame its templates define around it (CAKERNEL_<K>_Begin,
/// ...): where a generated file of the kernel defines CAKERNEL_<K>_Begin, the body must use the
/// four macros, its own, once each and in order; otherwise only the compiler would find it, in
/// generated code ("CAKERNEL_K_3dblock_compute was not declared" for an empty body). Templates
/// of other designs define no such frame and ask for none.
void check_frames(const thorn_model& thorn, const std::vector<generated_file>& files) {
  std::vector<diagnostic> errors;
  for (const auto& kernel : thorn.kernels) {
    const auto definition = "#define CAKERNEL_" + kernel.name + "_Begin";
    const bool framed = std::any_of(files.begin(), files.end(), [&](const generated_file& f) {
      return f.kernel == kernel.name && f.text.find(definition) != std::string::npos;
    });
    if (!framed) continue;
    const auto found = frame_errors(kernel.name, source_file{kernel.code_file, kernel.code_text});
    errors.insert(errors.end(), found.begin(), found.end());
  }
  if (!errors.empty()) throw input_error(errors);
}

std::vector<generated_file> generate_unchecked(const generator_inputs& inputs) {
  const template_tree tree = build_template_tree(parse_deps_ccl(inputs.deps_ccl));
  const auto backends = chosen_backends(inputs, tree);
  std::vector<generated_file> files;
  std::vector<diagnostic> errors;  // of every thorn: one thorn's errors do not hide the next one's
  // Thorn names are case-insensitive, as in ActiveThorns: 'X1' and 'x1' are one thorn twice.
  std::map<std::string, std::string> names;  // lower case -> as first given
  for (const auto& sources : inputs.thorns) {
    const auto [first, added] = names.emplace(to_lower(sources.name), sources.name);
    if (!added) {
      errors.push_back(whole_file_error(
          sources.dir, first->second == sources.name
                           ? fmt::format("thorn '{}' given twice", sources.name)
                           : fmt::format("thorn '{}' given twice: as '{}' too (thorn names are case-insensitive)",
                                         sources.name, first->second)));
      continue;
    }
    try {
      const thorn_model thorn = check_thorn(sources, inputs.library, inputs.unread_library);
      auto kernels = emit_kernels(thorn, tree, inputs.templates, backends, inputs.check_link_contract);
      check_frames(thorn, kernels.files);
      auto bindings = emit_bindings(thorn, kernels.schedule, kernels.variants);
      files.insert(files.end(), std::make_move_iterator(kernels.files.begin()), std::make_move_iterator(kernels.files.end()));
      files.insert(files.end(), std::make_move_iterator(bindings.begin()), std::make_move_iterator(bindings.end()));
    } catch (const input_error& e) {
      errors.insert(errors.end(), e.diagnostics().begin(), e.diagnostics().end());
    }
  }
  if (!errors.empty()) throw input_error(errors);
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return files;
}

}  // namespace

std::vector<diagnostic> distinct(const std::vector<diagnostic>& diagnostics) {
  std::vector<diagnostic> out;
  std::set<std::string> seen;
  for (const auto& d : diagnostics) {
    if (seen.insert(format_diagnostic(d)).second) out.push_back(d);
  }
  return out;
}

std::vector<generated_file> generate(const generator_inputs& inputs) {
  try {
    return generate_unchecked(inputs);
  } catch (const input_error& e) {
    throw input_error(distinct(with_line_texts(e.diagnostics(), inputs)));
  }
}

}  // namespace opuntia::gen
