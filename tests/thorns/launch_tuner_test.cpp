// The choice of a kernel's variant and shape (thorns/CaKernel/src/launch_tuner.cpp) with timings
// made up: the fastest is kept, asked once a kernel and size, stored and read back, never
// trusted when the entry names no candidate or a shape the launcher does not run, and `no`
// measures nothing; the search climbs from the template's own shape within its time.
#include "thorns/CaKernel/src/launch_tuner.hpp"

#include "thorns/CaKernel/backends/slabs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <chrono>
#include <set>
#include <thread>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using opuntia::thorns::CaKernel::autotune_mode;
using opuntia::thorns::CaKernel::launch_choice;
using opuntia::thorns::CaKernel::launch_tuner;
using tile = std::array<int, 3>;
using shape = opuntia::launch_shape;

class launch_tuner_test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("opuntia_launch_tuner_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  /// A timer from a table of seconds a variant (with the descriptor's TILE), counting what it
  /// was asked.
  launch_tuner::launch_timer timer(std::map<std::string, double> seconds) {
    return [this, seconds](const launch_choice& c) {
      asked.push_back(c.variant);
      return seconds.at(c.variant);
    };
  }
  /// Launchers whose shape is compiled in (CUDA's).
  static shape compiled_in(const std::string&, const shape&) { return {}; }

  /// A tuner whose tile search has 10 seconds, and whose launchers' tile is compiled in.
  launch_tuner tuner(autotune_mode mode, const std::string& device = "d", double seconds = 10) {
    return launch_tuner(mode, dir, device, seconds);
  }
  std::string choose(launch_tuner& t, const std::vector<std::string>& variants, const launch_tuner::launch_timer& time,
                     const std::array<int, 3>& size = {34, 34, 34}) {
    return t.choose("T::K", size, variants, compiled_in, time).variant;
  }

  fs::path dir;
  std::vector<std::string> asked;
  const std::vector<std::string> candidates{"3dblock", "3dstencil", "3dblock_rows"};
  const std::array<int, 3> points{34, 34, 34};
};

TEST_F(launch_tuner_test, keeps_the_fastest_and_asks_once_per_kernel_and_size) {
  auto t = tuner(autotune_mode::cached, "cuda: test device");
  const auto seconds = timer({{"3dblock", 3e-3}, {"3dstencil", 1e-3}, {"3dblock_rows", 2e-3}});
  EXPECT_EQ(choose(t, candidates, seconds), "3dstencil");
  EXPECT_EQ(asked.size(), 3u);
  EXPECT_EQ(choose(t, candidates, seconds), "3dstencil");
  EXPECT_EQ(asked.size(), 3u);  // decided for the run
  choose(t, candidates, seconds, {34, 34, 66});
  EXPECT_EQ(asked.size(), 6u);  // another size is another question
  const auto notes = t.take_notes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0],
            "autotune: T::K on 34x34x34 points: 3dstencil (measured: 3dblock 3.000 ms, 3dstencil 1.000 ms, "
            "3dblock_rows 2.000 ms)");
  EXPECT_TRUE(t.take_notes().empty());
}

TEST_F(launch_tuner_test, a_later_run_takes_the_choice_from_the_cache_and_always_measures_again) {
  auto first = tuner(autotune_mode::cached, "cuda: test device");
  choose(first, candidates, timer({{"3dblock", 3e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}}));
  asked.clear();
  auto later = tuner(autotune_mode::cached, "cuda: test device");
  EXPECT_EQ(choose(later, candidates, timer({})), "3dblock_rows");
  EXPECT_TRUE(asked.empty());
  EXPECT_NE(later.take_notes().at(0).find("(cached in "), std::string::npos);
  auto other_device = tuner(autotune_mode::cached, "cuda: another device");
  choose(other_device, candidates, timer({{"3dblock", 1e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}}));
  EXPECT_EQ(asked.size(), 3u);  // measurements hold for one device
  asked.clear();
  auto always = tuner(autotune_mode::always, "cuda: test device");
  EXPECT_EQ(choose(always, candidates, timer({{"3dblock", 1e-3}, {"3dstencil", 4e-3}, {"3dblock_rows", 2e-3}})),
            "3dblock");
  EXPECT_EQ(asked.size(), 3u);
}

