#include "generator/file_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace opuntia::gen {
namespace {

namespace fs = std::filesystem;

/// A fresh folder under the system's temporary folder, removed when the test ends.
struct temporary_folder {
  fs::path path;
  temporary_folder() {
    std::string name = (fs::temp_directory_path() / "opuntia-file-io-XXXXXX").string();
    path = ::mkdtemp(name.data());
  }
  ~temporary_folder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

void write(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// What read_source reports for `path`, or "read".
std::string read_error(const fs::path& path) {
  try {
    (void)read_source(path);
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "read";
}

/// What write_outputs reports for these (path, text) outputs, or "written".
std::string write_error(const fs::path& out_dir, const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::vector<generated_file> files;
  for (const auto& [path, text] : outputs) {
    generated_file f;
    f.path = path;
    f.text = text;
    files.push_back(std::move(f));
  }
  try {
    write_outputs(out_dir, files);
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "written";
}

/// Every file under `dir`, relative, sorted: what a failed write must leave unchanged.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    out.push_back(fs::relative(entry.path(), dir).generic_string() + (entry.is_directory() ? "/" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(file_io, cannot_read_says_why) {
  const temporary_folder tmp;
  const auto missing = tmp.path / "missing.ccl";
  EXPECT_EQ(read_error(missing), missing.generic_string() + ": error: cannot read file: No such file or directory\n");
  write(tmp.path / "file", "x");
  const auto through_a_file = tmp.path / "file" / "param.ccl";
  EXPECT_EQ(read_error(through_a_file), through_a_file.generic_string() + ": error: cannot read file: Not a directory\n");
  EXPECT_EQ(read_error(tmp.path), tmp.path.generic_string() + ": error: is a directory, not a file\n");
  EXPECT_FALSE(read_optional_source(missing).has_value());
}

TEST(file_io, inputs_are_read_up_to_64_mib) {
  EXPECT_EQ(read_error("/dev/zero"), "/dev/zero: error: file is larger than 64 MiB, the limit for an input file\n");
  const temporary_folder tmp;
  const auto at_limit = tmp.path / "at_limit.par";
  const auto over_limit = tmp.path / "over_limit.par";
  for (const auto& [path, size] : {std::pair{at_limit, max_input_size}, std::pair{over_limit, max_input_size + 1}}) {
    write(path, "");
    fs::resize_file(path, size);  // sparse: no 64 MiB written to disk
  }
  EXPECT_EQ(read_source(at_limit).text.size(), max_input_size);
  EXPECT_EQ(read_error(over_limit),
            over_limit.generic_string() + ": error: file is larger than 64 MiB, the limit for an input file\n");
  // A thorn's optional files are capped too, not taken as absent.
  EXPECT_THROW(read_optional_source(over_limit), input_error);
}

TEST(file_io, a_byte_order_mark_is_skipped) {
  const temporary_folder tmp;
  const auto path = tmp.path / "bom.par";
  write(path, "\xEF\xBB\xBF" "A::b = 1\n");
  EXPECT_EQ(read_source(path).text, "A::b = 1\n");
  write(path, "A::b = \"\xEF\xBB\xBF\"\n");  // only at the start
  EXPECT_EQ(read_source(path).text, "A::b = \"\xEF\xBB\xBF\"\n");
}

TEST(file_io, write_outputs_writes_all_or_nothing) {
  const temporary_folder tmp;
  const auto out = tmp.path / "out";
  ASSERT_EQ(write_error(out, {{"T/a.h", "old a"}, {"T/sub/b.h", "old b"}}), "written");
  fs::create_directories(out / "T" / "z.h");  // a folder where a file must go
  const auto before = listing(out);
  // Every other file is changed or new (in a new folder too), and comes before z.h.
  EXPECT_EQ(write_error(out, {{"T/a.h", "new a"}, {"T/new/c.h", "c"}, {"T/sub/b.h", "new b"}, {"T/z.h", "z"}}),
            (out / "T/z.h").generic_string() + ": error: cannot write file: Is a directory\n");
  EXPECT_EQ(listing(out), before);  // no temporary, no new folder, no new file
  EXPECT_EQ(read(out / "T/a.h"), "old a");
  EXPECT_EQ(read(out / "T/sub/b.h"), "old b");

  write(out / "T" / "blocker", "a file where a folder must go");
  EXPECT_EQ(write_error(out, {{"T/a.h", "new a"}, {"T/blocker/d.h", "d"}}),
            (out / "T/blocker/d.h").generic_string() + ": error: cannot write file: Not a directory\n");
  EXPECT_EQ(read(out / "T/a.h"), "old a");

  EXPECT_EQ(write_error(out, {{"T/a.h", "new a"}, {"T/sub/b.h", "new b"}}), "written");
  EXPECT_EQ(read(out / "T/a.h"), "new a");
  EXPECT_EQ(read(out / "T/sub/b.h"), "new b");
}

}  // namespace
}  // namespace opuntia::gen
