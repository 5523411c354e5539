#include "ccl/grammar/common.hpp"

namespace opuntia::ccl::grammar {

std::string unquote(std::string_view quoted_text) {
  if (quoted_text.size() >= 2 && (quoted_text.front() == '"' || quoted_text.front() == '\'')) {
    quoted_text = quoted_text.substr(1, quoted_text.size() - 2);
  }
  std::string out;
  out.reserve(quoted_text.size());
  for (std::size_t i = 0; i < quoted_text.size(); ++i) {
    if (quoted_text[i] == '\\' && i + 1 < quoted_text.size()) {
      const char next = quoted_text[++i];
      switch (next) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        default: out += next; break;
      }
    } else if (quoted_text[i] == '\r' && i + 1 < quoted_text.size() && quoted_text[i + 1] == '\n') {
      // A string spanning lines of a CRLF file holds the line break as a newline, as in an LF file.
    } else {
      out += quoted_text[i];
    }
  }
  return out;
}

namespace detail {
std::string nesting_limit_text(const char* message) {
  std::string text = message;
  const auto placeholder = text.find("{limit}");
  if (placeholder != std::string::npos) text.replace(placeholder, 7, std::to_string(max_nesting_depth));
  return text;
}
}  // namespace detail

}  // namespace opuntia::ccl::grammar
