#include "ccl/grammar/common.hpp"

#include <fmt/format.h>

namespace opuntia::ccl::grammar {

std::string unquote(std::string_view quoted_text) { return unquote_mapped(quoted_text).text; }

std::string repeated_key_message(const std::vector<key_value>& given, std::string_view key) {
  const auto* first = find_key(given, key);
  if (first == nullptr) return {};
  return fmt::format("{} is given twice: first at line {}, column {}", key, first->key.where.line,
                     first->key.where.column);
}

unquoted_text unquote_mapped(std::string_view quoted_text) {
  std::size_t first = 0, end = quoted_text.size();
  if (quoted_text.size() >= 2 && (quoted_text.front() == '"' || quoted_text.front() == '\'')) {
    first = 1;
    end = quoted_text.size() - 1;
  }
  unquoted_text out;
  out.text.reserve(end - first);
  out.origins.reserve(end - first + 1);
  const auto put = [&](char c, std::size_t origin) {
    out.text += c;
    out.origins.push_back(origin);
  };
  for (std::size_t i = first; i < end; ++i) {
    const std::size_t origin = i;
    if (quoted_text[i] == '\\' && i + 1 < end) {
      const char next = quoted_text[++i];
      put(next == 'n' ? '\n' : next == 't' ? '\t' : next, origin);
    } else if (quoted_text[i] == '\r' && i + 1 < end && quoted_text[i + 1] == '\n') {
      // A string spanning lines of a CRLF file holds the line break as a newline, as in an LF file.
      put('\n', origin);
      ++i;
    } else {
      put(quoted_text[i], origin);
    }
  }
  out.origins.push_back(end);  // the closing quote
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
