#pragma once
// The ranges of a STRING parameter: POSIX extended regular expressions, as Cactus matches them
// (its CCTK_RegexMatch is regcomp/regexec with REG_EXTENDED). The POSIX matcher runs without
// backtracking recursion, so a value of any length from a parameter file cannot overflow the
// stack (std::regex's ECMAScript matcher recursed once a character and crashed at 25-30k).
//
//   string_pattern p("^[a-z]+$");        // std::invalid_argument when malformed
//   p.found_in("wave")  -> true
#include <memory>
#include <string>

namespace opuntia::detail {

class string_pattern {
 public:
  /// Compiles `pattern`; throws std::invalid_argument with the library's reason when malformed.
  explicit string_pattern(const std::string& pattern);
  ~string_pattern();
  string_pattern(string_pattern&&) noexcept;
  string_pattern& operator=(string_pattern&&) noexcept;

  /// Whether `text` contains a match (regexec without anchors: anchors go in the pattern).
  bool found_in(const std::string& text) const;

 private:
  struct compiled;
  std::unique_ptr<compiled> compiled_;
};

}  // namespace opuntia::detail
