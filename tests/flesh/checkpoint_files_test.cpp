// Where checkpoints lie and which are kept (flesh/runtime/checkpoint_files.cpp): only files named
// as a checkpoint count (never a writer's temporary), by iteration as a number; checkpoint_keep
// removes the oldest and leaves those of later iterations alone.
#include "flesh/runtime/checkpoint_files.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace opuntia;

class checkpoint_files : public ::testing::Test {
protected:
  void SetUp() override {
    // A folder of each test's own: CTest runs a suite's tests side by side (-j), and one's
    // TearDown would remove another's files.
    dir_ = fs::path(::testing::TempDir()) / "checkpoint_files_test" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void touch(const std::string& name) { std::ofstream(dir_ / name) << "x"; }
  std::vector<int> iterations() const {
    std::vector<int> out;
    for (const auto& c : checkpoints_in(dir_, ".h5")) out.push_back(c.iteration);
    return out;
  }
  fs::path dir_;
};

TEST_F(checkpoint_files, are_named_after_their_iteration) {
  EXPECT_EQ(checkpoint_path("out", 8, ".h5"), fs::path("out/checkpoint.it8.h5"));
}

TEST_F(checkpoint_files, only_complete_ones_count_by_iteration_as_a_number) {
  for (const char* name : {"checkpoint.it10.h5", "checkpoint.it9.h5", ".checkpoint.it12.h5.tmp", "checkpoint.it12.h5.tmp",
                           "checkpoint.it08.h5", "checkpoint.it-1.h5", "checkpoint.it.h5", "checkpoint.itx.h5",
                           "checkpoint.it11.csv", "phi.h5"}) {
    touch(name);
  }
  fs::create_directories(dir_ / "checkpoint.it13.h5");  // a folder
  EXPECT_EQ(iterations(), (std::vector<int>{9, 10}));
  EXPECT_EQ(checkpoints_in(dir_, ".h5").back().path, dir_ / "checkpoint.it10.h5");
}

TEST_F(checkpoint_files, none_in_a_folder_that_does_not_exist) {
  EXPECT_TRUE(checkpoints_in(dir_ / "nowhere", ".h5").empty());
}

TEST_F(checkpoint_files, keep_removes_the_oldest_and_leaves_later_iterations) {
  for (const char* name : {"checkpoint.it2.h5", "checkpoint.it4.h5", "checkpoint.it6.h5", "checkpoint.it8.h5",
                           "checkpoint.it20.h5", ".checkpoint.it10.h5.tmp"}) {
    touch(name);
  }
  const auto removed = remove_old_checkpoints(dir_, ".h5", 8, 2);
  EXPECT_EQ(removed, (std::vector<fs::path>{dir_ / "checkpoint.it2.h5", dir_ / "checkpoint.it4.h5"}));
  EXPECT_EQ(iterations(), (std::vector<int>{6, 8, 20}));
  EXPECT_TRUE(fs::exists(dir_ / ".checkpoint.it10.h5.tmp"));  // not a checkpoint: someone's write in progress
  remove_old_checkpoints(dir_, ".h5", 8, 1);
  EXPECT_EQ(iterations(), (std::vector<int>{8, 20}));
}

}  // namespace
