// The semantic pass: what the grammars cannot check, each error at the offending node.
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "ccl/parse.hpp"
#include "generator/semantic/kernel_body.hpp"
#include "generator/semantic/reserved_names.hpp"
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {
namespace {

/// Why the body CODE names (or the default src/<kernel>.kernel) is not among the thorn's files:
/// outside the thorn; a folder of it, with the bodies that folder holds; or missing, with the
/// nearest file of the thorn, or its .kernel files where none is near.
std::string missing_body_message(const kernel_model& kernel, const thorn_sources& sources) {
  const auto& path = kernel.code_path;
  const auto head = fmt::format("the body of kernel '{}', '{}',", kernel.name, path);
  if (path.starts_with("..") || std::filesystem::path(path).is_absolute()) {
    return fmt::format("{} is outside thorn {}: a body lives in its thorn", head, sources.dir);
  }
  const auto folder_prefix = path.ends_with('/') ? path : path + "/";  // "src/" stays so, normalised
  std::vector<std::string> bodies, inside;
  for (const auto& file : sources.present_files) {
    if (file.ends_with(".kernel")) bodies.push_back(file);
    if (file.starts_with(folder_prefix) && file.ends_with(".kernel")) inside.push_back(file);
  }
  const bool folder = std::any_of(sources.present_files.begin(), sources.present_files.end(),
                                  [&](const std::string& file) { return file.starts_with(folder_prefix); });
  if (folder) {
    return fmt::format("{} is a folder of thorn {}: CODE names the body's file{}", head, sources.dir,
                       inside.empty() ? std::string() : " (it holds " + join_names(inside) + ")");
  }
  auto suggestion = did_you_mean(path, sources.present_files);
  if (suggestion.empty() && !bodies.empty()) suggestion = "; the thorn's bodies: " + join_names(bodies);
  return fmt::format("{} is not in {} (write it there, or name another file with CODE=\"...\"){}", head, sources.dir,
                     suggestion);
}

const std::vector<std::string> known_kernel_keys{"TYPE", "STENCIL", "TILE", "EXTERIOR", "SHARECODE", "CODE"};
const std::vector<std::string> known_variable_keys{"cached", "intent"};
const std::vector<std::string> known_intents{"in", "out", "inout", "separateinout"};
constexpr std::string_view launch_prefix = "CAKERNEL_Launch_";

/// `intent=` of cakernel.ccl, any case (also SEPERATEINOUT, the paper's spelling); nullopt for
/// anything else.
std::optional<kernel_intent> intent_named(const std::string& value) {
  const auto lower = to_lower(value);
  return enum_named<kernel_intent>(kernel_intent_names, lower == "seperateinout" ? "separateinout" : lower);
}

/// The intent a CCTK_KERNEL_VARIABLE list gives its names: `in` where it says none.
std::optional<kernel_intent> intent_of(const kernel_name_list& list) {
  const auto* key = find_key(list.keys, "intent");
  return key != nullptr ? intent_named(key->value.text) : kernel_intent::in;
}

/// Whether a CCTK_KERNEL_VARIABLE list caches its names (`cached=yes`); no where it says none.
bool cached_of(const kernel_name_list& list) {
  const auto* key = find_key(list.keys, "cached");
  return key != nullptr && boolean_word(to_lower(key->value.text)).value_or(false);
}

std::string place(const source_location& where) { return fmt::format("{}:{}:{}", where.path, where.line, where.column); }

/// `REAL`, `cctk_int`, ... as the enum; nullopt for a type interface.ccl's grammar does not know.
std::optional<ccl::data_type> data_type_of(std::string type) {
  type = to_upper(type);
  if (type.rfind("CCTK_", 0) == 0) type.erase(0, 5);
  return enum_named<ccl::data_type>(data_type_names, "CCTK_" + type);
}

/// CENTERING={vcc}: one letter per direction x, y, z, v (vertex) or c (cell), any case. Errors
/// point at the value, or at the letter that is neither.
std::optional<centerings> centering_of(const key_value& option, diagnostic_sink& sink) {
  const auto& text = option.value.text;
  if (text.size() != 5 || text.front() != '{' || text.back() != '}') {
    sink.add(error_at(option.value.where, fmt::format("CENTERING must be one letter per direction x, y, z in braces, "
                                                      "v (vertex) or c (cell), as in {{vvv}} or {{vcc}}; not '{}'",
                                                      text)));
    return std::nullopt;
  }
  centerings result = vertex_centred;
  for (std::size_t d = 0; d < 3; ++d) {
    const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(text[d + 1])));
    if (letter == 'c') {
      result[d] = centering::cell;
    } else if (letter != 'v') {
      auto where = option.value.where;
      where.column += d + 1;
      sink.add(error_at(where, fmt::format("CENTERING letter '{}' for {} must be v (vertex) or c (cell)", text[d + 1],
                                           "xyz"[d])));
      return std::nullopt;
    }
  }
  return result;
}

/// Parses a file with `parse`, moving its diagnostics into `sink` instead of stopping.
template <typename Parse>
auto parse_into(diagnostic_sink& sink, const source_file& file, Parse parse) -> decltype(parse(file)) {
  try {
    return parse(file);
  } catch (const input_error& e) {
    for (const auto& d : e.diagnostics()) sink.add(d);
    return {};
  }
}

/// A comma-separated list of integers, e.g. STENCIL="1,1,1,1,1,1".
std::optional<std::vector<long long>> integer_list(const std::string& text) {
  std::vector<long long> values;
  std::size_t begin = 0;
  while (true) {
    const auto end = text.find(',', begin);
    std::string item = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!is_integer_literal(item) || item.size() > 9) return std::nullopt;
    values.push_back(std::stoll(item));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return values;
}

/// STENCIL and EXTERIOR: one width for every face, or six ("xn,xp,yn,yp,zn,zp"), each 0 to 64;
/// nullopt otherwise.
std::optional<std::array<int, 6>> face_widths(const std::string& text) {
  const auto values = integer_list(text);
  if (!values || (values->size() != 1 && values->size() != 6) ||
      std::any_of(values->begin(), values->end(), [](long long v) { return v < 0 || v > 64; })) {
    return std::nullopt;
  }
  std::array<int, 6> widths{};
  for (std::size_t i = 0; i < 6; ++i) widths[i] = static_cast<int>((*values)[values->size() == 1 ? 0 : i]);
  return widths;
}

/// Whether an integer literal fits CCTK_INT (32 bits), however many digits it has.
bool fits_cctk_int(const std::string& text) {
  std::size_t begin = text.find_first_not_of(" \t+-");
  const bool negative = text.find('-') < begin;
  begin = text.find_first_not_of('0', begin);
  if (begin == std::string::npos) return true;  // zero
  const std::string digits = text.substr(begin, text.find_last_of("0123456789") - begin + 1);
  if (digits.size() > 10) return false;
  const long long value = std::stoll(digits);
  return negative ? value <= 2147483648LL : value <= 2147483647LL;
}

/// Whether a REAL literal (Fortran exponents allowed) is a finite double.
bool is_finite_real(const std::string& text) {
  const std::string c = c_real_literal(text);
  errno = 0;
  const double value = std::strtod(c.c_str(), nullptr);
  return errno != ERANGE || value == 0.0;
}

/// How many time levels TIMELEVELS may ask for. Cactus sets no bound; each level is a full copy
/// of the group, and real thorns use 1 to 3.
constexpr int max_timelevels = 100;

/// A TIMELEVELS value as a number of levels: nullopt for a parameter name (the run then keeps one
/// level) or a number out of range (reported by interpret_groups).
std::optional<int> timelevel_count(const std::string& text) {
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const int n = std::stoi(text);
  return n >= 1 && n <= max_timelevels ? std::optional<int>(n) : std::nullopt;
}

bool is_identifier(const std::string& text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front())) != 0) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

/// `impl::name[3]` -> {"impl", "name"}; `name` -> {"", "name"}.
std::pair<std::string, std::string> split_qualified(std::string text) {
  text = trim(text.substr(0, text.find('[')));
  const auto colons = text.find("::");
  if (colons == std::string::npos) return {"", text};
  return {text.substr(0, colons), text.substr(colons + 2)};
}

/// LANG: of a routine: the languages of Cactus's schedule.ccl (Opuntia's routines are C++ and
/// run whatever LANG says, but anything else is a mistake).
const std::vector<std::string> known_languages{"C", "Fortran"};

/// What a TYPE value may hold: names, `*` wildcards, `/` between a backend and a template, `|`
/// between alternatives and the `$` of template names such as `3dblock$comp`.
constexpr std::string_view type_characters =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_*/|$.-";

