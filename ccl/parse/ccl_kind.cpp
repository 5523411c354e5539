// Which CCL grammar a file name asks for.
#include <string>
#include <string_view>

#include "ccl/model/common.hpp"
#include "ccl/parse.hpp"

namespace opuntia::ccl {

std::string ccl_kind_of(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  const std::string file = to_lower(slash == std::string_view::npos ? path : path.substr(slash + 1));
  for (const char* kind : {"cakernel", "deps", "interface", "param", "schedule"}) {
    if (file == std::string(kind) + ".ccl") return kind;
  }
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".par") == 0) return "parfile";
  return "";
}

}  // namespace opuntia::ccl
