#pragma once
// Entry points of the five CCL parsers. Each is pure (text in, tree out) and throws
// input_error with `path:line:column` diagnostics on malformed input.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/model/cakernel_model.hpp"
#include "ccl/model/deps_model.hpp"
#include "ccl/model/interface_model.hpp"
#include "ccl/model/param_model.hpp"
#include "ccl/model/parfile_model.hpp"
#include "ccl/model/schedule_model.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::ccl {

cakernel_file parse_cakernel_ccl(const source_file& file);
deps_file parse_deps_ccl(const source_file& file);
interface_file parse_interface_ccl(const source_file& file);
param_file parse_param_ccl(const source_file& file);
schedule_file parse_schedule_ccl(const source_file& file);
/// A Cactus parameter file (.par): ActiveThorns, assignments with expression values.
parfile_file parse_parfile(const source_file& file);

/// A schedule.ccl condition (the inside of `if (...)`) read without parameter values: the
/// parameters it names (`name` or `impl::name`, each with its byte offset in the text, in order),
/// or, where it does not parse, why and where. The flesh evaluates the same grammar
/// (ccl/grammar/condition.hpp) with the values.
struct condition_reading {
  struct name {
    std::string text;
    std::size_t offset = 0;
  };
  struct syntax_error {
    std::string message;
    std::size_t offset = 0;
  };
  std::vector<name> parameters;
  std::optional<syntax_error> error;
};
condition_reading read_condition(std::string_view text);

/// Which grammar a file name asks for: "cakernel", "deps", "interface", "param", "schedule",
/// or "" when the name is none of `cakernel.ccl`, `deps.ccl`, `interface.ccl`, `param.ccl`,
/// `schedule.ccl` (any directory, any case); "parfile" for a name ending in `.par`.
std::string ccl_kind_of(std::string_view path);

}  // namespace opuntia::ccl
