// docs/parameters.md against the param.ccl files of thorns/, read with the parser opuntia-gen
// uses: every parameter of every thorn is a row of the page with its type, default, ranges and
// description, and the page holds nothing else. The page is written by `opuntia --describe-all
// --format markdown` (the test docs_parameter_reference keeps it so); this test does not trust
// that code: it reads the Markdown back to plain text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ccl/file_io.hpp"
#include "ccl/parse.hpp"

namespace {

namespace fs = std::filesystem;
namespace ccl = opuntia::ccl;
const fs::path source_dir = OPUNTIA_SOURCE_DIR;

/// A table cell as a reader sees it: code spans without their backticks, escapes resolved.
std::string plain(const std::string& cell) {
  std::string out;
  for (std::size_t i = 0; i < cell.size();) {
    if (cell[i] == '`') {
      const auto fence_end = cell.find_first_not_of('`', i);
      const std::string fence = cell.substr(i, fence_end - i);
      const auto close = cell.find(fence, fence_end);
      std::string code = cell.substr(fence_end, close - fence_end);
      if (code.size() >= 2 && code.front() == ' ' && code.back() == ' ') code = code.substr(1, code.size() - 2);
      for (std::size_t bar; (bar = code.find("\\|")) != std::string::npos;) code.erase(bar, 1);
      out += code;
      i = close + fence.size();
    } else if (cell[i] == '\\' && i + 1 < cell.size() && std::ispunct(static_cast<unsigned char>(cell[i + 1]))) {
      out += cell[i + 1];
      i += 2;
    } else {
      out += cell[i++];
    }
  }
  return out;
}

std::string trimmed(const std::string& s) {
  const auto begin = s.find_first_not_of(' ');
  return begin == std::string::npos ? std::string() : s.substr(begin, s.find_last_not_of(' ') - begin + 1);
}

/// The cells of a row `| a | b |`, split at every `|` that no backslash escapes.
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i + 1 < row.size(); ++i) {
    if (row[i] == '|' && row[i - 1] != '\\') {
      cells.push_back(trimmed(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  cells.push_back(trimmed(cell));
  return cells;
}

/// thorn -> parameter (as the first cell names it) -> its cells; every thorn's heading, even one
/// without a table.
std::map<std::string, std::map<std::string, std::vector<std::string>>> read_page(const fs::path& path) {
  std::ifstream in(path);
  std::map<std::string, std::map<std::string, std::vector<std::string>>> page;
  std::string thorn;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) {
      thorn = line.substr(3);
      page[thorn];
    } else if (!thorn.empty() && line.rfind("| `", 0) == 0) {
      const auto cells = cells_of(line);
      page[thorn][plain(cells.at(0))] = cells;
    }
  }
  return page;
}

/// Blanks for the line breaks of a description that spans lines (a table cell is one line).
std::string one_line(std::string text) {
  for (auto& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return text;
}

TEST(parameter_reference, every_parameter_of_every_thorn_is_in_docs_parameters_md) {
  auto page = read_page(source_dir / "docs" / "parameters.md");
  std::size_t thorns = 0, parameters = 0;
  for (const auto& entry : fs::directory_iterator(source_dir / "thorns")) {
    if (!fs::exists(entry.path() / "interface.ccl")) continue;
    const auto thorn = entry.path().filename().string();
    ++thorns;
    ASSERT_TRUE(page.count(thorn)) << "docs/parameters.md has no section '## " << thorn << "'";
    auto& rows = page[thorn];
    if (fs::exists(entry.path() / "param.ccl")) {
      for (const auto& p : ccl::parse_param_ccl(ccl::read_source(entry.path() / "param.ccl")).parameters) {
        ++parameters;
        const auto name = p.array_size.empty() ? p.name.text : p.name.text + "[" + p.array_size + "]";
        const auto where = thorn + "::" + name;
        ASSERT_TRUE(rows.count(name)) << where << " is not in docs/parameters.md";
        const auto cells = rows[name];
        rows.erase(name);
        ASSERT_EQ(cells.size(), 5u) << where;
        EXPECT_EQ(plain(cells[1]).rfind(p.type + ", ", 0), 0u) << where << ": type " << cells[1];
        const bool text = p.type == "KEYWORD" || p.type == "STRING";
        if (p.qualifier.empty() && p.section != ccl::param_section::shares_section) {
          ASSERT_TRUE(p.default_value.has_value()) << where;
          EXPECT_EQ(plain(cells[2]), text ? "\"" + p.default_value->text + "\"" : p.default_value->text) << where;
        }
        std::string ranges;
        for (const auto& r : p.ranges) {
          ranges += ranges.empty() ? "" : "<br>";
          ranges += r.spec.empty() ? "any" : r.spec;
          if (!r.comment.empty()) ranges += ' ' + one_line(r.comment);
        }
        const bool shared = !p.qualifier.empty() || p.section == ccl::param_section::shares_section;
        if (p.ranges.empty()) ranges = shared ? "as " + p.shared_from + "::" + p.name.text : "any";
        EXPECT_EQ(plain(cells[3]), ranges) << where;
        EXPECT_EQ(plain(cells[4]), one_line(p.description)) << where;
      }
    }
    for (const auto& [name, cells] : rows) ADD_FAILURE() << thorn << "::" << name << " is in docs/parameters.md only";
    page.erase(thorn);
  }
  for (const auto& [thorn, rows] : page) ADD_FAILURE() << "docs/parameters.md has a section for " << thorn << ", not a thorn of thorns/";
  EXPECT_GE(thorns, 11u);
  EXPECT_GE(parameters, 80u);
}

}  // namespace
