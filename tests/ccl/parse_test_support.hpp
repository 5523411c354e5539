#pragma once
// Helpers of the CCL parser tests: reading inputs, CRLF copies, error text, and a compact
// text dump of each syntax tree (so that two trees compare with one EXPECT_EQ).
#include <fstream>
#include <sstream>
#include <string>

#include "ccl/diagnostic.hpp"
#include "ccl/model/interface_model.hpp"
#include "ccl/model/param_model.hpp"
#include "ccl/model/schedule_model.hpp"
#include "ccl/source_file.hpp"

namespace opuntia::ccl::test {

inline source_file read_source(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return source_file{path, text.str()};
}
inline source_file fixture(const std::string& name) {
  return read_source(OPUNTIA_SOURCE_DIR "/tests/fixtures/cacuda/" + name);
}
inline source_file input(const std::string& name) { return read_source(OPUNTIA_TEST_DATA_DIR "/inputs/" + name); }

inline std::string to_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

/// The formatted diagnostics `parse` throws for `text`, or "no error".
template <typename Parse>
std::string error_text(Parse parse, const std::string& path, const std::string& text) {
  try {
    parse(source_file{path, text});
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "no error";
}

/// The first line of `text`: the "path:line:column: error: ..." line of a diagnostic.
inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// `piece` `times` times over: deeply nested inputs.
inline std::string repeated(const std::string& piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

inline std::string at(const source_location& w) { return std::to_string(w.line) + ":" + std::to_string(w.column); }
inline std::string dump(const located_text& t) { return t.text + "@" + at(t.where); }
inline std::string dump(const std::vector<located_text>& ts) {
  std::string out;
  for (const auto& t : ts) out += (out.empty() ? "" : " ") + dump(t);
  return out;
}

inline std::string dump(const interface_file& f) {
  std::string out = "implements " + dump(f.implements) + "\ninherits " + dump(f.inherits) + "\nfriends " +
                    dump(f.friends) + "\n";
  for (const auto& g : f.groups) {
    out += "group " + at(g.where) + " " + std::to_string(static_cast<int>(g.access)) + " " + g.data_type + " " +
           dump(g.name) + " [" + g.vector_size + "]";
    for (const auto& o : g.options) out += " " + dump(o.key) + "=" + dump(o.value);
    out += (g.has_variable_list ? " {" : " no-list {") + dump(g.variables) + "} \"" + g.description + "\"\n";
  }
  for (const auto& fn : f.functions) {
    out += "function " + at(fn.where) + " " + fn.kind + " " + fn.return_type + " " + fn.name + "(" + fn.arguments +
           ") " + fn.provider + " " + fn.language + "\n";
  }
  for (const auto& i : f.includes) out += "include " + at(i.where) + " " + i.kind + " " + i.file + " " + i.target + "\n";
  return out;
}

inline std::string dump(const param_file& f) {
  std::string out;
  for (const auto& p : f.parameters) {
    out += "param " + at(p.where) + " " + std::to_string(static_cast<int>(p.section)) + " " + p.shared_from + " " +
           p.qualifier + " " + p.type + " " + dump(p.name) + " [" + p.array_size + "] \"" + p.description +
           "\" as=" + p.alias;
    for (const auto& o : p.options) out += " " + dump(o.key) + "=" + dump(o.value);
    out += p.has_range_block ? " {\n" : " no-block\n";
    for (const auto& r : p.ranges) {
      out += "  range " + at(r.where) + " <" + r.spec + "> words=" + dump(r.words) + " :: \"" + r.comment + "\"\n";
    }
    out += "  default " + (p.default_value ? dump(*p.default_value) : std::string("none")) + "\n";
  }
  return out;
}

inline void dump_statements(const std::vector<schedule_statement_syntax>& sts, const std::string& indent,
                            std::string& out) {
  for (const auto& st : sts) {
    switch (st.what) {
      case schedule_statement_syntax::kind::storage:
        out += indent + "storage " + at(st.where) + " " + dump(st.storage) + "\n";
        break;
      case schedule_statement_syntax::kind::conditional:
        out += indent + "if " + at(st.where) + " (" + st.condition + ")\n";
        dump_statements(st.then_branch, indent + "  ", out);
        out += indent + "else\n";
        dump_statements(st.else_branch, indent + "  ", out);
        break;
      case schedule_statement_syntax::kind::item: {
        const auto& i = st.item;
        out += indent + "schedule " + at(i.where) + (i.is_group ? " group " : " ") + dump(i.name) + " " +
               i.placement + " " + dump(i.target);
        if (!i.alias.empty()) out += " as " + i.alias;
        if (!i.while_vars.empty()) out += " while " + dump(i.while_vars);
        if (!i.until_vars.empty()) out += " until " + dump(i.until_vars);
        if (!i.if_vars.empty()) out += " if " + dump(i.if_vars);
        if (!i.before.empty()) out += " before " + dump(i.before);
        if (!i.after.empty()) out += " after " + dump(i.after);
        out += " \"" + i.description + "\"\n";
        for (const auto& c : i.clauses) out += indent + "  " + dump(c.key) + ": " + dump(c.items) + "\n";
        break;
      }
    }
  }
}
inline std::string dump(const schedule_file& f) {
  std::string out;
  dump_statements(f.statements, "", out);
  return out;
}

}  // namespace opuntia::ccl::test