/// A character in a message: 'x', or a name for one that cannot be shown.
std::string shown_character(char c) {
  switch (c) {
    case '\n': return "a newline";
    case '\r': return "a carriage return";
    case '\t': return "a tab";
    case ' ': return "a blank";
    case '"': return "'\"'";
    case '\\': return "a backslash";
    default: break;
  }
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
    return fmt::format("the byte \\x{:02x}", static_cast<unsigned char>(c));
  }
  return fmt::format("'{}'", c);
}

struct visible_variable {
  const variable_group_model* group;
  std::string implementation;
};

struct checker {
  const thorn_sources& sources;
  const std::vector<thorn_sources>& others;
  const std::vector<std::pair<std::string, std::string>>& unread_others;
  diagnostic_sink sink;
  thorn_model thorn;
  std::map<std::string, visible_variable> variables;  // name -> group declaring it
  std::vector<thorn_model> inherited;                 // keeps the groups `variables` points into
  // The other thorns' interface.ccl and schedule.ccl, each parsed once, where a check first needs
  // it (by index into `others`); nullopt for one that does not parse: it provides nothing, and
  // its errors are reported when that thorn is generated.
  std::map<std::size_t, std::optional<interface_file>> other_interfaces;
  std::map<std::size_t, std::optional<schedule_file>> other_schedules;

  template <typename File, typename Parse>
  static const File* parsed_once(std::map<std::size_t, std::optional<File>>& parsed, std::size_t i,
                                 const source_file& file, Parse parse) {
    auto [at, added] = parsed.try_emplace(i);
    if (added) {
      try {
        at->second = parse(file);
      } catch (const input_error&) {
      }
    }
    return at->second ? &*at->second : nullptr;
  }
  const interface_file* interface_of_other(std::size_t i) {
    return parsed_once(other_interfaces, i, others[i].interface_ccl, parse_interface_ccl);
  }
  const schedule_file* schedule_of_other(std::size_t i) {
    return parsed_once(other_schedules, i, others[i].schedule_ccl, parse_schedule_ccl);
  }

  void check() {
    thorn.name = sources.name;
    if (const auto reason = reserved_thorn_name(thorn.name)) {
      sink.add(whole_file_error(sources.dir, fmt::format("thorn '{}' (its folder's name) is {}: rename the folder",
                                                         thorn.name, *reason)));
    }
    thorn.interface_syntax = parse_into(sink, sources.interface_ccl, parse_interface_ccl);
    thorn.params = parse_into(sink, sources.param_ccl, parse_param_ccl);
    thorn.schedule = parse_into(sink, sources.schedule_ccl, parse_schedule_ccl);
    cakernel_file descriptors;
    if (sources.cakernel_ccl) descriptors = parse_into(sink, *sources.cakernel_ccl, parse_cakernel_ccl);
    sink.throw_if_any();

    thorn.implementation = thorn.interface_syntax.implements.text;
    if (thorn.implementation.empty()) {
      sink.add(whole_file_error(sources.interface_ccl.path, "interface.ccl has no 'implements:' line"));
    }
    for (const auto& i : thorn.interface_syntax.inherits) thorn.inherits.push_back(i.text);
    thorn.groups = interpret_groups(thorn.interface_syntax);
    check_defaults();
    sink.throw_if_any();

    for (const auto& g : thorn.groups) {
      for (const auto& v : g.variables) variables.emplace(v, visible_variable{&g, thorn.implementation});
    }
    add_inherited();
    for (const auto& k : descriptors.kernels) check_kernel(k);
    check_launches(thorn.schedule.statements);
    check_schedule();
    check_scalar_storage();
    trim_comment_breakers();
    sink.throw_if_any();
  }

  /// A description ends up after `///<` in the parameters header: a backslash at its end would
  /// join the next line of generated code to the comment. Such a backslash (and blanks after it)
  /// says nothing, so it is dropped here, in the model the emitters read.
  void trim_comment_breakers() {
    for (auto& p : thorn.params.parameters) {
      auto& d = p.description;
      auto end = d.find_last_not_of(" \t\r\n\f\v");
      if (end == std::string::npos || d[end] != '\\') continue;
      while (end != std::string::npos && (d[end] == '\\' || std::isspace(static_cast<unsigned char>(d[end])) != 0)) {
        end = end == 0 ? std::string::npos : end - 1;
      }
      d.erase(end == std::string::npos ? 0 : end + 1);
    }
  }

  // --- schedule.ccl ------------------------------------------------------------------------

  /// The groups an implementation qualifier names as this thorn sees them: its own (its
  /// implementation or thorn name, or no qualifier), or those of an inherited implementation;
  /// nullptr for a friend's (not checked) or an unknown one (reported at `where`).
  const std::vector<variable_group_model>* groups_of(const std::string& qualifier, const source_location& where,
                                                     const std::string& written) {
    if (qualifier.empty() || iequals(qualifier, thorn.implementation) || iequals(qualifier, thorn.name)) {
      return &thorn.groups;
    }
    for (const auto& model : inherited) {
      if (iequals(qualifier, model.implementation)) return &model.groups;
    }
    for (const auto& f : thorn.interface_syntax.friends) {
      if (iequals(qualifier, f.text)) {
        return nullptr;
      }
    }
    std::vector<std::string> known{thorn.implementation};
    for (const auto& model : inherited) known.push_back(model.implementation);
    sink.add(error_at(where, fmt::format("'{}' names implementation '{}', which thorn {} neither implements nor "
                                         "inherits{}; it sees: {}", written, qualifier, thorn.name,
                                         did_you_mean(qualifier, known), join_names(known))));
    return nullptr;
  }

  /// `group`, `impl::group` or `group[3]` of a STORAGE, SYNC or TRIGGERS list: the group, or
  /// nullptr (reported, or a friend's).
  const variable_group_model* schedule_group(const located_text& item, const std::string& what) {
    const auto [qualifier, name] = split_qualified(item.text);
    const auto* groups = groups_of(qualifier, item.where, item.text);
    if (groups == nullptr) return nullptr;
    const bool own = groups == &thorn.groups;
    std::vector<std::string> known;
    for (const auto& g : *groups) {
      if (!own && g.access == access_level::private_access) continue;
      if (iequals(g.name, name)) return &g;
      known.push_back(qualifier.empty() ? g.name : qualifier + "::" + g.name);
    }
    if (qualifier.empty()) {  // an inherited group needs its implementation
      for (const auto& model : inherited) {
        for (const auto& g : model.groups) {
          if (g.access != access_level::private_access && iequals(g.name, name)) {
            sink.add(error_at(item.where, fmt::format("unknown group '{}' in {}: thorn {} declares no such group; the "
                                                      "inherited one is '{}::{}'", item.text, what, thorn.name,
                                                      model.implementation, g.name)));
            return nullptr;
          }
        }
      }
    }
    sink.add(error_at(item.where, fmt::format("unknown group '{}' in {}{}", item.text, what,
                                              did_you_mean(qualifier.empty() ? name : qualifier + "::" + name, known))));
    return nullptr;
  }

  /// WHILE, UNTIL and IF name a CCTK_INT or CCTK_REAL grid scalar (the flesh reads it).
  void check_schedule_scalar(const located_text& item, const std::string& what) {
    const auto [qualifier, name] = split_qualified(item.text);
    const auto* groups = groups_of(qualifier, item.where, item.text);
    if (groups == nullptr) return;
    const bool own = groups == &thorn.groups;
    std::vector<std::string> known;
    for (const auto& g : *groups) {
      if (!own && g.access == access_level::private_access) continue;
      for (const auto& v : g.variables) {
        if (g.group_type == ccl::group_type::scalar) known.push_back(qualifier.empty() ? v : qualifier + "::" + v);
        if (!iequals(v, name)) continue;
        if (g.group_type != ccl::group_type::scalar ||
            (g.data_type != ccl::data_type::cctk_int && g.data_type != ccl::data_type::cctk_real)) {
          sink.add(error_at(item.where, fmt::format("{} takes a CCTK_INT grid scalar (TYPE=SCALAR); '{}' is a {} of "
                                                    "group '{}' (TYPE={})", what, item.text, name_of(g.data_type),
                                                    g.name, name_of(g.group_type))));
        }
        return;
      }
    }
    sink.add(error_at(item.where, fmt::format("unknown grid scalar '{}' in {}: {} takes a CCTK_INT grid scalar "
                                              "(TYPE=SCALAR) of the thorn or of an implementation it inherits{}",
                                              item.text, what, what,
                                              did_you_mean(qualifier.empty() ? name : qualifier + "::" + name, known))));
  }

  /// The schedule groups (`schedule GROUP name`) of a schedule, by name and alias.
  static void schedule_groups_of(const std::vector<schedule_statement_syntax>& statements,
                                 std::vector<std::string>& names) {
    for (const auto& st : statements) {
      if (st.what == schedule_statement_syntax::kind::conditional) {
        schedule_groups_of(st.then_branch, names);
        schedule_groups_of(st.else_branch, names);
      } else if (st.what == schedule_statement_syntax::kind::item && st.item.is_group) {
        names.push_back(st.item.name.text);
        if (!st.item.alias.empty()) names.push_back(st.item.alias);
      }
    }
  }

