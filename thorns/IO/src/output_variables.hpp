#pragma once
// The grid functions a blank-separated IO parameter names (IO::out_digest_vars, out_norms_vars).
#include <sstream>
#include <string>
#include <vector>

namespace opuntia::thorns::IO {

inline std::vector<std::string> variable_names(const std::string& list) {
  std::istringstream names(list);
  std::vector<std::string> out;
  for (std::string name; names >> name;) out.push_back(name);
  return out;
}

}  // namespace opuntia::thorns::IO
