// Walks the deps.ccl hierarchy for each kernel and renders the templates it reaches:
// `scope=file` templates once per kernel, `scope=group` templates once per thorn over the
// union of the variables of the kernels that reach them.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "generator/emit/emit.hpp"
#include "ccl/parse.hpp"
#include "generator/template_engine.hpp"

namespace opuntia::gen {
namespace {

/// `openmp/3dblock.h.tpl` -> `.h`; `cacuda.3dblock-template.cu` -> `.cu`; `code` -> ``.
std::string output_extension(const std::string& template_file) {
  std::string base = template_file.substr(template_file.find_last_of('/') + 1);
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".tpl") == 0) base.resize(base.size() - 4);
  const auto dot = base.find_last_of('.');
  return dot == std::string::npos ? std::string() : base.substr(dot);
}

std::string yes_no(bool b) { return b ? "yes" : "no"; }

/// `text` as a C and C++ string literal, one quoted line per line of text, so that no content
/// (quotes, backslashes, a raw string's delimiter) can end it early.
std::string string_literal(const std::string& text) {
  if (text.empty()) return "\"\"";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\r': out += "\\r"; break;
      case '\t': out += '\t'; break;
      case '\n': out += i + 1 < text.size() ? "\\n\"\n\"" : "\\n"; break;
      default:
        out += c < 0x20 || c == 0x7f ? fmt::format("\\{:03o}", c) : std::string(1, static_cast<char>(c));
    }
  }
  return out + "\"";
}

/// `vcc`: the centering letters of x, y and z.
std::string centering_letters_of(const centerings& c) {
  return std::string(name_of(c[0])) + std::string(name_of(c[1])) + std::string(name_of(c[2]));
}

/// A centering offset as a C literal: `0.0` or `0.5`.
std::string offset_literal(centering c) { return fmt::format("{:.1f}", centering_offset(c)); }

template_scope variable_scope(const kernel_variable& v) {
  template_scope s;
  s.values = {{"vname", escape_template_text(v.name)},
              {"vname_upper", escape_template_text(to_upper(v.name))},
              {"vtype", std::string(name_of(v.data_type))},
              {"group", escape_template_text(v.group)},
              {"intent", std::string(name_of(v.intent))},
              {"centering", centering_letters_of(v.centering)},
              {"xoffset", offset_literal(v.centering[0])},
              {"yoffset", offset_literal(v.centering[1])},
              {"zoffset", offset_literal(v.centering[2])},
              {"cached", yes_no(v.cached)},
              {"written_at_centre", yes_no(v.written_at_centre)},
              {"timelevels", std::to_string(v.timelevels)},
              {"description", escape_template_text(v.description)}};
  return s;
}

template_scope parameter_scope(const kernel_parameter& p) {
  template_scope s;
  s.values = {{"pname", escape_template_text(p.name)},
              {"ptype", escape_template_text(p.c_type)},
              {"cactus_type", escape_template_text(p.cactus_type)},
              {"source", p.source},
              {"scalar_name", escape_template_text(p.scalar_name)},
              {"scalar_index", p.scalar_index < 0 ? std::string() : std::to_string(p.scalar_index)},
              {"description", escape_template_text(p.description)}};
  return s;
}

const std::vector<std::string> variable_keys{"vname",      "vname_upper", "vtype",  "group",
                                            "intent",     "centering",   "cached", "written_at_centre",
                                            "timelevels", "vindex",      "vout_index"};
const std::vector<std::string> parameter_keys{"pname", "ptype", "cactus_type", "source"};

template <std::size_t N>
std::vector<std::string> names_of(const std::array<std::string_view, N>& names) {
  return {names.begin(), names.end()};
}

/// The values a filter may name, for the keys with a closed set of them (the others are names).
std::map<std::string, std::vector<std::string>> variable_filter_values() {
  std::vector<std::string> centerings;
  for (const char* x : {"v", "c"}) {
    for (const char* y : {"v", "c"}) {
      for (const char* z : {"v", "c"}) centerings.push_back(std::string(x) + y + z);
    }
  }
  return {{"intent", names_of(kernel_intent_names)},
          {"cached", {"yes", "no"}},
          {"written_at_centre", {"yes", "no"}},
          {"vtype", names_of(data_type_names)},
          {"centering", centerings}};
}

