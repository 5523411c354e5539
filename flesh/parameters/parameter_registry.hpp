#pragma once
// The typed parameter registry: every parameter of every compiled thorn (from the generated
// bindings), the values a parameter file sets, and the checks Cactus makes on them.
//
//   parameter_registry registry;
//   for (const auto& b : bindings) registry.add_thorn(b);
//   registry.apply(parse_parfile(file), file);   // throws ccl::input_error with every problem
//   double dt = registry.real("Time", "timestep");
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ccl/diagnostic.hpp"
#include "ccl/model/parfile_model.hpp"
#include "ccl/source_file.hpp"
#include "flesh/parameters/parameter_description.hpp"
#include "opuntia/binding.hpp"

namespace opuntia {

/// INT as long long (checked against CCTK_INT when set), REAL as double, KEYWORD and STRING
/// as text, BOOLEAN as bool.
using parameter_value = std::variant<long long, double, std::string, bool>;

/// A value as text: REAL in the shortest form that reads back to the same bits ("0.1", "1e-300"),
/// BOOLEAN as yes or no, KEYWORD and STRING as they are.
std::string parameter_text(const parameter_value& value);

/// One value of a parameter of an active thorn, as a checkpoint records it.
struct parameter_setting {
  std::string thorn;      // the declaring thorn: "Driver"
  std::string name;       // "global_nx"
  int index = -1;         // the element of an array parameter; -1: not an array
  std::string value;      // parameter_text()
  std::string steerable;  // never, always, recover (param.ccl's STEERABLE; empty: never)
};

/// How strictly a parameter file is read (`--parameter-level`).
enum class parameter_level {
  normal,  // later assignments win
  strict,  // a parameter set twice is an error; so is one set but never read (see unread())
};

/// Whether a thorn is active only when ActiveThorns names it, or always (as the flesh's own thorn
/// and those a thorn's provide() declares so: naming them in ActiveThorns changes nothing).
enum class activation { by_parfile, always };

class parameter_registry final : public parameter_source {
 public:
  explicit parameter_registry(parameter_level level = parameter_level::normal) : level_(level) {}

  /// Registers the parameters of a compiled thorn: its own, and its USES/EXTENDS of
  /// parameters that other implementations share (resolved when the parfile is applied).
  void add_thorn(const thorn_binding& thorn, activation active = activation::by_parfile);

  /// Reads a parsed parameter file: activates the thorns of every ActiveThorns line (plus the
  /// thorns always active), then evaluates and sets every assignment in order. Errors, all collected
  /// and thrown together as ccl::input_error, each at its `file:line:column`:
  /// unknown thorn (nearest names), unknown parameter (nearest names), parameter of a thorn
  /// not active, value of the wrong type, value outside every range (listing the ranges),
  /// an array index outside the array, a USES/EXTENDS of a parameter nobody shares,
  /// in strict mode a parameter set twice. Values may be arithmetic expressions
  /// (`+ - * / **`, parentheses, sqrt sin cos tan exp log int floor ceil abs min max, pi), references
  /// to other parameters (`impl::name`, their value at that point of the file), and
  /// `$parfile` (the parameter file's name without directory and `.par`).
  void apply(const ccl::parfile_file& parfile, const ccl::source_file& source);

  bool is_active(std::string_view thorn) const;
  bool is_always_active(std::string_view thorn) const;
  /// Active thorns in activation order (those always active first, in registration order).
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
  bool* read_flag(std::string_view owner, std::string_view name) const override;
  /// Forgets every read so far: the flesh calls it after building the thorns' typed structs,
  /// whose fields then report their own reads (tracked_parameter).
  void reset_reads();
  /// Every value of every parameter the active thorns declare (USES and EXTENDS hold none of
  /// their own), thorn by thorn in registration order.
  std::vector<parameter_setting> settings() const;
  /// Whether the parameter file set it (rather than the default).
  bool was_set(std::string_view owner, std::string_view name) const;
  /// `message`, about the value of owner::name, as a diagnostic at that value where the
  /// parameter file set it (its first set element), with that line's text; nullopt when the
  /// file did not set it. With `part`, a word of the value (`a::x` of "a::u a::x"), at that word
  /// where the value's first line shows it whole, case aside.
  std::optional<ccl::diagnostic> diagnostic_where_set(std::string_view owner, std::string_view name,
                                                      std::string message, std::string_view part = {}) const;