TEST_F(launch_tuner_test, a_box_of_the_grid_is_a_question_of_its_own_and_a_cache_entry_of_its_own) {
  auto t = tuner(autotune_mode::cached);
  const auto whole = timer({{"3dblock", 3e-3}, {"3dblock_rows", 1e-3}});
  EXPECT_EQ(choose(t, {"3dblock", "3dblock_rows"}, whole), "3dblock_rows");
  // A rim a few planes deep: the deep pipeline that wins on the whole grid loses there.
  const auto rim = timer({{"3dblock", 1e-5}, {"3dblock_rows", 4e-5}});
  EXPECT_EQ(t.choose("T::K", points, {"3dblock", "3dblock_rows"}, compiled_in, rim, tile{34, 34, 2}).variant, "3dblock");
  EXPECT_EQ(asked.size(), 4u);
  const auto notes = t.take_notes();
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1],
            "autotune: T::K on a 34x34x2 box of 34x34x34 points: 3dblock (measured: 3dblock 0.010 ms, "
            "3dblock_rows 0.040 ms)");
  asked.clear();
  auto later = tuner(autotune_mode::cached);
  EXPECT_EQ(later.choose("T::K", points, {"3dblock", "3dblock_rows"}, compiled_in, timer({}), tile{34, 34, 2}).variant,
            "3dblock");
  EXPECT_EQ(choose(later, {"3dblock", "3dblock_rows"}, timer({})), "3dblock_rows");
  EXPECT_TRUE(asked.empty());  // both from the cache, each under its own key
}

TEST_F(launch_tuner_test, another_list_of_candidates_is_measured_again) {
  auto first = tuner(autotune_mode::cached);
  choose(first, {"3dblock", "3dstencil"}, timer({{"3dblock", 2e-3}, {"3dstencil", 1e-3}}));
  // The same key with another list of candidates is another entry; a list that lost the stored
  // variant (a descriptor changed) finds none and measures.
  asked.clear();
  auto later = tuner(autotune_mode::cached);
  EXPECT_EQ(choose(later, {"3dblock", "3dblock_rows"}, timer({{"3dblock", 2e-3}, {"3dblock_rows", 3e-3}})), "3dblock");
  EXPECT_EQ(asked.size(), 2u);
}

TEST_F(launch_tuner_test, no_measures_nothing_and_a_timer_without_room_keeps_the_first) {
  auto no = tuner(autotune_mode::no);
  bool probed = false;
  const auto c = no.choose("T::K", points, candidates,
                           [&](const std::string&, const shape&) {
                             probed = true;
                             return shape{{64, 4, 4}, 0};
                           },
                           timer({}));
  EXPECT_EQ(c, (launch_choice{"3dblock", {}}));  // the template's own shape
  EXPECT_FALSE(probed);
  EXPECT_TRUE(asked.empty());
  EXPECT_TRUE(no.take_notes().empty());
  EXPECT_FALSE(fs::exists(dir));
  auto cached = tuner(autotune_mode::cached);
  EXPECT_EQ(choose(cached, candidates, timer({{"3dblock", -1}, {"3dstencil", -1}, {"3dblock_rows", -1}})), "3dblock");
  EXPECT_NE(cached.take_notes().at(0).find("not measured: no room for scratch copies"), std::string::npos);
  // One candidate whose tile is compiled in: nothing to choose, nothing measured.
  EXPECT_EQ(choose(cached, {"3dblock"}, timer({})), "3dblock");
  EXPECT_TRUE(cached.take_notes().empty());
}

