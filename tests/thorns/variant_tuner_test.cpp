// The choice among a kernel's variants (thorns/CaKernel/src/variant_tuner.cpp) with timings made
// up: the fastest is kept, asked once a kernel and size, stored and read back, never trusted
// when the entry names no candidate, and `no` measures nothing.
#include "thorns/CaKernel/src/variant_tuner.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using opuntia::thorns::CaKernel::autotune_mode;
using opuntia::thorns::CaKernel::variant_tuner;

class variant_tuner_test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("opuntia_variant_tuner_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  /// A timer from a table of seconds, counting what it was asked.
  variant_tuner::variant_timer timer(std::map<std::string, double> seconds) {
    return [this, seconds](const std::string& v) {
      asked.push_back(v);
      return seconds.at(v);
    };
  }

  fs::path dir;
  std::vector<std::string> asked;
  const std::vector<std::string> candidates{"3dblock", "3dstencil", "3dblock_rows"};
  const std::array<int, 3> points{34, 34, 34};
};

TEST_F(variant_tuner_test, keeps_the_fastest_and_asks_once_per_kernel_and_size) {
  variant_tuner tuner(autotune_mode::cached, dir, "cuda: test device");
  const auto t = timer({{"3dblock", 3e-3}, {"3dstencil", 1e-3}, {"3dblock_rows", 2e-3}});
  EXPECT_EQ(tuner.choose("T::K", points, candidates, t), "3dstencil");
  EXPECT_EQ(asked.size(), 3u);
  EXPECT_EQ(tuner.choose("T::K", points, candidates, t), "3dstencil");
  EXPECT_EQ(asked.size(), 3u);  // decided for the run
  tuner.choose("T::K", {34, 34, 66}, candidates, t);
  EXPECT_EQ(asked.size(), 6u);  // another size is another question
  const auto notes = tuner.take_notes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0],
            "autotune: T::K on 34x34x34 points: 3dstencil (measured: 3dblock 3.000 ms, 3dstencil 1.000 ms, "
            "3dblock_rows 2.000 ms)");
  EXPECT_TRUE(tuner.take_notes().empty());
}

TEST_F(variant_tuner_test, a_later_run_takes_the_choice_from_the_cache_and_always_measures_again) {
  variant_tuner(autotune_mode::cached, dir, "cuda: test device")
      .choose("T::K", points, candidates, timer({{"3dblock", 3e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}}));
  asked.clear();
  variant_tuner later(autotune_mode::cached, dir, "cuda: test device");
  EXPECT_EQ(later.choose("T::K", points, candidates, timer({})), "3dblock_rows");
  EXPECT_TRUE(asked.empty());
  EXPECT_NE(later.take_notes().at(0).find("(cached in "), std::string::npos);
  variant_tuner other_device(autotune_mode::cached, dir, "cuda: another device");
  other_device.choose("T::K", points, candidates,
                      timer({{"3dblock", 1e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}}));
  EXPECT_EQ(asked.size(), 3u);  // measurements hold for one device
  asked.clear();
  variant_tuner always(autotune_mode::always, dir, "cuda: test device");
  EXPECT_EQ(always.choose("T::K", points, candidates,
                          timer({{"3dblock", 1e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}})),
            "3dblock");
  EXPECT_EQ(asked.size(), 3u);
}

TEST_F(variant_tuner_test, another_list_of_candidates_is_measured_again) {
  variant_tuner(autotune_mode::cached, dir, "d")
      .choose("T::K", points, {"3dblock", "3dstencil"}, timer({{"3dblock", 2e-3}, {"3dstencil", 1e-3}}));
  // The same key with another list of candidates is another entry; a list that lost the stored
  // variant (a descriptor changed) finds none and measures.
  asked.clear();
  variant_tuner later(autotune_mode::cached, dir, "d");
  EXPECT_EQ(
      later.choose("T::K", points, {"3dblock", "3dblock_rows"}, timer({{"3dblock", 2e-3}, {"3dblock_rows", 3e-3}})),
      "3dblock");
  EXPECT_EQ(asked.size(), 2u);
}

TEST_F(variant_tuner_test, no_measures_nothing_and_a_timer_without_room_keeps_the_first) {
  variant_tuner no(autotune_mode::no, dir, "d");
  EXPECT_EQ(no.choose("T::K", points, candidates, timer({})), "3dblock");
  EXPECT_TRUE(asked.empty());
  EXPECT_TRUE(no.take_notes().empty());
  EXPECT_FALSE(fs::exists(dir));
  variant_tuner cached(autotune_mode::cached, dir, "d");
  EXPECT_EQ(
      cached.choose("T::K", points, candidates, timer({{"3dblock", -1}, {"3dstencil", -1}, {"3dblock_rows", -1}})),
      "3dblock");
  EXPECT_NE(cached.take_notes().at(0).find("not measured: no room for scratch copies"), std::string::npos);
  EXPECT_EQ(cached.choose("T::K", points, {"3dblock"}, timer({})), "3dblock");  // one candidate: nothing to choose
  EXPECT_TRUE(cached.take_notes().empty());
}

TEST_F(variant_tuner_test, modes_are_read_from_their_keyword) {
  using opuntia::thorns::CaKernel::autotune_mode_of;
  EXPECT_EQ(autotune_mode_of("no"), autotune_mode::no);
  EXPECT_EQ(autotune_mode_of("cached"), autotune_mode::cached);
  EXPECT_EQ(autotune_mode_of("always"), autotune_mode::always);
  EXPECT_THROW(autotune_mode_of("sometimes"), std::invalid_argument);
}

}  // namespace
