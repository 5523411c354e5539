#include "generator/file_io.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

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

TEST(file_io, only_regular_files_are_read) {
  // A FIFO would block the open (no writer) or the reads for ever; a device may never end.
  const temporary_folder tmp;
  const auto fifo = tmp.path / "schedule.ccl";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_error(fifo), fifo.generic_string() + ": error: is not a regular file (it is a FIFO)\n");
  EXPECT_THROW(read_optional_source(fifo), input_error);
  EXPECT_FALSE(read_if_possible(fifo).has_value());
  EXPECT_EQ(read_error("/dev/zero"), "/dev/zero: error: is not a regular file (it is a character device)\n");
  // A link is followed to the file it names.
  write(tmp.path / "real.ccl", "x");
  fs::create_symlink("real.ccl", tmp.path / "link.ccl");
  EXPECT_EQ(read_source(tmp.path / "link.ccl").text, "x");
}

TEST(file_io, a_link_to_a_missing_file_is_an_error_not_an_absent_file) {
  const temporary_folder tmp;
  const auto link = tmp.path / "cakernel.ccl";
  fs::create_symlink("missing.ccl", link);
  EXPECT_EQ(read_error(link), link.generic_string() + ": error: is a link to a missing file\n");
  EXPECT_THROW(read_optional_source(link), input_error);
}

TEST(file_io, thorn_folders_are_normalised) {
  EXPECT_EQ(normal_folder("./T/."), fs::path("T"));
  EXPECT_EQ(normal_folder("T/"), fs::path("T"));
  EXPECT_EQ(normal_folder("a//b/../T//"), fs::path("a/T"));
  EXPECT_EQ(normal_folder("."), fs::path("."));
  EXPECT_EQ(normal_folder("/"), fs::path("/"));
  EXPECT_THROW(normal_folder(""), input_error);
  EXPECT_EQ(thorn_name("a/T"), "T");
  EXPECT_EQ(thorn_name("."), fs::current_path().filename().string());
  EXPECT_EQ(parent_folder("T"), fs::path("."));
  EXPECT_EQ(parent_folder("a/T"), fs::path("a"));
  EXPECT_EQ(parent_folder("."), fs::path(".."));
}

TEST(file_io, read_thorn_follows_links_inside_the_thorn_and_reports_what_it_cannot_use) {
  const temporary_folder tmp;
  const auto thorn = tmp.path / "T";
  fs::create_directories(thorn / "bodies");
  fs::create_directories(thorn / "real_src");
  fs::create_directories(tmp.path / "elsewhere");
  write(thorn / "interface.ccl", "implements: t\n");
  write(thorn / "bodies" / "A.kernel", "a");
  write(thorn / "real_src" / "B.kernel", "b");
  write(tmp.path / "elsewhere" / "C.kernel", "c");
  fs::create_directories(thorn / "src");
  fs::create_symlink("../bodies/A.kernel", thorn / "src" / "A.kernel");          // inside: used
  fs::create_symlink("real_src", thorn / "linked_src");                           // a folder inside: used
  fs::create_symlink(tmp.path / "elsewhere" / "C.kernel", thorn / "src" / "C.kernel");  // outside: refused
  fs::create_symlink("../..", thorn / "bodies" / "loop");                         // above the thorn: refused
  ASSERT_EQ(::mkfifo((thorn / "src" / "D.kernel").c_str(), 0600), 0);
  const auto t = read_thorn(tmp.path / "T" / "");
  const auto& unusable = t.unusable_files;
  EXPECT_EQ(t.name, "T");
  EXPECT_EQ(t.dir, (tmp.path / "T").generic_string());
  EXPECT_EQ(t.present_files, (std::vector<std::string>{"bodies/A.kernel", "interface.ccl", "linked_src/B.kernel",
                                                        "real_src/B.kernel", "src/A.kernel"}));
  EXPECT_EQ(t.file_texts.at("src/A.kernel"), "a");
  EXPECT_EQ(unusable.at("src/C.kernel"), "is a link pointing outside thorn " + t.dir + " (to " +
                                             (tmp.path / "elsewhere" / "C.kernel").generic_string() + ")");
  EXPECT_EQ(unusable.at("bodies/loop").rfind("is a link pointing outside thorn", 0), 0u);
  EXPECT_EQ(unusable.at("src/D.kernel"), "is not a regular file (it is a FIFO)");
  EXPECT_EQ(unusable.size(), 3u);
}

TEST(file_io, a_linked_template_file_is_read_under_its_own_name) {
  const temporary_folder tmp;
  fs::create_directories(tmp.path / "templates" / "openmp");
  write(tmp.path / "real.tpl", "x");
  fs::create_symlink(tmp.path / "real.tpl", tmp.path / "templates" / "openmp" / "3dblock.h.tpl");
  const auto templates = read_templates(tmp.path / "templates");
  ASSERT_EQ(templates.count("openmp/3dblock.h.tpl"), 1u);
  EXPECT_EQ(templates.at("openmp/3dblock.h.tpl").text, "x");
}

TEST(file_io, a_stamp_that_cannot_be_written_leaves_every_output_as_it_was) {
  const temporary_folder tmp;
  const auto out = tmp.path / "out";
  const auto stamp = tmp.path / "stamp";
  fs::create_directories(stamp);  // a folder where the stamp must go
  generated_file f;
  f.path = "T/a.h";
  f.text = "a";
  try {
    write_outputs(out, {f}, stamp);
    ADD_FAILURE() << "a stamp that is a folder was written";
  } catch (const input_error& e) {
    EXPECT_EQ(format_diagnostics(e.diagnostics()), stamp.generic_string() + ": error: cannot write file: Is a directory\n");
  }
  EXPECT_FALSE(fs::exists(out));
  fs::remove(stamp);
  EXPECT_EQ(write_outputs(out, {f}, stamp).written, 1u);
  EXPECT_TRUE(fs::is_regular_file(stamp));
  EXPECT_EQ(read(out / "T/a.h"), "a");
}

TEST(file_io, distinct_keeps_each_diagnostic_once_in_order) {
  const diagnostic a = whole_file_error("a", "one");
  const diagnostic b = whole_file_error("b", "two");
  const auto kept = distinct({a, b, a, b, a});
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].where.path, "a");
  EXPECT_EQ(kept[1].where.path, "b");
}

TEST(file_io, a_byte_order_mark_is_skipped) {
  const temporary_folder tmp;
  const auto path = tmp.path / "bom.par";
  write(path, "\xEF\xBB\xBF" "A::b = 1\n");
  EXPECT_EQ(read_source(path).text, "A::b = 1\n");
  write(path, "A::b = \"\xEF\xBB\xBF\"\n");  // only at the start
  EXPECT_EQ(read_source(path).text, "A::b = \"\xEF\xBB\xBF\"\n");
}

TEST(file_io, a_bare_carriage_return_ends_a_line) {
  const temporary_folder tmp;
  const auto path = tmp.path / "mac.par";
  write(path, "# old Mac OS\rA::b = 1\r\nA::c = 2\r");
  // A CR alone becomes LF, byte for byte (columns unchanged); CRLF stays as written.
  EXPECT_EQ(read_source(path).text, "# old Mac OS\nA::b = 1\r\nA::c = 2\n");
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