// Launchers that run any tile of at most 128 x 32 x 64 points, one past that as the largest, the
// descriptor's TILE being 64 x 4 x 4; a launch is fastest at 32 x 16 x 4.
shape host_launcher(const std::string&, const shape& wanted) {
  if (wanted.tile == tile{}) return {{64, 4, 4}, 0};
  const auto& w = wanted.tile;
  return {{std::min(w[0], 128), std::min(w[1], 32), std::min(w[2], 64)}, 0};
}
// OpenCL's launchers: as host_launcher's tiles, one plane ahead of their own, 1 to 4, and, where
// `own_lanes` is set, that many x points a work-item of their own, 1 to 4.
shape opencl_launcher(const std::string& v, const shape& wanted, int own_lanes) {
  auto s = host_launcher(v, wanted);
  s.ahead = wanted.ahead == 0 ? 1 : std::clamp(wanted.ahead, 1, 4);
  s.lanes = own_lanes == 0 ? 0 : wanted.lanes == 0 ? own_lanes : std::clamp(wanted.lanes, 1, 4);
  return s;
}
double seconds_of(const tile& t) {
  const auto off = [](int have, int best) { return std::abs(std::log2(static_cast<double>(have) / best)); };
  return 1e-3 * (1 + 0.2 * off(t[0], 32) + 0.3 * off(t[1], 16) + 0.1 * off(t[2], 4));
}

TEST_F(launch_tuner_test, the_tile_climbs_from_the_descriptors_one_axis_at_a_time_to_the_fastest) {
  auto t = tuner(autotune_mode::cached);
  std::vector<tile> measured;
  const auto time = [&](const launch_choice& c) {
    const tile run = c.shape == shape{} ? host_launcher(c.variant, c.shape).tile : c.shape.tile;
    measured.push_back(run);
    return seconds_of(run) * (c.variant == "3dstencil" ? 1.0 : 1.5);
  };
  const auto c = t.choose("T::K", points, {"3dblock", "3dstencil"}, host_launcher, time);
  EXPECT_EQ(c, (launch_choice{"3dstencil", {{32, 16, 4}, 0}}));
  // The two variants at the descriptor's TILE, the fastest again as the tile it runs, then each
  // neighbour once.
  ASSERT_GT(measured.size(), 3u);
  EXPECT_EQ(measured[2], (tile{64, 4, 4}));
  std::set<tile> distinct(measured.begin() + 3, measured.end());
  EXPECT_EQ(distinct.size(), measured.size() - 3);
  EXPECT_EQ(distinct.count({64, 4, 4}), 0u);
  const auto note = t.take_notes().at(0);
  EXPECT_EQ(note.rfind("autotune: T::K on 34x34x34 points: 3dstencil, tile 32x16x4 (measured: 3dblock 2.700 ms, "
                       "3dstencil 1.800 ms; shapes of 3dstencil from 64x4x4: 64x4x8 1.900 ms, 64x4x2 1.900 ms, "
                       "64x4x5 1.832 ms, 64x4x3 1.842 ms, 128x4x4 2.000 ms, 32x4x4 1.600 ms, ",
                       0),
            0u)
      << note;
  // The next run takes variant and tile from the cache, measuring nothing.
  measured.clear();
  auto later = tuner(autotune_mode::cached);
  EXPECT_EQ(later.choose("T::K", points, {"3dblock", "3dstencil"}, host_launcher, time), c);
  EXPECT_TRUE(measured.empty());
  EXPECT_NE(later.take_notes().at(0).find("3dstencil, tile 32x16x4 (cached in "), std::string::npos);
}

