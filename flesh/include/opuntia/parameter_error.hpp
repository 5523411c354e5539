#pragma once
// An error about the value of one parameter, found after the parameter file was read (a device
// that does not exist, a variant that was not generated). The simulation turns it into a
// diagnostic at the place where the parameter file set the parameter, with the line and a
// caret; where the file did not set it, the message stands alone.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

/// Every parameter_value_error a check found, not only the first (each wrong name of a list):
/// the simulation reports each at its place, as it reports one.
class parameter_value_errors : public std::invalid_argument {
public:
  explicit parameter_value_errors(std::vector<parameter_value_error> errors)
      : std::invalid_argument(joined(errors)), errors_(std::move(errors)) {}
  const std::vector<parameter_value_error>& errors() const { return errors_; }

  /// Throws what `errors` holds: nothing where empty, one parameter_value_error as it is.
  static void throw_if_any(std::vector<parameter_value_error> errors) {
    if (errors.size() == 1) throw errors.front();
    if (!errors.empty()) throw parameter_value_errors(std::move(errors));
  }

  /// Runs `check`, adding to `errors` what it throws of these (one error or several): checks
  /// of several parameters report all they find.
  template <typename Check>
  static void collect(std::vector<parameter_value_error>& errors, Check&& check) {
    try {
      check();
    } catch (const parameter_value_error& e) {
      errors.push_back(e);
    } catch (const parameter_value_errors& e) {
      errors.insert(errors.end(), e.errors().begin(), e.errors().end());
    }
  }

private:
  static std::string joined(const std::vector<parameter_value_error>& errors) {
    std::string text;
    for (const auto& e : errors) {
      if (!text.empty()) text += '\n';
      text += e.what();
    }
    return text;
  }
  std::vector<parameter_value_error> errors_;
};

}  // namespace opuntia