const std::map<std::string, std::vector<std::string>> parameter_filter_values{
    {"ptype", {"CCTK_INT", "CCTK_REAL"}}, {"cactus_type", {"INT", "REAL", "BOOLEAN"}}, {"source", {"parameter", "scalar"}}};

/// `vindex`: the variable's place in kernel_call::arrays; `vout_index`: that of its second buffer
/// (separateinout only: they follow all variables, in the same order).
template_loop variable_loop(const std::vector<kernel_variable>& variables) {
  template_loop loop{variable_keys, {}, variable_filter_values()};
  std::size_t next_out = variables.size();
  for (std::size_t i = 0; i < variables.size(); ++i) {
    auto scope = variable_scope(variables[i]);
    scope.values["vindex"] = std::to_string(i);
    scope.values["vout_index"] =
        variables[i].intent == kernel_intent::separateinout ? std::to_string(next_out++) : std::string();
    loop.items.push_back(std::move(scope));
  }
  return loop;
}

template_loop parameter_loop(const std::vector<kernel_parameter>& parameters) {
  template_loop loop{parameter_keys, {}, parameter_filter_values};
  for (const auto& p : parameters) loop.items.push_back(parameter_scope(p));
  return loop;
}

void add_thorn_values(template_scope& s, const thorn_model& thorn, const std::string& backend) {
  s.values["thorn"] = escape_template_text(thorn.name);
  s.values["thorn_upper"] = escape_template_text(to_upper(thorn.name));
  s.values["implementation"] = escape_template_text(thorn.implementation);
  s.values["backend"] = escape_template_text(backend);
}

template_scope kernel_scope(const thorn_model& thorn, const kernel_model& k, const std::string& backend,
                            const std::string& variant) {
  template_scope s;
  add_thorn_values(s, thorn, backend);
  static const char* sides[] = {"xn", "xp", "yn", "yp", "zn", "zp"};
  static const char* axes[] = {"x", "y", "z"};
  s.values["name"] = escape_template_text(k.name);
  s.values["name_upper"] = escape_template_text(to_upper(k.name));
  s.values["variant"] = escape_template_text(variant);
  s.values["variant_upper"] = escape_template_text(to_upper(variant));
  s.values["type"] = escape_template_text(k.type_pattern);
  s.values["code"] = escape_template_text(k.code_path);
  s.values["code_file"] = escape_template_text(k.code_file);
  s.values["code_text"] = escape_template_text(k.code_text);
  s.values["code_literal"] = escape_template_text(string_literal(k.code_text));
  s.values["share_code"] = yes_no(k.share_code);
  s.values["description"] = escape_template_text(k.description);
  int widest = 0;
  for (int i = 0; i < 6; ++i) {
    s.values[std::string("stencil_") + sides[i]] = std::to_string(k.stencil[i]);
    s.values[std::string("exterior_") + sides[i]] = std::to_string(k.exterior[i]);
    widest = std::max(widest, k.stencil[i]);
  }
  s.values["stencil_max"] = std::to_string(widest);
  // A boundary kernel's faces may run in one launch, in any order (opuntia::for_each_boundary_pass),
  // where a point's new values depend on nothing the kernel writes: it reads no neighbour (a
  // STENCIL of 0) and updates no variable in place (an intent=inout one may read what an earlier
  // face wrote at its point: an edge would be updated twice one after the other).
  const bool updates_in_place = std::any_of(k.variables.begin(), k.variables.end(),
                                            [](const auto& v) { return v.intent == kernel_intent::inout; });
  s.values["faces_in_any_order"] = widest == 0 && !updates_in_place ? "true" : "false";
  s.values["off_axis_zn"] = std::to_string(k.off_axis_zn);
  for (int i = 0; i < 3; ++i) s.values[std::string("tile_") + axes[i]] = std::to_string(k.tile[i]);
  s.loops["var_loop"] = variable_loop(k.variables);
  s.loops["param_loop"] = parameter_loop(k.parameters);
  return s;
}