TEST_F(launch_tuner_test, x_and_y_are_traded_where_one_axis_at_a_time_would_lose_first) {
  // A launcher of its own shape 128 x 4 (OpenCL's tensor-copy ring in fp32), at most 1024 points
  // a plane (its local memory: fewer rows where a tile asks more). The times of OpenCL's radius-4
  // ring on an H100 in the large: each single axis from 128 x 4 loses, 64 x 8 and then 64 x 16 win.
  const auto launcher = [](const std::string&, const shape& wanted) -> shape {
    if (wanted.tile == tile{}) return {{128, 4, 64}, 0};
    const int x = std::min(wanted.tile[0], 128);
    return {{x, std::min(wanted.tile[1], 1024 / x), std::min(wanted.tile[2], 64)}, 0};
  };
  const std::map<std::pair<int, int>, double> ms{{{128, 4}, 1.0}, {{64, 4}, 1.1},  {{128, 2}, 1.4},
                                                 {{128, 8}, 1.2}, {{64, 8}, 0.85}, {{64, 16}, 0.75},
                                                 {{32, 16}, 0.8}, {{32, 32}, 0.9}};
  const auto time = [&](const launch_choice& c) {
    const tile run = launcher(c.variant, c.shape).tile;
    const auto known = ms.find({run[0], run[1]});
    return 1e-3 * (known != ms.end() ? known->second : 2.0);
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"3dblock_ring"}, launcher, time).shape.tile, (tile{64, 16, 64}));
  const auto note = t.take_notes().at(0);
  EXPECT_NE(note.find("64x8x64 0.850 ms"), std::string::npos) << note;
  EXPECT_NE(note.find("64x16x64 0.750 ms"), std::string::npos) << note;
}

TEST_F(launch_tuner_test, the_depth_moves_one_plane_at_a_time_where_the_launcher_has_one) {
  // OpenCL's launchers, here fastest at 3 planes ahead, any tile alike.
  const auto device_launcher = [](const std::string& v, const shape& wanted) { return opencl_launcher(v, wanted, 0); };
  std::vector<shape> measured;
  const auto time = [&](const launch_choice& c) {
    const shape run = c.shape == shape{} ? device_launcher(c.variant, c.shape) : c.shape;
    measured.push_back(run);
    return 1e-3 * (1 + 0.1 * std::abs(run.ahead - 3)) * (run.tile == tile{64, 4, 4} ? 1.0 : 1.2);
  };
  auto t = tuner(autotune_mode::cached);
  const auto c = t.choose("T::K", points, {"3dblock"}, device_launcher, time);
  EXPECT_EQ(c, (launch_choice{"3dblock", {{64, 4, 4}, 3}}));
  EXPECT_EQ(std::count(measured.begin(), measured.end(), shape{{64, 4, 4}, 5}), 0);  // past the launcher's 4
  const auto note = t.take_notes().at(0);
  EXPECT_NE(note.find("points: 3dblock, tile 64x4x4, ahead 3 (measured: 3dblock 1.200 ms; shapes of 3dblock from "
                      "64x4x4 ahead 1: "),
            std::string::npos)
      << note;
  auto later = tuner(autotune_mode::cached);
  EXPECT_EQ(later.choose("T::K", points, {"3dblock"}, device_launcher, time), c);
  EXPECT_NE(later.take_notes().at(0).find("3dblock, tile 64x4x4, ahead 3 (cached in "), std::string::npos);
}

