#include "ccl/file_io.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ccl/diagnostic.hpp"

namespace opuntia::ccl {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

fs::path fresh_file(const std::string& name, const std::string& text) {
  const auto path = fs::path(::testing::TempDir()) / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(append_whole, adds_the_text_at_the_end) {
  const auto path = fresh_file("append_whole_adds.csv", "a,b\n1,2\n");
  append_whole(path, "3,4\n5,6\n");
  append_whole(path, "");
  EXPECT_EQ(text_of(path), "a,b\n1,2\n3,4\n5,6\n");
}

TEST(append_whole, a_missing_file_is_an_error_naming_it) {
  const auto path = fs::path(::testing::TempDir()) / "append_whole_no_such_folder" / "f.csv";
  try {
    append_whole(path, "x\n");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(format_diagnostics(e.diagnostics()), path.generic_string() + ": error: cannot write file: No such file or directory\n");
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(append_whole, a_write_that_fails_half_way_leaves_the_file_as_it_was) {
  // A file size limit stops the write part of the way through (EFBIG): the file must be cut back.
  // In a child process, whose limit does not reach the test's other files.
  const std::string before(1000, 'a');
  const auto path = fresh_file("append_whole_limit.csv", before);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{1500, 1500};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      append_whole(path, std::string(4000, 'b'));
    } catch (const input_error& e) {
      const bool named = format_diagnostics(e.diagnostics()) ==
                         path.generic_string() + ": error: cannot write file: File too large\n";
      ::_exit(named ? 3 : 4);
    }
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << "0: no error; 4: another message";
  EXPECT_EQ(text_of(path), before);
}

}  // namespace
}  // namespace opuntia::ccl
