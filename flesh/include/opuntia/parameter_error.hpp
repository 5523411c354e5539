#pragma once
// An error about the value of one parameter, found after the parameter file was read (a device
// that does not exist, a variant that was not generated). The simulation turns it into a
// diagnostic at the place where the parameter file set the parameter, with the line and a
// caret; where the file did not set it, the message stands alone.
#include <stdexcept>
#include <string>

namespace opuntia {

class parameter_value_error : public std::invalid_argument {
public:
  /// `owner::name`: the parameter as a parameter file names it (thorn or implementation).
  /// `part`: the word of a list value at fault (a variable's name among several), for the caret
  /// to stand under it; empty for the value as a whole.
  parameter_value_error(std::string owner, std::string name, const std::string& message, std::string part = {})
      : std::invalid_argument(message), owner_(std::move(owner)), name_(std::move(name)), part_(std::move(part)) {}
  const std::string& owner() const { return owner_; }
  const std::string& name() const { return name_; }
  const std::string& part() const { return part_; }

private:
  std::string owner_, name_, part_;
};

}  // namespace opuntia