TEST_F(launch_tuner_test, the_lanes_halve_and_double_where_the_launcher_has_them) {
  // OpenCL's variants without a local plane, 4 x points a work-item of their own (floats); here
  // fastest at 1, any tile alike.
  const auto device_launcher = [](const std::string& v, const shape& wanted) { return opencl_launcher(v, wanted, 4); };
  std::vector<shape> measured;
  const auto time = [&](const launch_choice& c) {
    const shape run = c.shape == shape{} ? device_launcher(c.variant, c.shape) : c.shape;
    measured.push_back(run);
    return 1e-3 * (1 + 0.1 * run.lanes) * (run.tile == tile{64, 4, 4} && run.ahead == 1 ? 1.0 : 1.2);
  };
  auto t = tuner(autotune_mode::cached);
  const auto c = t.choose("T::K", points, {"3dstencil"}, device_launcher, time);
  EXPECT_EQ(c, (launch_choice{"3dstencil", {{64, 4, 4}, 1, 1}}));
  EXPECT_EQ(std::count(measured.begin(), measured.end(), shape{{64, 4, 4}, 1, 8}), 0);  // past the launcher's 4
  const auto note = t.take_notes().at(0);
  EXPECT_NE(note.find("points: 3dstencil, tile 64x4x4, ahead 1, lanes 1 (measured: 3dstencil 1.400 ms; shapes of "
                      "3dstencil from 64x4x4 ahead 1 lanes 4: "),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("64x4x4 ahead 1 lanes 2 1.200 ms"), std::string::npos) << note;
  measured.clear();
  auto later = tuner(autotune_mode::cached);
  EXPECT_EQ(later.choose("T::K", points, {"3dstencil"}, device_launcher, time), c);
  EXPECT_TRUE(measured.empty());
  EXPECT_NE(later.take_notes().at(0).find("3dstencil, tile 64x4x4, ahead 1, lanes 1 (cached in "), std::string::npos);
}

// A launcher that evens the slabs asked for over 248 planes (CUDA's and OpenCL's radius-4 ring at
// 256^3), its own 5 slabs of 50 planes; x and y compiled in.
shape evening_launcher(const std::string&, const shape& wanted) {
  return {{32, 16, wanted.tile == tile{} ? 50 : opuntia::slab_as_asked(248, wanted.tile[2])}, 0};
}

TEST_F(launch_tuner_test, a_slab_fewer_or_more_is_the_nearest_z_that_runs_as_another_launch) {
  // Fastest in 4 slabs (62 planes), which doubling and halving 50 planes (3 and 10 slabs) miss.
  const std::map<int, double> ms_by_slabs{{5, 1.0}, {4, 0.9}, {3, 1.1}, {2, 1.2}};
  const auto time = [&](const launch_choice& c) {
    const int z = evening_launcher(c.variant, c.shape).tile[2];
    const auto known = ms_by_slabs.find((248 + z - 1) / z);
    return 1e-3 * (known != ms_by_slabs.end() ? known->second : 1.3);
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"3dblock_ring"}, evening_launcher, time).shape.tile, (tile{32, 16, 62}));
  const auto note = t.take_notes().at(0);
  // From 50: 100 planes run as 83 (3 slabs), 25 (10), then one slab fewer (62) and more (42).
  EXPECT_NE(note.find("shapes of 3dblock_ring from 32x16x50: 32x16x83 1.100 ms, 32x16x25 1.300 ms, 32x16x62 0.900 ms, "
                      "32x16x42 1.300 ms"),
            std::string::npos)
      << note;
}

TEST_F(launch_tuner_test, a_z_move_that_gains_is_taken_before_the_other_axes_are_measured) {
  // The evening launcher with x and y free (each a program of its own on OpenCL): 4 slabs fastest,
  // every other x or y slower. From 50 planes the z moves reach 62 (one slab fewer) in the
  // first round and no x or y shape is measured before it; from 62 no z move gains, so the other
  // axes are measured there.
  const auto launcher = [](const std::string& v, const shape& wanted) {
    shape s = evening_launcher(v, wanted);
    if (wanted.tile != tile{}) s.tile = {std::min(wanted.tile[0], 128), std::min(wanted.tile[1], 32), s.tile[2]};
    return s;
  };
  std::vector<tile> measured;
  const auto time = [&](const launch_choice& c) {
    const tile run = launcher(c.variant, c.shape).tile;
    measured.push_back(run);
    const double slabs = (248 + run[2] - 1) / run[2];
    return 1e-3 * (run[0] == 32 && run[1] == 16 ? (slabs == 4 ? 0.85 : slabs == 3 ? 0.95 : 1.0) : 1.2);
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"3dblock_ring"}, launcher, time).shape.tile, (tile{32, 16, 62}));
  const auto at_62 = std::find(measured.begin(), measured.end(), tile{32, 16, 62});
  const auto first_other = std::find_if(measured.begin(), measured.end(), [](const tile& r) { return r[0] != 32 || r[1] != 16; });
  ASSERT_NE(first_other, measured.end());
  EXPECT_LT(at_62, first_other);
  const auto note = t.take_notes().at(0);
  EXPECT_NE(note.find("shapes of 3dblock_ring from 32x16x50: 32x16x83 0.950 ms, 32x16x25 1.000 ms, 32x16x62 0.850 ms, "
                      "32x16x42 1.000 ms, 32x16x124 1.000 ms, 32x16x31 1.000 ms, 64x16x62 1.200 ms"),
            std::string::npos)
      << note;
}