/// The variables of several kernels, each once: intents merge (in + out = inout), cached if any is.
std::vector<kernel_variable> union_of_variables(const std::vector<const kernel_model*>& kernels) {
  std::vector<kernel_variable> out;
  for (const auto* k : kernels) {
    for (const auto& v : k->variables) {
      auto found = std::find_if(out.begin(), out.end(), [&](const auto& o) { return o.name == v.name; });
      if (found == out.end()) {
        out.push_back(v);
        continue;
      }
      found->cached = found->cached || v.cached;
      // Kept in a register only where every kernel, reading it or writing it, reaches it at its point alone.
      found->written_at_centre = found->written_at_centre && v.written_at_centre;
      if (found->intent != v.intent) {
        found->intent = (found->intent == kernel_intent::separateinout || v.intent == kernel_intent::separateinout)
                            ? kernel_intent::separateinout
                            : kernel_intent::inout;
      }
    }
  }
  return out;
}

std::vector<kernel_parameter> union_of_parameters(const std::vector<const kernel_model*>& kernels) {
  std::vector<kernel_parameter> out;
  for (const auto* k : kernels) {
    for (const auto& p : k->parameters) {
      if (std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.name == p.name; })) out.push_back(p);
    }
  }
  return out;
}

struct walker {
  const thorn_model& thorn;
  const template_tree& tree;
  const std::map<std::string, source_file>& templates;
  bool check_link_contract;
  kernel_outputs out;
  diagnostic_sink sink;
  std::map<std::string, const template_node*> generated_by;  // output path -> the template rendered into it

  std::string output_name(const template_node& t, const std::string& owner) const {
    return fmt::format("{}/{}/{}_{}{}", thorn.name, t.backend(), owner, t.stem, output_extension(t.file));
  }

  void add_includes(template_scope& scope, const template_node& t, const std::string& owner) const {
    template_loop loop{{"include_file"}, {}};
    for (const auto i : t.includes) {
      template_scope item;
      // A thorn-wide (scope=group) output is named after the thorn, whoever includes it.
      const bool thorn_wide = tree.templates[i].scope == template_scope_kind::group;
      const auto full = output_name(tree.templates[i], thorn_wide ? thorn.name : owner);
      item.values["include_file"] = escape_template_text(full.substr(full.find_last_of('/') + 1));
      loop.items.push_back(std::move(item));
    }
    scope.loops["include_loop"] = std::move(loop);
    const auto own = output_name(t, owner);
    scope.values["file_name"] = escape_template_text(own.substr(own.find_last_of('/') + 1));
  }

  void render(const template_node& t, const template_scope& scope, const std::string& owner) {
    const std::string kernel = t.scope == template_scope_kind::file ? owner : std::string();
    const auto found = templates.find(t.file);
    if (found == templates.end()) {
      sink.add(missing_file(t));
      return;
    }
    // An empty template file generates an empty output, and the compiler then blames the
    // kernel's body (its frame macros undefined): most often a file truncated or not yet written.
    if (found->second.text.find_first_not_of(" \t\r\n") == std::string::npos) {
      sink.add(error_at(t.file_as_written.where.line != 0 ? t.file_as_written.where : t.where,
                        fmt::format("template file '{}' of template '{}' is empty: it would generate an empty {}",
                                    t.file, t.name, output_name(t, owner))));
      return;
    }
    // Output names drop a template's $suffix: `3dblock` and `3dblock$x` with files of one
    // extension, reached for one kernel, would write the same file, the second silently.
    const auto path = output_name(t, owner);
    if (const auto [earlier, first] = generated_by.emplace(path, &t); !first) {
      sink.add(error_at(t.where, fmt::format("template '{}' generates {}, as template '{}' (line {}) does (an "
                                             "output is named after its kernel or thorn, the template less its "
                                             "$suffix and the file's extension): rename one of them or give its "
                                             "file another extension",
                                             t.name, path, earlier->second->name, earlier->second->where.line)));
      return;
    }
    try {
      out.files.push_back(generated_file{path, render_template(found->second, scope), t.replace, t.compile, kernel});
    } catch (const input_error& e) {
      for (const auto& d : e.diagnostics()) sink.add(d);
    }
    add_schedules(t, scope);
  }