  /// A scheduled item with the if/else branches it lies in: two items in different branches of
  /// one conditional never both run.
  struct placed_item {
    const schedule_item_syntax* item;
    std::vector<std::pair<const schedule_statement_syntax*, bool>> branches;  // conditional, then?
  };

  static void placed_items(const std::vector<schedule_statement_syntax>& statements,
                           std::vector<std::pair<const schedule_statement_syntax*, bool>>& branches,
                           std::vector<placed_item>& out) {
    for (const auto& st : statements) {
      if (st.what == schedule_statement_syntax::kind::conditional) {
        branches.emplace_back(&st, true);
        placed_items(st.then_branch, branches, out);
        branches.back().second = false;
        placed_items(st.else_branch, branches, out);
        branches.pop_back();
      } else if (st.what == schedule_statement_syntax::kind::item) {
        out.push_back(placed_item{&st.item, branches});
      }
    }
  }

  static bool exclusive(const placed_item& a, const placed_item& b) {
    for (const auto& [c, then] : a.branches) {
      for (const auto& [d, then_b] : b.branches) {
        if (c == d && then != then_b) return true;
      }
    }
    return false;
  }

  /// Names schedule.ccl uses that must be this thorn's (or an inherited implementation's): the
  /// bin or group each item goes in, SYNC, STORAGE and TRIGGERS groups, WHILE/UNTIL/IF
  /// scalars, LANG, and one item per name in each place. BEFORE and AFTER are not checked: as
  /// in Cactus, they may name routines of thorns that are not active, and are then ignored.
  void check_schedule() {
    std::vector<std::string> groups;
    schedule_groups_of(thorn.schedule.statements, groups);
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (others[i].dir == sources.dir) continue;
      if (const auto* other = schedule_of_other(i)) schedule_groups_of(other->statements, groups);
    }
    check_schedule_statements(thorn.schedule.statements, groups);