TEST_F(launch_tuner_test, a_box_keeps_its_own_launch_where_no_shape_gains) {
  // On a box the own launch cuts the box's columns (CUDA's), where the start the probe says for
  // the whole grid, asked for, runs slower: that one is neither measured for the own nor kept.
  const auto time = [&](const launch_choice& c) {
    if (c.shape == shape{}) return 1.0e-3;
    return c.shape.tile == tile{32, 16, 50} ? 2.0e-3 : 1.5e-3;
  };
  auto t = tuner(autotune_mode::always);
  const auto c = t.choose("T::K", points, {"3dblock_ring"}, evening_launcher, time, tile{34, 34, 2});
  EXPECT_EQ(c, (launch_choice{"3dblock_ring", shape{}}));
  EXPECT_EQ(t.take_notes().at(0).find("2.000 ms"), std::string::npos);
}

TEST_F(launch_tuner_test, a_cached_tile_the_launcher_no_longer_runs_is_measured_again) {
  auto first = tuner(autotune_mode::cached);
  const auto time = [&](const launch_choice& c) {
    asked.push_back(c.variant);
    return seconds_of(c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile);
  };
  first.choose("T::K", points, {"3dblock"}, host_launcher, time);
  asked.clear();
  // A launcher that now runs at most 16 rows (another device's limit) turns 32x16x4 into another tile.
  const auto narrower = [](const std::string& v, const shape& wanted) {
    auto t = host_launcher(v, wanted);
    t.tile[1] = std::min(t.tile[1], 8);
    return t;
  };
  auto later = tuner(autotune_mode::cached);
  const auto c = later.choose("T::K", points, {"3dblock"}, narrower, time);
  EXPECT_FALSE(asked.empty());
  EXPECT_EQ(c.shape.tile[1], 8);
}

TEST_F(launch_tuner_test, an_entry_whose_words_are_no_choice_is_measured_again) {
  const auto time = [&](const launch_choice& c) {
    asked.push_back(c.variant);
    return seconds_of(c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile);
  };
  auto first = tuner(autotune_mode::cached);
  first.choose("T::K", points, {"3dblock"}, host_launcher, time);
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);  // the entry and CACHEDIR.TAG
  fs::path entry;
  for (const auto& f : fs::directory_iterator(dir)) {
    if (f.path().extension() == ".clbin") entry = f.path();
  }
  // Whole entries (their checksums match) whose words name no variant and tile.
  for (const std::string words : {"3dblock 64 x 4", "3dblock 0 4 4", "3dblock 64 4", "3dblock 64 4 4 0 9", "", "3dblock -64 4 4 0", "3dblock 64 4 4 -1"}) {
    opuntia::thorns::CaKernel::program_cache(dir).store(entry.stem().string(),
                                                        std::vector<unsigned char>(words.begin(), words.end()));
    asked.clear();
    auto later = tuner(autotune_mode::cached);
    EXPECT_EQ(later.choose("T::K", points, {"3dblock"}, host_launcher, time).variant, "3dblock") << words;
    EXPECT_FALSE(asked.empty()) << "'" << words << "' was taken as a choice";
  }
}

