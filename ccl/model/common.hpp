#pragma once
// Building blocks of the syntax trees: text with the place it came from.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccl/diagnostic.hpp"

namespace opuntia::ccl {

/// A word or string of the input and where it starts.
struct located_text {
  std::string text;
  source_location where;
};

/// `key=value` as written (key case kept; compare case-insensitively).
struct key_value {
  located_text key;
  located_text value;  // quotes removed, escapes resolved
};

/// Case-insensitive ASCII comparison: CCL keywords and keys ignore case.
bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
/// `s` without blanks, tabs and line ends at either end.
std::string trim(std::string_view s);

/// Cactus's boolean words, any case: yes/true/1 and no/false/0; nullopt for anything else.
std::optional<bool> boolean_word(std::string_view s);

/// The first `key=value` whose key equals `key` case-insensitively, or nullptr.
const key_value* find_key(const std::vector<key_value>& keys, std::string_view key);

}  // namespace opuntia::ccl
