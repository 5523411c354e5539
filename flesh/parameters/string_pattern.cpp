#include "flesh/parameters/string_pattern.hpp"

#include <regex.h>

#include <stdexcept>
#include <string>

namespace opuntia::detail {

struct string_pattern::compiled {
  regex_t regex{};
  bool ready = false;  // regcomp succeeded: there is something to regfree
  ~compiled() {
    if (ready) ::regfree(&regex);
  }
};

string_pattern::string_pattern(const std::string& pattern) : compiled_(std::make_unique<compiled>()) {
  const int status = ::regcomp(&compiled_->regex, pattern.c_str(), REG_EXTENDED | REG_NOSUB);
  if (status != 0) {
    char reason[256];
    ::regerror(status, &compiled_->regex, reason, sizeof reason);
    compiled_.reset();
    throw std::invalid_argument(reason);
  }
  compiled_->ready = true;
}

string_pattern::~string_pattern() = default;
string_pattern::string_pattern(string_pattern&&) noexcept = default;
string_pattern& string_pattern::operator=(string_pattern&&) noexcept = default;

bool string_pattern::found_in(const std::string& text) const {
  // A NUL in the text would end it for regexec; such a value matches only the part before it.
  return ::regexec(&compiled_->regex, text.c_str(), 0, nullptr, 0) == 0;
}

}  // namespace opuntia::detail