TEST_F(launch_tuner_test, a_move_must_gain_three_percent_and_the_search_stops_at_its_time) {
  // 2% faster at 128 x 4 x 4, slower everywhere else: the descriptor's TILE stays.
  const auto time = [&](const launch_choice& c) {
    const tile run = c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile;
    return run == tile{64, 4, 4} ? 1e-3 : run == tile{128, 4, 4} ? 0.98e-3 : 2e-3;
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"3dblock"}, host_launcher, time).shape.tile, (tile{64, 4, 4}));
  // No time for the search: the variants alone, with the descriptor's TILE, and the note says so.
  auto hurried = tuner(autotune_mode::always, "d", 0);
  int launches = 0;
  const auto counted = [&](const launch_choice& c) {
    ++launches;
    return seconds_of(c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile);
  };
  EXPECT_EQ(hurried.choose("T::K", {40, 40, 40}, {"3dblock"}, host_launcher, counted).shape.tile, (tile{64, 4, 4}));
  EXPECT_EQ(launches, 1);
  EXPECT_NE(hurried.take_notes().at(0).find("none other (CaKernel::autotune_seconds = 0 reached)"), std::string::npos);
  // Time running out in a round keeps the fastest tile found in it.
  auto short_of_time = tuner(autotune_mode::always, "d", 0.05);
  const auto slow = [&](const launch_choice& c) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return c.shape.tile == tile{64, 4, 8} ? 0.5e-3 : 1e-3;
  };
  EXPECT_EQ(short_of_time.choose("T::K", {50, 50, 50}, {"3dblock"}, host_launcher, slow).shape.tile, (tile{64, 4, 8}));
  EXPECT_NE(short_of_time.take_notes().at(0).find("reached"), std::string::npos);
  // A search time past what the clock counts (1e300 s, "no limit") searches as long as moves gain;
  // it wrapped into the past, and nothing was searched.
  for (const double seconds : {9.3e9, 1e300}) {
    auto unhurried = tuner(autotune_mode::always, "d", seconds);
    EXPECT_NE(unhurried.choose("T::K", {40, 40, 40}, {"3dblock"}, host_launcher, counted).shape.tile, (tile{64, 4, 4}))
        << seconds;  // moved towards 32 x 16 x 4, seconds_of's fastest
    EXPECT_EQ(unhurried.take_notes().at(0).find("reached"), std::string::npos) << seconds;
  }
}

TEST_F(launch_tuner_test, a_plateau_is_looked_past_once_before_the_search_ends) {
  // OpenCL's radius-4 ring in fp64 at 256^3 on an H100, in the large: its own 64 x 4 two planes
  // ahead; 32 x 8 (x and y traded) 2% faster, too little to be kept; 32 x 8 three planes ahead
  // 10% faster than the own shape. Everything else 20% slower.
  const auto device_launcher = [](const std::string& v, const shape& wanted) {
    return wanted == shape{} ? shape{{64, 4, 4}, 2} : opencl_launcher(v, wanted, 0);
  };
  std::vector<shape> measured;
  const auto time = [&](const launch_choice& c) {
    const shape run = device_launcher(c.variant, c.shape);
    measured.push_back(run);
    if (run == shape{{64, 4, 4}, 2}) return 1.0e-3;
    if (run == shape{{32, 8, 4}, 2}) return 0.98e-3;
    if (run == shape{{32, 8, 4}, 3}) return 0.9e-3;
    return 1.2e-3;
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"3dblock_ring"}, device_launcher, time),
            (launch_choice{"3dblock_ring", {{32, 8, 4}, 3}}));
  // From there the search goes on as from any shape: its neighbours measured, none gaining, the
  // fastest of them (20% slower) no plateau. No shape is measured twice after the first round.
  EXPECT_EQ(std::count(measured.begin(), measured.end(), shape{{32, 8, 4}, 3}), 1);
  EXPECT_EQ(std::set<shape>(measured.begin() + 2, measured.end()).size(), measured.size() - 2);

  // A plateau whose neighbours gain nothing over the current shape: the own shape stays.
  measured.clear();
  const auto flat = [&](const launch_choice& c) {
    const shape run = device_launcher(c.variant, c.shape);
    measured.push_back(run);
    return run == shape{{64, 4, 4}, 2} ? 1.0e-3 : run == shape{{32, 8, 4}, 2} ? 1.01e-3 : 1.2e-3;
  };
  auto u = tuner(autotune_mode::always);
  EXPECT_EQ(u.choose("T::K", points, {"3dblock_ring"}, device_launcher, flat).shape, (shape{{64, 4, 4}, 2}));
  EXPECT_NE(std::find(measured.begin(), measured.end(), shape{{16, 16, 4}, 2}), measured.end());  // 32 x 8's neighbour
}

