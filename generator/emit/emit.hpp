#pragma once
// Emitters: turn a checked thorn into files. Bindings are C++ written by code (they are the
// flesh's contract); kernels come from the backend templates of deps.ccl.
#include <string>
#include <vector>

#include "generator/generate.hpp"
#include "ccl/model/schedule_model.hpp"
#include "generator/semantic/template_tree.hpp"
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {

/// One generated variant of a kernel: the backend and the template its TYPE matched.
struct kernel_variant {
  std::string kernel;
  std::string backend;
  std::string template_stem;
};

/// What rendering the templates of one thorn produced besides files.
struct kernel_outputs {
  std::vector<generated_file> files;
  std::vector<schedule_statement_syntax> schedule;  // from the templates' schedule { } strings
  std::vector<kernel_variant> variants;
};

/// Renders every template the thorn's kernels reach in the given backends; with
/// `check_link_contract`, an error where a variant's templates define no launcher or axes trait.
kernel_outputs emit_kernels(const thorn_model& thorn, const template_tree& tree,
                            const std::map<std::string, source_file>& templates,
                            const std::vector<std::string>& backends, bool check_link_contract);

/// <Thorn>/bindings/<Thorn>_parameters.hpp, <Thorn>_grid_functions.hpp and <Thorn>_bindings.cpp.
std::vector<generated_file> emit_bindings(const thorn_model& thorn,
                                          const std::vector<schedule_statement_syntax>& template_schedule,
                                          const std::vector<kernel_variant>& variants);

/// The contract of every backend's launcher template with the bindings (opuntia/binding.hpp): the
/// function that launches variant v, `void CAKERNEL_Launch_<K>_<backend>_<variant>(const
/// opuntia::kernel_call&)`, and its word on whether the variant reads along the axes only, `extern
/// const bool CAKERNEL_ReadsAlongAxesOnly_<K>_<backend>_<variant>`.
std::string launcher_name(const kernel_variant& v);
std::string axes_trait_name(const kernel_variant& v);

/// A C++ string literal for `text`.
std::string cpp_string(const std::string& text);

}  // namespace opuntia::gen
