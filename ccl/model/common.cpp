#include "ccl/model/common.hpp"

#include <cctype>

namespace opuntia::ccl {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string trim(std::string_view s) {
  const auto begin = s.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(begin, end - begin + 1));
}

std::optional<bool> boolean_word(std::string_view s) {
  for (const char* word : {"yes", "true", "1"}) {
    if (iequals(s, word)) return true;
  }
  for (const char* word : {"no", "false", "0"}) {
    if (iequals(s, word)) return false;
  }
  return std::nullopt;
}

const key_value* find_key(const std::vector<key_value>& keys, std::string_view key) {
  for (const auto& kv : keys) {
    if (iequals(kv.key.text, key)) return &kv;
  }
  return nullptr;
}

}  // namespace opuntia::ccl