TEST_F(launch_tuner_test, the_shapes_of_every_variant_near_the_fastest_are_searched) {
  // a: fastest with the descriptor's TILE, no faster shape. b: 10% slower there, 10% faster than
  // a in slabs of 8 planes. c: 20% slower there (not searched), though fastest of all in slabs of 8.
  std::map<std::string, int> launches;
  const auto time = [&](const launch_choice& c) {
    ++launches[c.variant];
    const tile run = c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile;
    const bool descriptors = run == tile{64, 4, 4}, deeper = run == tile{64, 4, 8};
    if (c.variant == "a") return descriptors ? 1.0e-3 : 1.05e-3;
    if (c.variant == "b") return descriptors ? 1.1e-3 : deeper ? 0.9e-3 : 1.2e-3;
    return descriptors ? 1.2e-3 : deeper ? 0.5e-3 : 1.3e-3;
  };
  auto t = tuner(autotune_mode::always);
  EXPECT_EQ(t.choose("T::K", points, {"a", "b", "c"}, host_launcher, time), (launch_choice{"b", {{64, 4, 8}, 0}}));
  EXPECT_EQ(launches["c"], 1);
  EXPECT_GT(launches["b"], 2);
  const auto note = t.take_notes().at(0);
  EXPECT_NE(note.find("; shapes of a from 64x4x4: "), std::string::npos) << note;
  EXPECT_NE(note.find("; shapes of b from 64x4x4: "), std::string::npos) << note;
  EXPECT_LT(note.find("shapes of a"), note.find("shapes of b")) << note;  // the fastest first
  EXPECT_EQ(note.find("shapes of c"), std::string::npos) << note;

  // Another variant's shape must gain three percent over the choice so far: b 2% faster than a.
  const auto close = [&](const launch_choice& c) {
    const tile run = c.shape == shape{} ? tile{64, 4, 4} : c.shape.tile;
    if (c.variant == "a") return run == tile{64, 4, 4} ? 1.0e-3 : 1.05e-3;
    return run == tile{64, 4, 8} ? 0.98e-3 : 1.05e-3;
  };
  auto u = tuner(autotune_mode::always);
  EXPECT_EQ(u.choose("T::K", points, {"a", "b"}, host_launcher, close), (launch_choice{"a", {{64, 4, 4}, 0}}));
}

TEST_F(launch_tuner_test, modes_are_read_from_their_keyword) {
  using opuntia::thorns::CaKernel::autotune_mode_of;
  EXPECT_EQ(autotune_mode_of("no"), autotune_mode::no);
  EXPECT_EQ(autotune_mode_of("cached"), autotune_mode::cached);
  EXPECT_EQ(autotune_mode_of("always"), autotune_mode::always);
  EXPECT_THROW(autotune_mode_of("sometimes"), std::invalid_argument);
}

}  // namespace
