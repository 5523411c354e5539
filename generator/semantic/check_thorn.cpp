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
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {
namespace {

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

struct visible_variable {
  const variable_group_model* group;
  std::string implementation;
};

struct checker {
  const thorn_sources& sources;
  const std::vector<thorn_sources>& others;
  diagnostic_sink sink;
  thorn_model thorn;
  std::map<std::string, visible_variable> variables;  // name -> group declaring it
  std::vector<thorn_model> inherited;                 // keeps the groups `variables` points into

  void check() {
    thorn.name = sources.name;
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
    sink.throw_if_any();
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
    // The intent the body's uses ask for: written and read, inout; a past time level, in.
    bool reads = false, writes = false;
    for (const auto& a : accesses) {
      if (a.variable() != name) continue;
      writes = writes || a.writes;
      reads = reads || a.reads;
    }
    const auto wanted = level > 0 || !writes ? kernel_intent::in : reads ? kernel_intent::inout : kernel_intent::out;
    for (const auto& list : k.variables) {
      if (intent_of(list) != wanted) continue;
      return fmt::format("grid function '{}' is not a variable of kernel '{}': add it to the kernel's "
                         "CCTK_KERNEL_VARIABLE list with intent={} at {}",
                         name, kernel.name, name_of(wanted), place(list.where));
    }
    return fmt::format("grid function '{}' is not a variable of kernel '{}': add CCTK_KERNEL_VARIABLE intent={} {{ {} }} "
                       "to the kernel at {}",
                       name, kernel.name, name_of(wanted), name, place(kernel.where));
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

  std::vector<variable_group_model> interpret_groups(const interface_file& file) {
    std::vector<variable_group_model> groups;
    std::set<std::string> seen;
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
        if (!is_integer_literal(dim->value.text) || dim->value.text.size() > 2 || std::stoi(dim->value.text) < 0) {
          sink.add(error_at(dim->value.where, fmt::format("DIM must be a non-negative integer, not '{}'", dim->value.text)));
        } else {
          m.dim = std::stoi(dim->value.text);
        }
      }
      if (const auto* levels = find_key(g.options, "TIMELEVELS")) m.timelevels = levels->value.text;
      if (g.has_variable_list) {
        for (const auto& v : g.variables) m.variables.push_back(v.text);
      } else {
        m.variables.push_back(g.name.text);
      }
      if (!seen.insert(to_lower(m.name)).second) {
        sink.add(error_at(g.name.where, fmt::format("group '{}' is declared twice", m.name)));
      }
      groups.push_back(std::move(m));
    }
    return groups;
  }

  /// Defaults must fit their type: the bindings turn them into C++ literals. Ranges must be well
  /// formed and not empty, and a new parameter's default must lie in its own ranges.
  void check_defaults() {
    for (const auto& p : thorn.params.parameters) {
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

  void add_inherited() {
    if (thorn.interface_syntax.inherits.empty()) return;
    // Every other thorn's interface, parsed once; one that does not parse provides nothing
    // (its own errors are reported when that thorn is generated).
    std::vector<interface_file> interfaces;
    std::vector<std::string> known;
    for (const auto& o : others) {
      try {
        interfaces.push_back(parse_interface_ccl(o.interface_ccl));
        known.push_back(interfaces.back().implements.text);
      } catch (const input_error&) {
      }
    }
    for (const auto& name : thorn.interface_syntax.inherits) {
      const auto other = std::find_if(interfaces.begin(), interfaces.end(),
                                      [&](const interface_file& i) { return iequals(i.implements.text, name.text); });
      if (other == interfaces.end()) {
        sink.add(error_at(name.where, fmt::format("unknown implementation '{}' in inherits{}", name.text,
                                            did_you_mean(name.text, known))));
        continue;
      }
      auto& model = inherited.emplace_back();
      model.interface_syntax = *other;
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
    if (std::any_of(thorn.kernels.begin(), thorn.kernels.end(), [&](const kernel_model& o) { return o.name == k.name.text; })) {
      sink.add(error_at(k.name.where, fmt::format("kernel '{}' is declared twice", k.name.text)));
    }
    bool has_type = false;
    source_location code_where = k.name.where;
    for (const auto& kv : k.keys) {
      const auto key = to_upper(kv.key.text);
      if (key == "TYPE") {
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
    if (std::find(present.begin(), present.end(), kernel.code_path) == present.end()) {
      const bool outside = kernel.code_path.rfind("..", 0) == 0 || std::filesystem::path(kernel.code_path).is_absolute();
      sink.add(error_at(code_where, outside ? fmt::format("the body of kernel '{}', '{}', is outside thorn {}: a body "
                                                          "lives in its thorn", kernel.name, kernel.code_path, sources.dir)
                                            : fmt::format("the body of kernel '{}', '{}', is not in {} (write it there, "
                                                          "or name another file with CODE=\"...\")",
                                                          kernel.name, kernel.code_path, sources.dir)));
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
      const int group_levels =
          is_integer_literal(group.timelevels) && group.timelevels.size() < 3 ? std::stoi(group.timelevels) : 1;
      if (level > 0 && level >= group_levels) {
        sink.add(error_at(name.where, fmt::format("'{}' is time level {} of '{}', but group '{}' has TIMELEVELS={}",
                                                  name.text, level, found->first, group.name, group_levels)));
        continue;
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

thorn_model check_thorn(const thorn_sources& sources, const std::vector<thorn_sources>& others) {
  checker c{sources, others, {}, {}, {}, {}};
  c.check();
  return std::move(c.thorn);
}

}  // namespace opuntia::gen