  /// An error at the `file=` value of a template whose file is not among the templates, with the
  /// nearest names of the files in the folder it names, written as the value would be.
  diagnostic missing_file(const template_node& t) const {
    const auto slash = t.file.find_last_of('/');
    const std::string folder = slash == std::string::npos ? std::string() : t.file.substr(0, slash + 1);
    const std::string& written = t.file_as_written.text;
    const auto written_slash = written.find_last_of('/');
    const std::string written_folder = written_slash == std::string::npos ? std::string() : written.substr(0, written_slash + 1);
    std::vector<std::string> files;  // of that folder, as file= would name them
    for (const auto& [path, _] : templates) {
      if (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
          path.find('/', folder.size()) == std::string::npos) {
        files.push_back(written_folder + path.substr(folder.size()));
      }
    }
    const bool placed = t.file_as_written.where.line != 0;
    const auto message =
        fmt::format("template file '{}' of template '{}' not found{}", t.file, t.name,
                    files.empty() ? fmt::format("; folder '{}' holds no template files", folder.empty() ? "." : folder)
                                  : did_you_mean_or_known(written, files));
    return error_at(placed ? t.file_as_written.where : t.where, message);
  }

  /// A template's `schedule { "..." }` strings are schedule.ccl text: rendered with the same
  /// scope (so `%{name}` works), then parsed. Each text is a source_file that knows where its
  /// bytes were written in deps.ccl (through the string's escapes and, once rendered, through
  /// the rendering, a byte a directive produced at that directive's '%'), so that every place
  /// the renderer and the parser give, of an error or of a statement, is one in deps.ccl.
  void add_schedules(const template_node& t, const template_scope& scope) {
    for (const auto& s : t.schedules) {
      const auto written = [&](std::size_t offset) {
        const auto& place = s.places[std::min(offset, s.places.size() - 1)];
        return source_location{s.where.path, place.line, place.column};
      };
      source_file as_template{s.where.path, s.text};
      for (std::size_t offset = 0; offset <= s.text.size(); ++offset) as_template.written_at.push_back(written(offset));
      std::vector<std::size_t> origins;  // of each rendered byte, an offset into s.text
      source_file rendered{s.where.path, {}};
      try {
        rendered.text = render_template_mapped(as_template, scope, origins, render_options{32, false});
        origins.push_back(s.text.size());  // the end of the rendered text is the end of the string
        for (const auto origin : origins) rendered.written_at.push_back(written(origin));
        auto parsed = parse_schedule_ccl(rendered);
        for (auto& statement : parsed.statements) out.schedule.push_back(std::move(statement));
      } catch (const input_error& e) {
        for (const auto& d : e.diagnostics()) sink.add(d.where.line == 0 ? error_at(s.where, d.message) : d);
      }
    }
  }

  void walk(const std::string& backend) {
    std::vector<std::size_t> group_templates;                            // in first-reached order
    std::map<std::size_t, std::vector<const kernel_model*>> group_users;  // template -> kernels
    for (const auto& k : thorn.kernels) {
      const auto roots = tree.match(k.type_pattern, backend);
      for (const auto r : roots) {
        const kernel_variant variant{k.name, backend, tree.templates[r].stem};
        const bool known = std::any_of(out.variants.begin(), out.variants.end(), [&](const kernel_variant& v) {
          return v.kernel == variant.kernel && v.backend == variant.backend && v.template_stem == variant.template_stem;
        });
        if (!known) out.variants.push_back(variant);
      }
      std::set<std::size_t> rendered;
      for (const auto root : roots) {
        for (const auto i : tree.closure({root})) {
          const auto& t = tree.templates[i];
          if (t.scope == template_scope_kind::group) {
            if (group_users.find(i) == group_users.end()) group_templates.push_back(i);
            auto& users = group_users[i];
            if (std::find(users.begin(), users.end(), &k) == users.end()) users.push_back(&k);
            continue;
          }
          if (!rendered.insert(i).second) continue;  // reached from several variants: once per kernel
          auto scope = kernel_scope(thorn, k, backend, tree.templates[root].stem);
          add_includes(scope, t, k.name);
          render(t, scope, k.name);
        }
      }
      if (check_link_contract) {
        for (const auto root : roots) check_launcher_contract(k, root, backend);
      }
    }
    for (const auto i : group_templates) {
      const auto& users = group_users[i];
      template_scope scope;
      add_thorn_values(scope, thorn, backend);
      template_loop kernels{{"name", "variant"}, {}};
      for (const auto* k : users) {
        for (const auto& v : out.variants) {
          if (v.kernel == k->name && v.backend == backend) kernels.items.push_back(kernel_scope(thorn, *k, backend, v.template_stem));
        }
      }
      scope.loops["kernel_loop"] = std::move(kernels);
      scope.loops["var_loop"] = variable_loop(union_of_variables(users));
      scope.loops["param_loop"] = parameter_loop(union_of_parameters(users));
      add_includes(scope, tree.templates[i], thorn.name);
      render(tree.templates[i], scope, thorn.name);
    }
  }