  /// Strict mode: "path:line:column: error: parameter 'T::p' is set but never read" for each
  /// parameter the file set that no reader asked for since apply() (computed at any level;
  /// the caller decides whether it matters).
  std::vector<ccl::diagnostic> unread() const;

  /// `opuntia --describe THORN`: each parameter with type, access, range(s), default,
  /// description, as text or as a Markdown section; unknown thorn: std::invalid_argument naming
  /// the nearest thorns.
  std::string describe(std::string_view thorn, description_format format = description_format::text) const;
  /// `opuntia --describe-all`: every registered thorn's, in registration order; in Markdown, the
  /// page docs/parameters.md.
  std::string describe_all(description_format format = description_format::text) const;

 private:
  /// A compiled parameter entry. Defined here, not after the class: the inline constructor
  /// needs `std::vector<entry>` complete (clang insists).
  struct entry {
    std::string thorn;           // the declaring thorn
    std::string implementation;  // its implementation
    parameter_binding binding;
    std::vector<parameter_value> values;  // one per array element (one for a scalar)
    std::vector<bool> set;                // per element: set by the parameter file
    std::vector<ccl::source_location> set_at;    // per element: its statement
    std::vector<ccl::source_location> value_at;  // per element: the value in that statement
    mutable bool read = false;
    /// The ranges values are checked against: the declaration's, plus those of EXTENDS in
    /// active thorns (recomputed by every apply()).
    std::vector<range_binding> ranges;
  };
  struct applier;  // one apply(): its statements, its errors

  /// The parameter `owner::name` as reads and parfiles see it: a USES/EXTENDS entry stands
  /// for the entry it shares (nullptr when nobody shares it, or there is no such parameter).
  entry* find(std::string_view owner, std::string_view name);
  const entry* find(std::string_view owner, std::string_view name) const;
  /// Registered thorns called `owner` (thorn name, else implementation), active ones first.
  std::vector<std::string> thorns_for(std::string_view owner) const;
  /// The parameter `name` (case-insensitive) that thorn `thorn` declares, or nullptr.
  const entry* declared(std::string_view thorn, std::string_view name) const;
  /// The entry a USES/EXTENDS entry shares (a global or restricted parameter of the
  /// implementation it names), `&e` for an ordinary one, nullptr when nobody shares it.
  const entry* owner_of(const entry& e) const;
  /// What describe() shows of a registered thorn (its exact name).
  thorn_description description_of(const std::string& thorn) const;
  /// The entry a typed read asks for, checked and marked read; std::logic_error otherwise.
  const entry& readable(std::string_view owner, std::string_view name, int index, const char* as) const;
  /// `message` at the first element of `e` that the parameter file set; nullopt when none.
  /// `message` at the first set element's statement, or at its value where `at_value` (at `part`
  /// of it, as diagnostic_where_set says).
  std::optional<ccl::diagnostic> first_set(const entry& e, std::string message, bool at_value,
                                           std::string_view part = {}) const;

  /// find()'s answers by the spelling asked, as indices into entries_: a run reads parameters in
  /// every iteration (the flesh's termination, thorn routines), and find() compares names case
  /// by case through every registered thorn. Forgotten whenever thorns are added or activated.
  /// Reads come from the run's thread only (as `entry::read` already assumes).
  struct name_pair_less {
    using is_transparent = void;
    using view = std::pair<std::string_view, std::string_view>;
    static view of(const std::pair<std::string, std::string>& p) { return {p.first, p.second}; }
    static view of(const view& v) { return v; }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return of(a) < of(b);
    }
  };
  void forget_lookups();

  mutable std::map<std::pair<std::string, std::string>, std::size_t, name_pair_less> found_;
  parameter_level level_;
  std::vector<entry> entries_;                            // stable order: registration order
  std::vector<std::string> thorn_names_;                  // registration order
  std::map<std::string, std::string> implementation_of_;  // thorn (lower case) -> implementation
  std::vector<std::string> always_active_;                // registration order
  std::vector<std::string> active_;                       // activation order, always active ones not included
  std::vector<ccl::source_file> sources_;                 // the files applied: line texts for unread()
};

}  // namespace opuntia
