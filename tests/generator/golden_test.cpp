// Golden tests: each folder under tests/generator/cases/ holds generator inputs (thorns/,
// optionally templates/, a `backends` file and a `no_link_check` file) and either the expected
// outputs (expected/) or the expected diagnostics (expected_error.txt). Run with
// OPUNTIA_UPDATE_GOLDEN=1 to rewrite the expectations, then review the diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <variant>

#include "generator/file_io.hpp"
#include "generator/generate.hpp"

namespace opuntia::gen {
namespace {

namespace fs = std::filesystem;

const fs::path cases_dir = fs::path(OPUNTIA_TEST_DATA_DIR) / "cases";

bool updating() {
  const char* flag = std::getenv("OPUNTIA_UPDATE_GOLDEN");
  return flag != nullptr && std::string(flag) == "1";
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(cases_dir)) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// Runs in the case folder so that every path in outputs and diagnostics is relative and stable.
class case_directory {
public:
  explicit case_directory(const fs::path& dir) : previous_(fs::current_path()) { fs::current_path(dir); }
  ~case_directory() { fs::current_path(previous_); }

private:
  fs::path previous_;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

generator_inputs case_inputs() {
  generator_inputs inputs;
  std::vector<std::string> thorn_dirs;
  for (const auto& entry : fs::directory_iterator("thorns")) {
    if (entry.is_directory()) thorn_dirs.push_back("thorns/" + entry.path().filename().string());
  }
  std::sort(thorn_dirs.begin(), thorn_dirs.end());
  for (const auto& d : thorn_dirs) {
    inputs.thorns.push_back(read_thorn(d));
    inputs.library.push_back(inputs.thorns.back());
  }
  // A case without its own templates uses the project's, shown as "templates/...".
  const fs::path templates = fs::exists("templates") ? fs::path("templates") : fs::path(OPUNTIA_SOURCE_DIR) / "templates";
  inputs.deps_ccl = read_source(templates / "deps.ccl");
  inputs.deps_ccl.path = "templates/deps.ccl";
  for (auto& [name, file] : read_templates(templates)) {
    file.path = "templates/" + name;
    inputs.templates.emplace(name, file);
  }
  if (fs::exists("backends")) {
    std::istringstream words(read_text("backends"));
    for (std::string b; words >> b;) inputs.backends.push_back(b);
  }
  // A case whose templates are not meant to be linked into Opuntia (CaCUDA's own, probes of the
  // template language) says so with a file `no_link_check`, as `generate --no-link-check`.
  inputs.check_link_contract = !fs::exists("no_link_check");
  return inputs;
}

class golden : public ::testing::TestWithParam<std::string> {};

TEST_P(golden, generates_expected_output) {
  const fs::path dir = cases_dir / GetParam();
  case_directory in_case(dir);
  const bool expect_error = fs::exists("expected_error.txt");
  std::vector<generated_file> files;
  std::string error;
  try {
    files = generate(case_inputs());
  } catch (const input_error& e) {
    error = format_diagnostics(e.diagnostics());
  }

  if (updating()) {
    fs::remove_all("expected");
    fs::remove("expected_error.txt");
    if (!error.empty()) {
      write_file_atomically("expected_error.txt", error);
    } else {
      for (const auto& f : files) write_file_atomically(fs::path("expected") / f.path, f.text);
    }
    GTEST_SKIP() << "expectations rewritten";
  }

  if (expect_error) {
    EXPECT_EQ(error, read_text("expected_error.txt"));
    return;
  }
  ASSERT_EQ(error, "") << "unexpected generator error";
  std::set<std::string> expected_paths;
  for (const auto& entry : fs::recursive_directory_iterator("expected")) {
    if (entry.is_regular_file()) expected_paths.insert(fs::relative(entry.path(), "expected").generic_string());
  }
  std::set<std::string> produced_paths;
  for (const auto& f : files) {
    produced_paths.insert(f.path);
    EXPECT_EQ(f.text, read_text(fs::path("expected") / f.path)) << "in " << f.path;
  }
  EXPECT_EQ(produced_paths, expected_paths);
}

/// The same inputs give the same bytes, and the same errors in the same order.
TEST_P(golden, is_deterministic) {
  const fs::path dir = cases_dir / GetParam();
  case_directory in_case(dir);
  const auto inputs = case_inputs();
  const auto run = [&]() -> std::variant<std::vector<generated_file>, std::string> {
    try {
      return generate(inputs);
    } catch (const input_error& e) {
      return format_diagnostics(e.diagnostics());
    }
  };
  EXPECT_EQ(run(), run());
}

INSTANTIATE_TEST_SUITE_P(cases, golden, ::testing::ValuesIn(case_names()),
                         [](const auto& test_info) { return test_info.param; });

}  // namespace
}  // namespace opuntia::gen