    std::vector<std::pair<const schedule_statement_syntax*, bool>> branches;
    std::vector<placed_item> items;
    placed_items(thorn.schedule.statements, branches, items);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto& a = *items[i].item;
      const auto& a_name = a.alias.empty() ? a.name.text : a.alias;
      for (std::size_t j = 0; j < i; ++j) {
        const auto& b = *items[j].item;
        const auto& b_name = b.alias.empty() ? b.name.text : b.alias;
        if (!iequals(a_name, b_name) || exclusive(items[i], items[j])) continue;
        const bool same_place = same_target(a.target.text, b.target.text);
        if (!same_place && !(a.is_group && b.is_group)) continue;
        sink.add(error_at(a.name.where, fmt::format("{} '{}' is scheduled twice{}: first at line {}{}",
                                                    a.is_group ? "group" : "routine", a_name,
                                                    same_place ? fmt::format(" in {}", a.target.text) : "",
                                                    b.name.where.line,
                                                    a.is_group ? "" : "; give one of them another name with AS")));
        break;
      }
    }
  }

  /// Whether two items go in one place: the same bin however written (`EVOL`, `CCTK_EVOL`), or
  /// the same group.
  static bool same_target(std::string_view a, std::string_view b) {
    const int bin_a = ccl::schedule_bin_index(a), bin_b = ccl::schedule_bin_index(b);
    return bin_a >= 0 || bin_b >= 0 ? bin_a == bin_b : iequals(a, b);
  }

  /// An `if (...)` condition: its syntax, and each parameter it names among those the thorn
  /// sees (its own, and those its param.ccl uses from the implementations it shares; `impl::name`
  /// for either), as the flesh will look them up when it decides the condition. Before, a typo
  /// in a condition was found only by a run of a parameter file that activated the thorn.
  void check_condition(const schedule_statement_syntax& st) {
    // The place of the condition's `offset`-th byte: its text may span lines by continuations.
    const auto place_at = [&](std::size_t offset) {
      auto where = st.condition_where;
      for (std::size_t i = 0; i < offset && i < st.condition.size(); ++i) {
        where.column = st.condition[i] == '\n' ? 1 : where.column + 1;
        if (st.condition[i] == '\n') ++where.line;
      }
      return where;
    };
    const auto reading = ccl::read_condition(st.condition);
    if (reading.error) {
      sink.add(error_at(place_at(reading.error->offset), "in this if condition: " + reading.error->message));
      return;
    }
    for (const auto& name : reading.parameters) {
      const auto colons = name.text.find("::");
      const auto qualifier = colons == std::string::npos ? std::string() : name.text.substr(0, colons);
      const auto bare = colons == std::string::npos ? name.text : name.text.substr(colons + 2);
      const bool own_qualifier =
          qualifier.empty() || iequals(qualifier, thorn.implementation) || iequals(qualifier, thorn.name);
      std::vector<std::string> seen;  // the names the condition may use, as it may write them
      bool found = false;
      for (const auto& p : thorn.params.parameters) {
        const bool shared = p.section == ccl::param_section::shares_section;
        const bool visible = qualifier.empty() || (shared ? iequals(qualifier, p.shared_from) : own_qualifier);
        if (!visible) continue;
        seen.push_back(qualifier.empty() ? p.name.text : qualifier + "::" + p.name.text);
        found = found || iequals(p.name.text, bare);
      }
      if (found) continue;
      const bool known_qualifier =
          own_qualifier || std::any_of(thorn.params.parameters.begin(), thorn.params.parameters.end(),
                                       [&](const ccl::param_syntax& p) { return iequals(p.shared_from, qualifier); });
      const auto why =
          qualifier.empty() ? fmt::format("thorn {} has no parameter '{}' and uses none of that name", thorn.name, bare)
          : own_qualifier   ? fmt::format("thorn {} has no parameter '{}'", thorn.name, bare)
          : known_qualifier ? fmt::format("thorn {} uses no parameter '{}' of implementation '{}'", thorn.name, bare,
                                          qualifier)
                            : fmt::format("thorn {} uses no parameter of implementation '{}': a condition reads the "
                                          "thorn's own parameters and those its param.ccl uses (shares: {} then "
                                          "USES ... {})",
                                          thorn.name, qualifier, qualifier, bare);
      sink.add(error_at(place_at(name.offset), fmt::format("unknown parameter '{}' in this if condition: {}{}",
                                                           name.text, why, did_you_mean(name.text, seen))));
    }
  }

  void check_schedule_statements(const std::vector<schedule_statement_syntax>& statements,
                                 const std::vector<std::string>& groups) {
    for (const auto& st : statements) {
      if (st.what == schedule_statement_syntax::kind::conditional) {
        check_condition(st);
        check_schedule_statements(st.then_branch, groups);
        check_schedule_statements(st.else_branch, groups);
        continue;
      }
      if (st.what == schedule_statement_syntax::kind::storage) {
        for (const auto& g : st.storage) schedule_group(g, "STORAGE");
        continue;
      }
      const auto& item = st.item;
      const auto& target = item.target.text;
      if (ccl::schedule_bin_index(target) < 0 &&
          std::none_of(groups.begin(), groups.end(), [&](const std::string& g) { return iequals(g, target); })) {
        // CCTK_ names a bin. Another name may be a group of a thorn that is not given here (the
        // CaCUDA fixture schedules into its library's CaCUDA_Shutdown): only a name near a bin
        // or a known group is taken for a misspelling.
        const auto& bins = ccl::schedule_bins_spelled_like(target);
        auto candidates = bins;
        candidates.insert(candidates.end(), groups.begin(), groups.end());
        if (ccl::has_cctk_prefix(target) || !nearest_names(target, candidates).empty()) {
          const auto near = did_you_mean(target, candidates);
          sink.add(error_at(item.target.where,
                            fmt::format("unknown schedule bin or group '{}' after {}{}", target, to_upper(item.placement),
                                        near.empty() ? "; bins: " + join_names(bins) : near)));
        }
      }
      for (const auto& v : item.while_vars) check_schedule_scalar(v, "WHILE");
      for (const auto& v : item.until_vars) check_schedule_scalar(v, "UNTIL");
      for (const auto& v : item.if_vars) check_schedule_scalar(v, "IF");
      for (const auto& clause : item.clauses) {
        const auto& key = clause.key.text;
        if (key == "SYNC" || key == "SYNCS" || key == "STORAGE" || key == "TRIGGER" || key == "TRIGGERS") {
          for (const auto& g : clause.items) schedule_group(g, key + " of " + item.name.text);
        } else if (key == "LANG") {
          for (const auto& l : clause.items) {
            if (std::none_of(known_languages.begin(), known_languages.end(),
                             [&](const std::string& k) { return iequals(k, l.text); })) {
              sink.add(error_at(l.where, fmt::format("unknown LANG '{}'; expected {}{}", l.text,
                                                     join_names(known_languages, " or "),
                                                     did_you_mean(l.text, known_languages))));
            }
          }
        }
      }
    }
  }

  /// The groups given storage by `statements`, as lower-case `impl::group` (the thorn's own
  /// implementation for an unqualified name, `own` standing for it).
  static void storage_of(const std::vector<schedule_statement_syntax>& statements, const std::string& own,
                         std::set<std::string>& out) {
    const auto add = [&](const located_text& item) {
      auto [qualifier, name] = split_qualified(item.text);
      out.insert(to_lower((qualifier.empty() ? own : qualifier) + "::" + name));
    };
    for (const auto& st : statements) {
      if (st.what == schedule_statement_syntax::kind::conditional) {
        storage_of(st.then_branch, own, out);
        storage_of(st.else_branch, own, out);
      } else if (st.what == schedule_statement_syntax::kind::storage) {
        for (const auto& g : st.storage) add(g);
      } else {
        for (const auto& c : st.item.clauses) {
          if (c.key.text == "STORAGE") {
            for (const auto& g : c.items) add(g);
          }
        }
      }
    }
  }

  /// A grid scalar a kernel reads needs storage, or the launch fails in the run: from a STORAGE
  /// of this thorn's schedule.ccl, or of the schedule.ccl of the thorn that declares it.
  void check_scalar_storage() {
    std::set<std::string> storage;
    storage_of(thorn.schedule.statements, thorn.implementation, storage);
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (others[i].dir == sources.dir) continue;
      const auto* other = interface_of_other(i);
      if (other == nullptr ||
          std::none_of(inherited.begin(), inherited.end(),
                       [&](const thorn_model& m) { return iequals(m.implementation, other->implements.text); })) {
        continue;
      }
      if (const auto* schedule = schedule_of_other(i)) storage_of(schedule->statements, other->implements.text, storage);
    }
    for (const auto& k : thorn.kernels) {
      for (const auto& p : k.parameters) {
        if (p.source != "scalar") continue;
        const auto visible = variables.find(p.name);
        if (visible == variables.end()) continue;
        const auto& group = *visible->second.group;
        const bool own = visible->second.implementation == thorn.implementation;
        const auto key = to_lower(visible->second.implementation + "::" + group.name);
        const auto alias = to_lower(thorn.name + "::" + group.name);
        if (storage.count(key) != 0 || (own && storage.count(alias) != 0)) continue;
        sink.add(error_at(p.where, fmt::format("grid scalar '{}' of group '{}' has no storage, so kernel '{}' cannot "
                                               "read it: add 'STORAGE: {}' to schedule.ccl",
                                               p.name, group.name, k.name,
                                               own ? group.name : visible->second.implementation + "::" + group.name)));
      }
    }
  }

  using visible_iterator = std::map<std::string, visible_variable>::const_iterator;

  /// The grid function a kernel variable's name stands for, and its time level: `phi` (0), or
  /// `phi_p`, `phi_p_p` (1, 2: Cactus's naming of past time levels) where no grid function has
  /// that name itself; variables.end() where there is none.
  std::pair<visible_iterator, int> grid_function_named(std::string name) const {
    int level = 0;
    auto found = variables.find(name);
    while (found == variables.end() && name.size() > 2 && name.compare(name.size() - 2, 2, "_p") == 0) {
      name.resize(name.size() - 2);
      ++level;
      found = variables.find(name);
    }
    return {found, found == variables.end() ? 0 : level};
  }

  /// A schedule item CAKERNEL_Launch_<K> launches kernel K of this thorn (the flesh looks the
  /// name up among the thorn's kernels, as written): a misspelt one would otherwise be found
  /// only when a run builds its schedule.
  void check_launches(const std::vector<schedule_statement_syntax>& statements) {
    for (const auto& st : statements) {
      if (st.what == schedule_statement_syntax::kind::conditional) {
        check_launches(st.then_branch);
        check_launches(st.else_branch);
      }
      if (st.what != schedule_statement_syntax::kind::item || st.item.is_group) continue;
      const auto& name = st.item.name;
      if (!iequals(std::string_view(name.text).substr(0, launch_prefix.size()), launch_prefix)) continue;
      std::vector<std::string> launches, kernels;
      for (const auto& k : thorn.kernels) {
        launches.push_back(std::string(launch_prefix) + k.name);
        kernels.push_back(k.name);
      }
      if (std::find(launches.begin(), launches.end(), name.text) != launches.end()) continue;
      std::string why;
      if (kernels.empty()) {
        why = fmt::format(": thorn {} declares no kernel (CCTK_KERNEL in cakernel.ccl)", thorn.name);
      } else if (name.text.rfind(launch_prefix, 0) == 0) {
        why = fmt::format(": thorn {} has no kernel '{}'", thorn.name, name.text.substr(launch_prefix.size()));
      }
      const auto known = kernels.empty() ? std::string() : fmt::format("; its kernels: {}", join_names(kernels));
      sink.add(error_at(name.where, fmt::format("unknown kernel launch '{}'{}{}{}", name.text, why,
                                                did_you_mean(name.text, launches), known)));
    }
  }

  /// The body's accesses against the descriptor: each I3D and I3D_l names a variable of the
  /// kernel (or the second buffer of a separateinout one), and constant offsets stay within
  /// the STENCIL. The kernel runs on the points its STENCIL keeps on the grid, so an offset
  /// beyond it leaves the grid at the points nearest the edge (where OpenMP reads or writes past
  /// the array, and a GPU reads another row). A name the kernel does not list is reported once,
  /// at its first use; offsets that are not constants are checked at run time in a build with
  /// bounds checking (templates/openmp/common.h.tpl).
  /// Also sets the kernel's off_axis_zn from the same accesses.
  void check_body(const kernel_descriptor_syntax& k, kernel_model& kernel) {
    const source_file body{kernel.code_file, kernel.code_text};
    std::set<std::string> listed;
    for (const auto& v : kernel.variables) {
      listed.insert(v.name);
      if (v.intent == kernel_intent::separateinout) listed.insert(v.name + "_out");
    }
    const auto accesses = find_accesses(kernel.code_text);
    std::set<std::string> reported;
    for (const auto& access : accesses) {
      const auto name = access.variable();
      if (!name.empty() && listed.count(name) == 0) {
        const auto& where = access.arguments.front().where;
        if (reported.insert(name).second) {
          sink.add(body.error_at(where.line, where.column, unlisted_variable(k, kernel, name, accesses, listed)));
        }
      } else if (access.arguments.size() == 4) {
        check_reach(k, kernel, body, access);
      }
    }
    kernel.off_axis_zn = off_axis_planes_below(kernel, accesses);
    mark_written_at_centre(kernel, accesses);
  }

  /// Each written variable's written_at_centre: every I3D and I3D_l naming the buffer it writes
  /// has the constant offsets 0, 0, 0, and no macro of the body can reach that buffer unseen
  /// (no directive names I3D or includes a file, nor names I3D_l where the variable is cached:
  /// only cached variables are read through I3D_l).
  static void mark_written_at_centre(kernel_model& kernel, const std::vector<body_access>& accesses) {
    const bool hidden_i3d = directives_name(kernel.code_text, "I3D") || directives_name(kernel.code_text, "include");
    const bool hidden_i3d_l = directives_name(kernel.code_text, "I3D_l");
    const auto at_centre = [](const body_access& a) {
      return a.arguments.size() == 4 && std::all_of(a.arguments.begin() + 1, a.arguments.end(),
                                                    [](const access_argument& x) { return x.value && *x.value == 0; });
    };
    for (auto& v : kernel.variables) {
      if (v.intent == kernel_intent::in) continue;
      const bool separate = v.intent == kernel_intent::separateinout;
      const auto buffer = separate ? v.name + "_out" : v.name;
      v.written_at_centre = !hidden_i3d && !(v.cached && !separate && hidden_i3d_l) &&
                            std::all_of(accesses.begin(), accesses.end(), [&](const body_access& a) {
                              return a.variable() != buffer || at_centre(a);
                            });
    }
  }

  /// The deepest plane below the current one that `accesses` read off the z axis from a cached
  /// variable: the largest -k of an I3D_l(v, i, j, k) with a constant k < 0 and i or j not a
  /// constant 0, at most the STENCIL's zn. A template that keeps planes of a cached variable in
  /// shared memory keeps that many below the current one for such reads (CUDA's 3dblock_ring);
  /// an access the scanner cannot see (in a macro's definition) still reads global memory.
  static int off_axis_planes_below(const kernel_model& kernel, const std::vector<body_access>& accesses) {
    long long below = 0;
    for (const auto& access : accesses) {
      if (access.macro != "I3D_l" || access.arguments.size() != 4) continue;
      const auto v = std::find_if(kernel.variables.begin(), kernel.variables.end(),
                                  [&](const kernel_variable& x) { return x.name == access.variable(); });
      if (v == kernel.variables.end() || !v->cached) continue;
      const auto& di = access.arguments[1].value;
      const auto& dj = access.arguments[2].value;
      const auto& dk = access.arguments[3].value;
      const bool on_axis = di && *di == 0 && dj && *dj == 0;
      if (!on_axis && dk && *dk < 0) below = std::max(below, -*dk);
    }
    return static_cast<int>(std::min<long long>(below, kernel.stencil[4]));
  }

  /// Why `name` may not be read in the body of `kernel`, and what to write in the descriptor.
  std::string unlisted_variable(const kernel_descriptor_syntax& k, const kernel_model& kernel, const std::string& name,
                                const std::vector<body_access>& accesses, const std::set<std::string>& listed) const {
    constexpr std::string_view out_suffix = "_out";
    if (name.size() > out_suffix.size() && name.ends_with(out_suffix)) {
      const auto base = name.substr(0, name.size() - out_suffix.size());
      const auto v = std::find_if(kernel.variables.begin(), kernel.variables.end(),
                                  [&](const kernel_variable& x) { return x.name == base; });
      if (v != kernel.variables.end()) {
        return fmt::format("'{}' is the second buffer of a separateinout variable, but kernel '{}' lists '{}' with "
                           "intent={} ({}); make it intent=separateinout, or write '{}' itself",
                           name, kernel.name, base, name_of(v->intent), place(v->where), base);
      }
    }
    const auto [found, level] = grid_function_named(name);
    if (found == variables.end()) {
      std::vector<std::string> known(listed.begin(), listed.end());
      for (const auto& [v, visible] : variables) {
        if (visible.group->group_type == ccl::group_type::gf) known.push_back(v);
      }
      return fmt::format("'{}' is neither a variable of kernel '{}' nor a grid function thorn {} sees{}", name,
                         kernel.name, thorn.name, did_you_mean(name, known));
    }
    const auto& group = *found->second.group;
    if (group.group_type != ccl::group_type::gf) {
      return fmt::format("'{}' belongs to group '{}' of TYPE={}: I3D and I3D_l take grid functions (TYPE=GF){}", name,
                         group.name, name_of(group.group_type),
                         group.group_type == ccl::group_type::scalar
                             ? fmt::format("; a body reads a grid scalar as params.{} once CCTK_KERNEL_PARAMETER "
                                           "of kernel '{}' ({}) lists it",
                                           name, kernel.name, place(kernel.where))
                             : "");
    }
    // The intent the body's uses ask for: written and read, inout; a past time level, in. Read
    // through I3D_l, it must be cached as well.
    bool reads = false, writes = false, cached = false;
    for (const auto& a : accesses) {
      if (a.variable() != name) continue;
      writes = writes || a.writes;
      reads = reads || a.reads;
      cached = cached || a.macro == "I3D_l";
    }
    const auto wanted = level > 0 || !writes ? kernel_intent::in : reads ? kernel_intent::inout : kernel_intent::out;
    for (const auto& list : k.variables) {
      if (intent_of(list) != wanted || (cached && !cached_of(list))) continue;
      return fmt::format("grid function '{}' is not a variable of kernel '{}': add it to the kernel's "
                         "CCTK_KERNEL_VARIABLE list with {}intent={} at {}",
                         name, kernel.name, cached ? "cached=yes " : "", name_of(wanted), place(list.where));
    }
    return fmt::format("grid function '{}' is not a variable of kernel '{}': add CCTK_KERNEL_VARIABLE {}intent={} {{ {} }} "
                       "to the kernel at {}",
                       name, kernel.name, cached ? "cached=yes " : "", name_of(wanted), name, place(kernel.where));
  }

  /// Constant offsets of `access` beyond the STENCIL: an error at the first of them.
  void check_reach(const kernel_descriptor_syntax& k, const kernel_model& kernel, const source_file& body,
                   const body_access& access) {
    std::vector<std::string> reaches, allowed;
    const access_argument* first = nullptr;
    for (std::size_t d = 0; d < 3; ++d) {
      const auto& offset = access.arguments[d + 1];
      if (!offset.value) continue;
      const long long reach = *offset.value;
      const int limit = kernel.stencil[2 * d + (reach > 0 ? 1 : 0)];
      if (reach <= limit && -reach <= limit) continue;
      const auto direction = fmt::format("{}{}", reach > 0 ? '+' : '-', "xyz"[d]);
      reaches.push_back(fmt::format("{}{} along {}", reach > 0 ? reach : -reach, first ? "" : " points", direction));
      allowed.push_back(fmt::format("{} along {}", limit, direction));
      if (first == nullptr) first = &offset;
    }
    if (first == nullptr) return;
    const auto* stencil = find_key(k.keys, "STENCIL");
    const auto declared = stencil != nullptr
                              ? fmt::format("STENCIL=\"{}\" at {}", stencil->value.text, place(stencil->value.where))
                              : fmt::format("the kernel at {} declares no STENCIL: 1 on every side", place(kernel.where));
    sink.add(body.error_at(first->where.line, first->where.column,
                           fmt::format("{} reaches {}, beyond the STENCIL of kernel '{}' ({}, {}); widen the STENCIL "
                                       "or reach less far",
                                       access.text(), join_names(reaches, " and "), kernel.name,
                                       join_names(allowed, " and "), declared)));
  }

  /// A group, grid function or parameter whose name the generated code cannot declare
  /// (reserved_for_declarations): an error at its place.
  void refuse_reserved_name(std::string_view kind, const std::string& name, const source_location& where) {
    const auto reason = reserved_for_declarations(name);
    if (!reason) return;
    sink.add(error_at(where, fmt::format("{} '{}' is {}: the generated code declares it by its name and would not "
                                         "compile; rename it",
                                         kind, name, *reason)));
  }
  /// The same for what a kernel `kernel` lists: a grid function (reserved_in_kernels), or a
  /// parameter, which its OpenCL code declares as a member of a struct (only OpenCL C's keywords);
  /// true where it is refused.
  bool refuse_in_kernel(std::string_view kind, const std::string& name, const std::string& kernel,
                        const source_location& where) {
    const auto reason = kind == "grid function" ? reserved_in_kernels(name)
                        : opencl_keyword(name)  ? std::optional<std::string>("an OpenCL C keyword")
                                                : std::nullopt;
    if (!reason) return false;
    sink.add(error_at(where, fmt::format("{} '{}' is {}: kernel {}'s code would declare it by its name and not "
                                         "compile; rename it",
                                         kind, name, *reason, kernel)));
    return true;
  }

  std::vector<variable_group_model> interpret_groups(const interface_file& file) {
    std::vector<variable_group_model> groups;
    std::set<std::string> seen;
    std::map<std::string, std::pair<std::string, source_location>> variable_places;  // lower name -> group, place
    for (const auto& g : file.groups) {
      variable_group_model m;
      m.name = g.name.text;
      if (const auto type = data_type_of(g.data_type)) {
        m.data_type = *type;
      } else {
        sink.add(error_at(g.where, fmt::format("unknown data type '{}'", g.data_type)));
      }
      m.access = g.access;
      m.vector_size = g.vector_size;
      m.options = g.options;
      m.description = g.description;
      m.where = g.name.where;
      // The parser accepts only GF, ARRAY and SCALAR (any case).
      if (const auto* type = find_key(g.options, "TYPE")) {
        m.group_type = enum_named<ccl::group_type>(group_type_names, to_upper(type->value.text)).value_or(m.group_type);
      }
      if (const auto* option = find_key(g.options, "CENTERING")) {
        if (m.group_type != ccl::group_type::gf) {
          sink.add(error_at(option->key.where, fmt::format("CENTERING applies to grid functions (TYPE=GF); group '{}' "
                                                           "is TYPE={}", m.name, name_of(m.group_type))));
        } else if (const auto c = centering_of(*option, sink)) {
          m.centering = *c;
        }
      }
      if (const auto* dim = find_key(g.options, "DIM")) {
        const auto& text = dim->value.text;
        if (!is_integer_literal(text)) {
          sink.add(error_at(dim->value.where, fmt::format("DIM must be an integer from 0 to 3, not '{}'", text)));
        } else if (const long long n = fits_cctk_int(text) ? std::stoll(text) : -1; n < 0 || n > 3) {
          sink.add(error_at(dim->value.where, fmt::format("DIM={} is out of range: a group has 0 to 3 dimensions", text)));
        } else {
          m.dim = std::stoi(text);
        }
      }
      if (const auto* levels = find_key(g.options, "TIMELEVELS")) {
        const auto& text = levels->value.text;
        // A parameter name is allowed, as in Cactus (the run keeps one level for it).
        if (!is_identifier(text) && !timelevel_count(text)) {
          sink.add(error_at(levels->value.where,
                            fmt::format("TIMELEVELS must be a whole number from 1 to {} (or a parameter name), not '{}'",
                                        max_timelevels, text)));
        } else {
          m.timelevels = text;
        }
      }
      if (const auto* ghosts = find_key(g.options, "GHOSTSIZE")) {
        // One width, or one per dimension "1,1,1"; each a number of points (a parameter name or an
        // expression is left to the run).
        std::size_t begin = 0;
        const auto& text = ghosts->value.text;
        while (begin <= text.size()) {
          const auto end = std::min(text.find(',', begin), text.size());
          const auto item = trim(text.substr(begin, end - begin));
          if (is_integer_literal(item) && (item.front() == '-' || !fits_cctk_int(item))) {
            auto where = ghosts->value.where;
            if (where.line != 0 && text.find('\n') == std::string::npos) where.column += begin;
            sink.add(error_at(where, fmt::format("GHOSTSIZE must be a number of points from 0 to 2147483647, not '{}'",
                                                 item)));
            break;
          }
          begin = end + 1;
        }
      }
      const auto add_variable = [&](const located_text& v) {
        refuse_reserved_name("grid function", v.text, v.where);
        m.variables.push_back(v.text);
        const auto [first, inserted] = variable_places.emplace(to_lower(v.text), std::make_pair(m.name, v.where));
        if (!inserted) {
          sink.add(error_at(v.where, fmt::format("grid function '{}' is declared twice: first in group '{}' at line {}",
                                                 v.text, first->second.first, first->second.second.line)));
        }
      };
      if (g.has_variable_list) {
        for (const auto& v : g.variables) add_variable(v);
      } else {
        add_variable(g.name);
      }
      if (!seen.insert(to_lower(m.name)).second) {
        sink.add(error_at(g.name.where, fmt::format("group '{}' is declared twice", m.name)));
      }
      refuse_reserved_name("group", m.name, g.name.where);
      groups.push_back(std::move(m));
    }
    return groups;
  }

  /// Defaults must fit their type: the bindings turn them into C++ literals. Ranges must be well
  /// formed and not empty, and a new parameter's default must lie in its own ranges.
  void check_defaults() {
    const auto& params = thorn.params.parameters;
    for (std::size_t i = 0; i < params.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (!iequals(params[i].name.text, params[j].name.text)) continue;
        sink.add(error_at(params[i].name.where, fmt::format("parameter '{}' is declared twice: first at line {}, "
                                                            "column {}", params[i].name.text,
                                                            params[j].name.where.line, params[j].name.where.column)));
        break;
      }
    }
    for (const auto& p : thorn.params.parameters) {
      refuse_reserved_name("parameter", p.name.text, p.name.where);
      const bool ranges_usable = check_ranges(p);
      if (!p.default_value) continue;
      const auto& value = *p.default_value;
      const auto type = to_upper(p.type);
      const auto errors_before = sink.size();
      if (type == "INT" && !is_integer_literal(value.text)) {
        sink.add(error_at(value.where, fmt::format("default of INT parameter '{}' must be an integer, not '{}'",
                                             p.name.text, value.text)));
      } else if (type == "REAL" && !is_real_literal(value.text)) {
        sink.add(error_at(value.where, fmt::format("default of REAL parameter '{}' must be a number, not '{}'",
                                             p.name.text, value.text)));
      } else if (type == "INT" && !fits_cctk_int(value.text)) {
        sink.add(error_at(value.where, fmt::format("default of INT parameter '{}' is out of range: CCTK_INT holds "
                                                   "-2147483648 to 2147483647, not {}", p.name.text, value.text)));
      } else if (type == "REAL" && !is_finite_real(value.text)) {
        sink.add(error_at(value.where, fmt::format("default of REAL parameter '{}' is out of range of a double: {}",
                                                   p.name.text, value.text)));
      } else if (type == "BOOLEAN" && !boolean_word(value.text)) {
        sink.add(error_at(value.where, fmt::format("default of BOOLEAN parameter '{}' must be yes, no, true, false, 1 "
                                             "or 0, not '{}'", p.name.text, value.text)));
      }
      // USES and EXTENDS take the owner's default; only a parameter's own one is checked.
      if (sink.size() == errors_before && ranges_usable && p.qualifier.empty()) check_default_in_ranges(p);
    }
  }

  /// Reports malformed, empty and badly stepped INT/REAL ranges; true when all are usable.
  bool check_ranges(const param_syntax& p) {
    const auto type = to_upper(p.type);
    if (type != "INT" && type != "REAL") return true;
    bool usable = true;
    for (const auto& r : p.ranges) {
      if (r.spec.empty()) continue;  // `:: "comment"` alone
      const auto range = parse_numeric_range(r.spec);
      if (!range) {
        sink.add(error_at(r.where, fmt::format("malformed {} range '{}'; expected *, N, lo:hi or lo:hi:step, "
                                               "each end optionally open '(' ')' or closed '[' ']'", type, r.spec)));
        usable = false;
        continue;
      }
      const auto where = fmt::format("range '{}' of {} parameter '{}'", r.spec, type, p.name.text);
      if (!range->step.empty()) {
        const auto step = numeric_value(range->step);
        if (!step || *step <= 0 || (type == "INT" && std::trunc(*step) != *step)) {
          sink.add(error_at(r.where, fmt::format("{} has step {}; a step must be a positive {}", where, range->step,
                                                 type == "INT" ? "integer" : "number")));
          usable = false;
          continue;
        }
      }
      if (range_is_empty(bounds_of(*range), type == "INT")) {
        const auto lower = numeric_value(range->lower), upper = numeric_value(range->upper);
        sink.add(error_at(r.where, lower && upper && *lower > *upper
                                       ? fmt::format("{} is empty: its lower end {} is above its upper end {}", where,
                                                     range->lower, range->upper)
                                       : fmt::format("{} is empty: no {} lies in it", where,
                                                     type == "INT" ? "integer" : "number")));
        usable = false;
      }
    }
    return usable;
  }

  /// The flesh checks a value set in a parameter file against the ranges; the default it never
  /// checks, so it is checked here (STRING patterns aside: they are regular expressions).
  void check_default_in_ranges(const param_syntax& p) {
    const auto type = to_upper(p.type);
    const auto& value = *p.default_value;
    std::vector<std::string> specs;
    bool inside = false;
    if (type == "INT" || type == "REAL") {
      const auto number = numeric_value(value.text);
      for (const auto& r : p.ranges) {
        if (r.spec.empty()) {
          inside = true;  // a comment alone allows anything, as in the flesh
          continue;
        }
        specs.push_back(r.spec);
        inside = inside || (number && range_contains(bounds_of(*parse_numeric_range(r.spec)), *number, type == "INT"));
      }
      if (!specs.empty() && !inside) {
        sink.add(error_at(value.where, fmt::format("default {} of {} parameter '{}' is outside every range: {}",
                                                   value.text, type, p.name.text, join_names(specs, "; "))));
      }
    } else if (type == "KEYWORD") {
      for (const auto& r : p.ranges) {
        for (const auto& w : r.words) {
          specs.push_back(w.text);
          inside = inside || iequals(w.text, value.text);
        }
      }
      if (!specs.empty() && !inside) {
        sink.add(error_at(value.where, fmt::format("default '{}' of KEYWORD parameter '{}' is not one of {}{}",
                                                   value.text, p.name.text, join_names(specs),
                                                   did_you_mean(value.text, specs))));
      }
    }
  }

  /// Why the file at `path` (relative to the thorn) cannot serve as a body, from its own entry in
  /// sources.unusable_files or that of a folder above it; nothing where it is not there.
  std::optional<std::string> why_unusable(const std::string& path) const {
    const auto& unusable = sources.unusable_files;
    if (const auto found = unusable.find(path); found != unusable.end()) return found->second;
    for (auto folder = std::filesystem::path(path).parent_path(); !folder.empty(); folder = folder.parent_path()) {
      if (const auto found = unusable.find(folder.generic_string()); found != unusable.end())
        return fmt::format("is in folder {}/{}, which {}", sources.dir, folder.generic_string(), found->second);
    }
    return std::nullopt;
  }

  /// "'b', which inherits 'c', which inherits 'a'" where `start`'s inheritance leads back to
  /// implementation `own` (`start` implements b), else empty.
  static std::string inheritance_path_back(const interface_file& start, const std::vector<const interface_file*>& all,
                                           const std::string& own) {
    std::vector<const interface_file*> path{&start};
    std::set<std::string> visited{to_lower(start.implements.text)};
    // Depth first, the path kept: each step one of the last one's inherited implementations.
    std::vector<std::size_t> next{0};
    while (!path.empty()) {
      const auto& inherits = path.back()->inherits;
      if (next.back() == inherits.size()) {
        path.pop_back();
        next.pop_back();
        continue;
      }
      const auto& name = inherits[next.back()++].text;
      if (iequals(name, own)) {
        std::string text;
        for (const auto* step : path) {
          text += fmt::format("{}'{}'", text.empty() ? "" : ", which inherits ", step->implements.text);
        }
        return fmt::format("{}, which inherits '{}'", text, name);
      }
      if (!visited.insert(to_lower(name)).second) continue;
      const auto found = std::find_if(all.begin(), all.end(),
                                      [&](const interface_file* i) { return iequals(i->implements.text, name); });
      if (found == all.end()) continue;
      path.push_back(*found);
      next.push_back(0);
    }
    return {};
  }

  void add_inherited() {
    if (thorn.interface_syntax.inherits.empty()) return;
    // Every other thorn's interface that parses: one that does not provides nothing.
    std::vector<const interface_file*> interfaces;
    std::vector<std::string> known;
    for (std::size_t i = 0; i < others.size(); ++i) {
      if (const auto* other = interface_of_other(i)) {
        interfaces.push_back(other);
        known.push_back(other->implements.text);
      }
    }
    const auto& own = thorn.interface_syntax.implements.text;
    for (const auto& name : thorn.interface_syntax.inherits) {
      if (iequals(name.text, own)) {
        sink.add(error_at(name.where, fmt::format("the thorn inherits '{}', its own implementation", name.text)));
        continue;
      }
      const auto other = std::find_if(interfaces.begin(), interfaces.end(),
                                      [&](const interface_file* i) { return iequals(i->implements.text, name.text); });
      // Implementations that inherit each other, directly or through others: no order of the
      // thorns is right.
      if (other != interfaces.end()) {
        if (const auto cycle = inheritance_path_back(**other, interfaces, own); !cycle.empty()) {
          sink.add(error_at(name.where, fmt::format("inheritance cycle: this thorn inherits {}, this thorn's "
                                                    "implementation",
                                                    cycle)));
          continue;
        }
      }
      if (other == interfaces.end()) {
        std::vector<std::string> unread;
        for (const auto& [folder, why] : unread_others) unread.push_back(fmt::format("{} ({})", folder, why));
        sink.add(error_at(name.where, fmt::format("unknown implementation '{}' in inherits{}{}", name.text,
                                                  did_you_mean(name.text, known),
                                                  unread.empty() ? std::string()
                                                                 : "; it may be in a thorn folder that could not be "
                                                                   "read: " + join_names(unread))));
        continue;
      }
      auto& model = inherited.emplace_back();
      model.interface_syntax = **other;
      model.implementation = model.interface_syntax.implements.text;
      model.groups = interpret_groups(model.interface_syntax);
    }
    for (const auto& model : inherited) {
      for (const auto& g : model.groups) {
        if (g.access == access_level::private_access) continue;  // inheritance sees public and protected
        for (const auto& v : g.variables) variables.emplace(v, visible_variable{&g, model.implementation});
      }
    }
  }

  void check_kernel(const kernel_descriptor_syntax& k) {
    const auto errors_before = sink.size();
    kernel_model kernel;
    kernel.name = k.name.text;
    kernel.where = k.name.where;
    kernel.description = k.description;
    kernel.code_path = "src/" + kernel.name + ".kernel";
    // In any case: the schedule names its launches so, and their files would be one on a file
    // system that ignores case.
    if (const auto first = std::find_if(thorn.kernels.begin(), thorn.kernels.end(),
                                        [&](const kernel_model& o) { return iequals(o.name, k.name.text); });
        first != thorn.kernels.end()) {
      sink.add(error_at(k.name.where,
                        first->name == k.name.text
                            ? fmt::format("kernel '{}' is declared twice: first at line {}", k.name.text,
                                          first->where.line)
                            : fmt::format("kernel '{}' is declared twice: as '{}' at line {} (names ignore case)",
                                          k.name.text, first->name, first->where.line)));
    }
    bool has_type = false;
    bool code_bad = false;  // CODE holds what no path may: reported, and no body looked for
    source_location code_where = k.name.where;
    for (const auto& kv : k.keys) {
      const auto key = to_upper(kv.key.text);
      if (key == "TYPE" && kv.value.text.find_first_not_of(type_characters) != std::string::npos) {
        const auto bad = kv.value.text.find_first_not_of(type_characters);
        sink.add(error_at(kv.value.where, fmt::format("TYPE may not hold {} (character {}): a TYPE is names, '*', "
                                                      "'/' and '|', as in TYPE=\"*/3dblock|3dstencil\"",
                                                      shown_character(kv.value.text[bad]), bad + 1)));
        has_type = true;  // reported already
      } else if (key == "TYPE") {
        kernel.type_pattern = kv.value.text;
        kernel.type_where = kv.value.where;
        has_type = !kv.value.text.empty();
      } else if (key == "STENCIL" || key == "EXTERIOR") {
        if (const auto widths = face_widths(kv.value.text)) {
          (key == "STENCIL" ? kernel.stencil : kernel.exterior) = *widths;
        } else {
          sink.add(error_at(kv.value.where, fmt::format("{} must be 1 or 6 non-negative integers "
                                                        "(\"xn,xp,yn,yp,zn,zp\", at most 64), not \"{}\"",
                                                        key, kv.value.text)));
        }
      } else if (key == "TILE") {
        const auto values = integer_list(kv.value.text);
        if (!values || values->size() != 3 ||
            std::any_of(values->begin(), values->end(), [](long long v) { return v <= 0 || v > 4096; })) {
          sink.add(error_at(kv.value.where, fmt::format("TILE must be 3 positive integers (\"x,y,z\", at most 4096), "
                                                  "not \"{}\"", kv.value.text)));
        } else {
          for (std::size_t i = 0; i < 3; ++i) kernel.tile[i] = static_cast<int>((*values)[i]);
        }
      } else if (key == "SHARECODE") {
        const auto flag = boolean_word(kv.value.text);
        if (!flag) {
          sink.add(error_at(kv.value.where, fmt::format("SHARECODE must be yes or no, not '{}'", kv.value.text)));
        } else {
          kernel.share_code = *flag;
        }
      } else if (key == "CODE" && (kv.value.text.empty() || std::any_of(kv.value.text.begin(), kv.value.text.end(), [](char c) {
                   return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
                 }))) {
        const auto bad = std::find_if(kv.value.text.begin(), kv.value.text.end(), [](char c) {
          return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        });
        sink.add(error_at(kv.value.where,
                          kv.value.text.empty()
                              ? std::string("CODE must name the body file, a path relative to the thorn")
                              : fmt::format("CODE is a path relative to the thorn, which may not hold {}",
                                            shown_character(*bad))));
        code_bad = true;
      } else if (key == "CODE") {
        // As the build's include path sees it: relative to the thorn, `./` and `a/../` folded.
        kernel.code_path = std::filesystem::path(kv.value.text).lexically_normal().generic_string();
        code_where = kv.value.where;
      } else {
        sink.add(error_at(kv.key.where, fmt::format("unknown kernel key '{}'{}; known keys: {}", kv.key.text,
                                              did_you_mean(kv.key.text, known_kernel_keys),
                                              join_names(known_kernel_keys))));
      }
    }
    if (!has_type) {
      sink.add(error_at(k.name.where, fmt::format("kernel '{}' has no TYPE (for example TYPE=*/3dblock)", kernel.name)));
    }
    // Every backend compiles the body, so a missing one is an error now, not at compile time.
    const auto& present = sources.present_files;
    if (code_bad) {
    } else if (const auto why = why_unusable(kernel.code_path)) {
      sink.add(error_at(code_where, fmt::format("the body of kernel '{}', '{}', {}", kernel.name, kernel.code_path, *why)));
    } else if (std::find(present.begin(), present.end(), kernel.code_path) == present.end()) {
      sink.add(error_at(code_where, missing_body_message(kernel, sources)));
    } else if (const auto text = sources.file_texts.find(kernel.code_path); text != sources.file_texts.end()) {
      kernel.code_text = text->second;
    } else {
      sink.add(error_at(code_where, fmt::format("the body of kernel '{}', '{}', is larger than {} bytes", kernel.name,
                                                kernel.code_path, thorn_sources::max_embedded_file_size)));
    }
    kernel.code_file = sources.dir + "/" + kernel.code_path;
    for (const auto& list : k.variables) check_variables(list, kernel);
    for (const auto& list : k.parameters) check_parameters(list, kernel);
    // The body is read against a descriptor without errors: one of those explains the rest.
    if (sink.size() == errors_before) check_body(k, kernel);
    thorn.kernels.push_back(std::move(kernel));
  }

  void check_variables(const kernel_name_list& list, kernel_model& kernel) {
    bool cached = false;
    kernel_intent intent = kernel_intent::in;
    for (const auto& kv : list.keys) {
      const auto key = to_lower(kv.key.text);
      const auto value = to_lower(kv.value.text);
      if (key == "cached") {
        const auto flag = boolean_word(value);
        if (!flag) {
          sink.add(error_at(kv.value.where, fmt::format("cached must be yes or no, not '{}'", kv.value.text)));
        } else {
          cached = *flag;
        }
      } else if (key == "intent") {
        if (const auto named = intent_named(value)) {
          intent = *named;
        } else {
          sink.add(error_at(kv.value.where, fmt::format("unknown intent '{}'{}; known intents: {}", kv.value.text,
                                                  did_you_mean(kv.value.text, known_intents),
                                                  join_names(known_intents))));
        }
      } else {
        sink.add(error_at(kv.key.where, fmt::format("unknown variable key '{}'{}; known keys: {}", kv.key.text,
                                              did_you_mean(kv.key.text, known_variable_keys),
                                              join_names(known_variable_keys))));
      }
    }
    for (const auto& name : list.names) {
      const auto [found, level] = grid_function_named(name.text);
      // the name the kernel declares, and a past level's grid function (which it declares too)
      if (found != variables.end() && (refuse_in_kernel("grid function", name.text, kernel.name, name.where) ||
                                       (found->first != name.text &&
                                        refuse_in_kernel("grid function", found->first, kernel.name, name.where)))) {
        continue;
      }
      if (found == variables.end()) {
        std::vector<std::string> known;
        for (const auto& [v, _] : variables) known.push_back(v);
        sink.add(error_at(name.where, fmt::format("unknown grid function '{}' in kernel '{}'{}", name.text, kernel.name,
                                            did_you_mean(name.text, known))));
        continue;
      }
      const auto& group = *found->second.group;
      if (group.group_type != ccl::group_type::gf) {
        sink.add(error_at(name.where, fmt::format("'{}' belongs to group '{}' of TYPE={}; kernels take grid functions "
                                            "(TYPE=GF)", name.text, group.name, name_of(group.group_type))));
        continue;
      }
      if (std::any_of(kernel.variables.begin(), kernel.variables.end(), [&](const kernel_variable& v) { return v.name == name.text; })) {
        sink.add(error_at(name.where, fmt::format("variable '{}' is listed twice in kernel '{}'", name.text, kernel.name)));
        continue;
      }
      const int group_levels = timelevel_count(group.timelevels).value_or(1);
      if (level > 0 && level >= group_levels) {
        sink.add(error_at(name.where, fmt::format("'{}' is time level {} of '{}', but group '{}' has TIMELEVELS={}",
                                                  name.text, level, found->first, group.name, group_levels)));
        continue;
      }
      if (intent == kernel_intent::separateinout) {
        // The body writes the second buffer as `<v>_out`: a grid function of that name would be
        // declared twice in the generated code.
        const auto clash = variables.find(name.text + "_out");
        if (clash != variables.end()) {
          const auto& other = *clash->second.group;
          sink.add(error_at(name.where, fmt::format("'{}' is intent=separateinout, whose second buffer the body writes "
                                                    "as '{}_out', but grid function '{}_out' of group '{}' ({}) has "
                                                    "that name: rename the grid function, or give '{}' another intent",
                                                    name.text, name.text, name.text, other.name, place(other.where),
                                                    name.text)));
          continue;
        }
      }
      if (level > 0 && intent != kernel_intent::in) {
        sink.add(error_at(name.where, fmt::format("'{}' is a past time level of '{}': kernels only read it "
                                                  "(intent=in), not intent={}", name.text, found->first, name_of(intent))));
        continue;
      }
      kernel_variable v;
      v.name = name.text;
      v.grid_function = found->first;
      v.timelevel = level;
      v.group = group.name;
      v.implementation = found->second.implementation;
      v.data_type = group.data_type;
      v.centering = group.centering;
      v.timelevels = group_levels;
      v.cached = cached;
      v.intent = intent;
      v.description = list.description;
      v.where = name.where;
      kernel.variables.push_back(std::move(v));
    }
  }

  /// Each name is a parameter of param.ccl (INT, REAL or BOOLEAN) or a grid scalar the thorn
  /// sees as kernel variables resolve (CCTK_INT or CCTK_REAL), never both.
  void check_parameters(const kernel_name_list& list, kernel_model& kernel) {
    for (const auto& kv : list.keys) {
      sink.add(error_at(kv.key.where, fmt::format("unknown parameter key '{}'; CCTK_KERNEL_PARAMETER takes no keys",
                                            kv.key.text)));
    }
    const auto& params = thorn.params.parameters;
    for (const auto& name : list.names) {
      const auto parameter_named = [&](std::string cactus_type, std::string c_type) {
        kernel_parameter p;
        p.name = name.text;
        p.cactus_type = std::move(cactus_type);
        p.c_type = std::move(c_type);
        p.description = list.description;
        p.where = name.where;
        return p;
      };
      if (refuse_in_kernel("parameter", name.text, kernel.name, name.where)) continue;
      const auto found = std::find_if(params.begin(), params.end(), [&](const param_syntax& p) { return p.name.text == name.text; });
      const auto variable = variables.find(name.text);
      const bool is_scalar = variable != variables.end() && variable->second.group->group_type == ccl::group_type::scalar;
      if (std::any_of(kernel.parameters.begin(), kernel.parameters.end(), [&](const kernel_parameter& p) { return p.name == name.text; })) {
        sink.add(error_at(name.where, fmt::format("parameter '{}' is listed twice in kernel '{}'", name.text, kernel.name)));
        continue;
      }
      if (found != params.end() && is_scalar) {
        sink.add(error_at(name.where, fmt::format("'{}' in kernel '{}' is both a parameter of param.ccl and the grid "
                                                  "scalar {}::{} (group '{}'): rename one of them",
                                                  name.text, kernel.name, variable->second.implementation, name.text,
                                                  variable->second.group->name)));
        continue;
      }
      if (found != params.end()) {
        const auto type = to_upper(found->type);
        if (type != "INT" && type != "REAL" && type != "BOOLEAN") {
          sink.add(error_at(name.where, fmt::format("parameter '{}' is a {}; kernels take INT, REAL or BOOLEAN parameters",
                                              name.text, type)));
          continue;
        }
        if (!found->array_size.empty()) {
          sink.add(error_at(name.where, fmt::format("parameter '{}' is an array ({}[{}], {}); kernels take single INT, "
                                                    "REAL or BOOLEAN parameters", name.text, found->name.text,
                                                    found->array_size, place(found->name.where))));
          continue;
        }
        kernel.parameters.push_back(parameter_named(type, type == "REAL" ? "CCTK_REAL" : "CCTK_INT"));
        continue;
      }
      if (variable == variables.end()) {
        std::vector<std::string> known;
        for (const auto& p : params) known.push_back(p.name.text);
        for (const auto& [v, visible] : variables) {
          if (visible.group->group_type == ccl::group_type::scalar) known.push_back(v);
        }
        sink.add(error_at(name.where, fmt::format("unknown parameter '{}' in kernel '{}': it is neither declared in "
                                                  "param.ccl nor a grid scalar (TYPE=SCALAR) the thorn sees{}",
                                                  name.text, kernel.name, did_you_mean(name.text, known))));
        continue;
      }
      const auto& group = *variable->second.group;
      if (!is_scalar) {
        sink.add(error_at(name.where, fmt::format("'{}' belongs to group '{}' of TYPE={}; CCTK_KERNEL_PARAMETER takes "
                                                  "parameters and grid scalars (TYPE=SCALAR){}", name.text, group.name,
                                                  name_of(group.group_type),
                                                  group.group_type == ccl::group_type::gf
                                                      ? "; a grid function goes under CCTK_KERNEL_VARIABLE"
                                                      : "")));
        continue;
      }
      if (group.data_type != ccl::data_type::cctk_int && group.data_type != ccl::data_type::cctk_real) {
        sink.add(error_at(name.where, fmt::format("grid scalar '{}' of group '{}' is {}; kernels take CCTK_INT or "
                                                  "CCTK_REAL scalars", name.text, group.name, name_of(group.data_type))));
        continue;
      }
      const bool real = group.data_type == ccl::data_type::cctk_real;
      auto p = parameter_named(real ? "REAL" : "INT", std::string(name_of(group.data_type)));
      p.source = "scalar";
      p.scalar_name = variable->second.implementation + "::" + name.text;
      p.scalar_index = static_cast<int>(std::count_if(kernel.parameters.begin(), kernel.parameters.end(),
                                                      [](const kernel_parameter& q) { return q.source == "scalar"; }));
      kernel.parameters.push_back(std::move(p));
    }
  }
};

}  // namespace

thorn_model check_thorn(const thorn_sources& sources, const std::vector<thorn_sources>& others,
                        const std::vector<std::pair<std::string, std::string>>& unread_others) {
  checker c{sources, others, unread_others, {}, {}, {}, {}, {}, {}};
  c.check();
  return std::move(c.thorn);
}

}  // namespace opuntia::gen
