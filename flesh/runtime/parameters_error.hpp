#pragma once
// An error about several parameters together, found after the parameter file was read: a
// domain whose xmax is not above its xmin, a grid too large for the memory there is. The
// simulation reports it at the first of them the parameter file set, naming where it set the
// others; where the file set none, the message stands alone.
#include <stdexcept>
#include <string>
#include <vector>

namespace opuntia {

/// `owner::name` as a parameter file names it.
struct parameter_name {
  std::string owner;
  std::string name;
};

class parameters_error : public std::invalid_argument {
public:
  parameters_error(std::vector<parameter_name> parameters, const std::string& message)
      : std::invalid_argument(message), parameters_(std::move(parameters)) {}
  const std::vector<parameter_name>& parameters() const { return parameters_; }

private:
  std::vector<parameter_name> parameters_;
};

}  // namespace opuntia
