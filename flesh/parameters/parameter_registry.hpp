#pragma once
// The typed parameter registry: every parameter of every compiled thorn (from the generated
// bindings), the values a parameter file sets, and the checks Cactus makes on them.
//
//   parameter_registry registry;
//   for (const auto& b : bindings) registry.add_thorn(b);
//   registry.apply(parse_parfile(file), file);   // throws gen::generator_error with every problem
//   double dt = registry.real("Time", "timestep");
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "generator/diagnostic.hpp"
#include "generator/model/parfile_model.hpp"
#include "generator/source_file.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

/// INT as long long (checked against CCTK_INT when set), REAL as double, KEYWORD and STRING
/// as text, BOOLEAN as bool.
using parameter_value = std::variant<long long, double, std::string, bool>;

/// How strictly a parameter file is read (`--parameter-level`).
enum class parameter_level {
  normal,  // later assignments win
  strict,  // a parameter set twice is an error; so is one set but never read (see unread())
};

class parameter_registry final : public parameter_source {
public:
  /// Thorns always active whatever ActiveThorns says (naming them there changes nothing).
  static const std::vector<std::string>& core_thorns();

  explicit parameter_registry(parameter_level level = parameter_level::normal) : level_(level) {}

  /// Registers the parameters of a compiled thorn: its own, and its USES/EXTENDS of
  /// parameters that other implementations share (resolved when the parfile is applied).
  void add_thorn(const thorn_binding& thorn);

  /// Reads a parsed parameter file: activates the thorns of every ActiveThorns line (plus the
  /// core thorns), then evaluates and sets every assignment in order. Errors, all collected
  /// and thrown together as gen::generator_error, each at its `file:line:column`:
  /// unknown thorn (nearest names), unknown parameter (nearest names), parameter of a thorn
  /// not active, value of the wrong type, value outside every range (listing the ranges),
  /// an array index outside the array, a USES/EXTENDS of a parameter nobody shares,
  /// in strict mode a parameter set twice. Values may be arithmetic expressions
  /// (`+ - * / **`, parentheses, sqrt sin cos exp log int floor abs min max, pi), references
  /// to other parameters (`impl::name`, their value at that point of the file), and
  /// `$parfile` (the parameter file's name without directory and `.par`).
  void apply(const gen::parfile_file& parfile, const gen::source_file& source);

  bool is_active(std::string_view thorn) const;
  /// Active thorns in activation order (core thorns first).
  std::vector<std::string> active_thorns() const;
  /// Every registered thorn, sorted.
  std::vector<std::string> thorns() const;

  /// Typed reads. `owner` is a thorn or implementation name (case-insensitive, as in
  /// parfiles); a USES'd parameter reads the sharing implementation's value. Reading an
  /// unknown parameter or with the wrong type throws std::logic_error (a bug in a thorn, not
  /// in the parameter file).
  CCTK_INT integer(std::string_view owner, std::string_view name, int index = -1) const override;
  CCTK_REAL real(std::string_view owner, std::string_view name, int index = -1) const override;
  std::string text(std::string_view owner, std::string_view name, int index = -1) const override;
  bool boolean(std::string_view owner, std::string_view name, int index = -1) const override;
  const parameter_value& value(std::string_view owner, std::string_view name, int index = -1) const;
  /// Whether the parameter file set it (rather than the default).
  bool was_set(std::string_view owner, std::string_view name) const;

  /// Strict mode: "path:line:column: error: parameter 'T::p' is set but never read" for each
  /// parameter the file set that no reader asked for since apply().
  std::vector<gen::diagnostic> unread() const;

  /// `opuntia --describe THORN`: each parameter with type, access, range(s), default,
  /// description; unknown thorn: std::invalid_argument naming the nearest thorns.
  std::string describe(std::string_view thorn) const;

private:
  struct entry;
  entry* find(std::string_view owner, std::string_view name);
  const entry* find(std::string_view owner, std::string_view name) const;

  parameter_level level_;
  std::vector<entry> entries_;           // stable order: registration order
  std::vector<std::string> thorn_names_;  // registration order
  std::map<std::string, std::string> implementation_of_;  // thorn (lower case) -> implementation
  std::vector<std::string> active_;      // activation order
};

/// A compiled parameter entry (exposed for tests and --describe).
struct parameter_registry::entry {
  std::string thorn;           // the declaring thorn
  std::string implementation;  // its implementation
  parameter_binding binding;
  std::vector<parameter_value> values;  // one per array element (one for a scalar)
  std::vector<bool> set;                // per element: set by the parameter file
  std::vector<gen::source_location> set_at;
  mutable bool read = false;
};

}  // namespace opuntia