  /// The bindings call each variant's launcher and read its axes trait (launcher_name,
  /// axes_trait_name): the per-kernel outputs of the templates the variant reaches must define
  /// both. Checked here, so that a template folder that lacks one (one written before the trait
  /// existed, or a misspelt name) is an error at its deps.ccl entry, not an undefined symbol at
  /// link time. Skipped where rendering already failed.
  void check_launcher_contract(const kernel_model& k, std::size_t root, const std::string& backend) {
    if (!sink.empty()) return;
    const auto& variant_template = tree.templates[root];
    const kernel_variant v{k.name, backend, variant_template.stem};
    std::string texts;
    std::vector<std::string> files;
    for (const auto i : tree.closure({root})) {
      const auto& t = tree.templates[i];
      if (t.scope == template_scope_kind::group) continue;
      files.push_back(t.file);
      const auto path = output_name(t, k.name);
      for (const auto& f : out.files) {
        if (f.path == path) texts += f.text + '\n';
      }
    }
    // The launcher is called: its name then '('; the trait is defined: its name then '='.
    const auto defines = [&](const std::string& symbol, char follows) {
      for (auto at = texts.find(symbol); at != std::string::npos; at = texts.find(symbol, at + 1)) {
        auto after = texts.find_first_not_of(" \t", at + symbol.size());
        if (after != std::string::npos && texts[after] == follows) return true;
      }
      return false;
    };
    for (const auto& [symbol, follows, what] :
         {std::tuple{launcher_name(v), '(', "void {}(const opuntia::kernel_call&)"},
          std::tuple{axes_trait_name(v), '=', "extern const bool {} = ..."}}) {
      if (defines(symbol, follows)) continue;
      sink.add(error_at(variant_template.where,
                        fmt::format("template '{}' ({}) reaches no definition of {} for kernel '{}' in {}: a launcher "
                                    "template must define `{}` (docs/template-author-guide.md, Adding a backend, step 1)",
                                    variant_template.name, backend, symbol, k.name, join_names(files),
                                    fmt::format(fmt::runtime(what), symbol))));
    }
  }

  /// The names of the templates a TYPE can name, each once, in deps.ccl order.
  std::vector<std::string> kernel_template_names() const {
    std::vector<std::string> names;
    for (const auto& t : tree.templates) {
      if (t.selectable() && std::find(names.begin(), names.end(), t.name) == names.end()) names.push_back(t.name);
    }
    return names;
  }

