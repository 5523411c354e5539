// The on-disk program cache (thorns/CaKernel/src/program_cache.cpp): keys, atomic writes, and
// entries that are damaged or half-written being ignored so that the program is rebuilt.
#include "thorns/CaKernel/src/program_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using opuntia::thorns::CaKernel::program_cache;
using opuntia::thorns::CaKernel::program_identity;

class program_cache_test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("opuntia_program_cache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
    return names;
  }

  fs::path dir;
  const program_identity identity{"__kernel void k() {}", "-DCAKERNEL_NI=41", "pocl", "cpu", "3.1"};
  const std::vector<unsigned char> binary{'E', 'L', 'F', 0, 1, 2, '\n', 255};
};

TEST_F(program_cache_test, key_is_stable_and_changes_with_every_part) {
  const auto key = program_cache::key(identity);
  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key, program_cache::key(identity));
  for (std::string program_identity::*part :
       {&program_identity::source, &program_identity::options, &program_identity::platform, &program_identity::device,
        &program_identity::driver_version}) {
    auto other = identity;
    other.*part += "x";
    EXPECT_NE(program_cache::key(other), key);
  }
  // Text moved from one part to the next is another identity.
  auto moved = identity;
  moved.source += "-";
  moved.options.erase(0, 1);
  EXPECT_NE(program_cache::key(moved), key);
}

TEST_F(program_cache_test, stored_binary_loads_back_and_leaves_no_temporary_file) {
  const program_cache cache(dir);
  const auto key = program_cache::key(identity);
  EXPECT_FALSE(cache.load(key));
  ASSERT_TRUE(cache.store(key, binary));
  EXPECT_EQ(cache.load(key), binary);
  auto stored = files();
  std::sort(stored.begin(), stored.end());
  EXPECT_EQ(stored, (std::vector<std::string>{key + ".clbin", "CACHEDIR.TAG"}));
}

TEST_F(program_cache_test, truncated_or_corrupted_entries_are_ignored) {
  const program_cache cache(dir);
  const auto key = program_cache::key(identity);
  ASSERT_TRUE(cache.store(key, binary));
  const auto path = cache.path_of(key);
  std::string text;
  {
    std::ifstream in(path, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const auto write = [&](const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  };
  write(text.substr(0, text.size() - 3));  // half-written
  EXPECT_FALSE(cache.load(key));
  auto flipped = text;
  flipped.back() = static_cast<char>(flipped.back() ^ 1);  // same size, other bytes
  write(flipped);
  EXPECT_FALSE(cache.load(key));
  write("");
  EXPECT_FALSE(cache.load(key));
  write("garbage without a header");
  EXPECT_FALSE(cache.load(key));
  // Another key's entry under this key's name is not this program.
  auto other = identity;
  other.device = "gpu";
  ASSERT_TRUE(cache.store(program_cache::key(other), binary));
  fs::copy_file(cache.path_of(program_cache::key(other)), path, fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cache.load(key));
  // Storing again repairs it.
  ASSERT_TRUE(cache.store(key, binary));
  EXPECT_EQ(cache.load(key), binary);
}

TEST_F(program_cache_test, a_folder_the_cache_makes_is_tagged_and_cleared_of_its_entries_only) {
  const program_cache cache(dir);
  ASSERT_TRUE(cache.store(program_cache::key(identity), binary));
  ASSERT_TRUE(cache.store("b", binary));
  const auto failure = cache.store_build_failure("Heat_3dblock", "__kernel void k() {", "error: expected '}'");
  EXPECT_EQ(failure.source, dir / "build-errors" / "Heat_3dblock.cl");
  // Signature line of the Cache Directory Tagging Specification: backup tools skip the folder.
  std::ifstream tag(dir / "CACHEDIR.TAG");
  std::string first_line;
  std::getline(tag, first_line);
  EXPECT_EQ(first_line, "Signature: 8a477f597d28d172789f06886806bc55");
  // A file of someone else's, one named like an entry but not written by the cache, a folder.
  std::ofstream(dir / "notes.txt") << "mine";
  std::ofstream(dir / "fake.clbin") << "not an entry";
  fs::create_directories(dir / "results");
  const auto cleared = cache.clear();
  EXPECT_EQ(cleared.removed, 4u);  // two entries, a failed build's source and log
  EXPECT_EQ(cleared.kept, 3u);
  EXPECT_TRUE(cleared.is_cache);
  auto left = files();
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"CACHEDIR.TAG", "fake.clbin", "notes.txt", "results"}));
  EXPECT_EQ(program_cache(dir / "absent").clear().removed, 0u);
}

// CaKernel::cache_dir = "." once deleted the parameter file and a results folder beside it.
TEST_F(program_cache_test, a_folder_of_the_users_loses_nothing_but_the_entries) {
  fs::create_directories(dir / "results");
  std::ofstream(dir / "run.par") << "Cactus::cctk_itlast = 1\n";
  const program_cache cache(dir);
  auto cleared = cache.clear();
  EXPECT_FALSE(cleared.is_cache);  // opuntia --clear-cache refuses this folder
  EXPECT_EQ(cleared.removed, 0u);
  EXPECT_EQ(cleared.kept, 2u);
  // Entries stored there are the cache's, and only they go; the folder is not tagged.
  const auto key = program_cache::key(identity);
  ASSERT_TRUE(cache.store(key, binary));
  EXPECT_FALSE(fs::exists(dir / "CACHEDIR.TAG"));
  fs::copy_file(cache.path_of(key), dir / ("." + key + ".clbin.tmp4242.0"));  // a crash's leftover
  cleared = cache.clear();
  EXPECT_TRUE(cleared.is_cache);
  EXPECT_EQ(cleared.removed, 2u);
  auto left = files();
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"results", "run.par"}));
}

TEST_F(program_cache_test, default_dir_follows_xdg_cache_home_then_home) {
  const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string xdg = saved_xdg ? saved_xdg : "";
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(program_cache::default_dir(), fs::path("/tmp/xdg/opuntia"));
  ::setenv("XDG_CACHE_HOME", "", 1);
  if (const char* home = std::getenv("HOME")) {
    EXPECT_EQ(program_cache::default_dir(), fs::path(home) / ".cache/opuntia");
  }
  EXPECT_EQ(program_cache("").dir(), program_cache::default_dir());
  if (saved_xdg) {
    ::setenv("XDG_CACHE_HOME", xdg.c_str(), 1);
  } else {
    ::unsetenv("XDG_CACHE_HOME");
  }
}

TEST_F(program_cache_test, unwritable_directory_is_not_an_error_for_the_run) {
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  const program_cache cache(dir / "file" / "below");  // a directory under a regular file
  EXPECT_FALSE(cache.store("k", binary));
}

}  // namespace