  void check_types_resolve() {
    for (const auto& k : thorn.kernels) {
      const auto matches_anywhere = [&](const std::string& pattern) {
        return std::any_of(tree.backends.begin(), tree.backends.end(),
                           [&](const auto& b) { return !tree.match(pattern, b).empty(); });
      };
      const bool anywhere = matches_anywhere(k.type_pattern);
      if (!anywhere) {
        const auto head = fmt::format("TYPE '{}' of kernel '{}' matches no template in {}", k.type_pattern, k.name,
                                      tree.deps_path);
        const auto names = kernel_template_names();
        if (names.empty()) {
          sink.add(error_at(k.type_where, fmt::format("{}: {}", head, tree.templates.empty()
                                                          ? "it declares no templates"
                                                          : "it declares no kernel templates (each has a $suffix "
                                                            "or scope=group, so no TYPE can name it)")));
          continue;
        }
        // The template name exists, in groups the TYPE's path does not name: say where.
        const auto named = tree.match_name(k.type_pattern);
        if (!named.empty()) {
          std::vector<std::string> backends, paths;
          for (const auto i : named) {
            const auto& t = tree.templates[i];
            if (std::find(backends.begin(), backends.end(), t.backend()) == backends.end()) backends.push_back(t.backend());
            paths.push_back(t.path());
          }
          // `openmp/3dblock_unrolled`: '3dblock_unrolled' is only in backend cuda, not under 'openmp'.
          const auto slash = k.type_pattern.find_last_of('/');
          sink.add(error_at(k.type_where, fmt::format("{}: '{}' is only in backend{} {} ({}), not under '{}'", head,
                                                      k.type_pattern.substr(slash + 1), backends.size() == 1 ? "" : "s",
                                                      join_names(backends), join_names(paths),
                                                      k.type_pattern.substr(0, slash))));
          continue;
        }
        // Suggest by the last segment, the template's name: `*/3dblok` -> `3dblock`.
        const auto last = k.type_pattern.substr(k.type_pattern.find_last_of('/') + 1);
        const auto hint = did_you_mean(last, names);
        sink.add(error_at(k.type_where, fmt::format("{}{}; kernel templates: {}", head, hint, join_names(names))));
        continue;
      }
      // Each alternative of the name must match a template of some backend: one that matches
      // none (a misspelling, `3dblock|3dblok`) would be left out in silence. One that only
      // some backends have (CUDA's `3dblock_unrolled`) is what alternatives are for.
      for (const auto& alternative : type_alternatives(k.type_pattern)) {
        if (matches_anywhere(alternative)) continue;
        const auto name = alternative.substr(alternative.find_last_of('/') + 1);
        const auto names = kernel_template_names();
        sink.add(error_at(k.type_where, fmt::format("TYPE '{}' of kernel '{}': its alternative '{}' matches no "
                                                    "template of any backend in {}{}; kernel templates: {}",
                                                    k.type_pattern, k.name, name, tree.deps_path,
                                                    did_you_mean(name, names), join_names(names))));
      }
    }
  }

  /// <Thorn>/<backend>/<Thorn>_sources.inc: every compile=yes output, for the build to compile.
  void add_source_lists(const std::vector<std::string>& backends) {
    for (const auto& backend : backends) {
      std::string text = fmt::format("// Generated by opuntia-gen: the translation units of thorn {} for {}.\n",
                                     thorn.name, backend);
      const auto prefix = thorn.name + "/" + backend + "/";
      std::vector<std::string> units;
      for (const auto& f : out.files) {
        if (f.compile && f.path.rfind(prefix, 0) == 0) units.push_back(f.path.substr(prefix.size()));
      }
      std::sort(units.begin(), units.end());
      for (const auto& u : units) text += fmt::format("#include \"{}\"\n", u);
      // A digest of every file generated for this backend: build systems see this list change
      // whenever any header it pulls in changes, even headers they were not told about.
      std::uint64_t digest = 14695981039346656037ull;  // FNV-1a
      for (const auto& f : out.files) {
        if (f.path.rfind(prefix, 0) != 0) continue;
        for (const char c : f.path + '\0' + f.text + '\0') digest = (digest ^ static_cast<unsigned char>(c)) * 1099511628211ull;
      }
      text += fmt::format("// content digest: {:016x}\n", digest);
      out.files.push_back(generated_file{prefix + thorn.name + "_sources.inc", text, true, false, {}});
    }
  }
};

}  // namespace

kernel_outputs emit_kernels(const thorn_model& thorn, const template_tree& tree,
                            const std::map<std::string, source_file>& templates,
                            const std::vector<std::string>& backends, bool check_link_contract) {
  walker w{thorn, tree, templates, check_link_contract, {}, {}};
  w.check_types_resolve();
  w.sink.throw_if_any();
  for (const auto& backend : backends) w.walk(backend);
  w.sink.throw_if_any();
  w.add_source_lists(backends);
  return std::move(w.out);
}

}  // namespace opuntia::gen
