#include "flesh/grid/grid_functions.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "opuntia/binding.hpp"
#include "opuntia/grid.hpp"

namespace {

using opuntia::grid_function_store;
using opuntia::grid_layout;
using opuntia::grid_variable;
using opuntia::group_binding;
using opuntia::thorn_binding;

group_binding group(std::string name, std::vector<std::string> variables, std::string timelevels = "1",
                    std::string group_type = "GF", std::string data_type = "CCTK_REAL") {
  group_binding g;
  g.name = std::move(name);
  g.data_type = *opuntia::ccl::enum_named<opuntia::data_type>(opuntia::ccl::data_type_names, data_type);
  g.group_type = *opuntia::ccl::enum_named<opuntia::group_type>(opuntia::ccl::group_type_names, group_type);
  g.access = "public";
  g.timelevels = std::move(timelevels);
  g.variables = std::move(variables);
  return g;
}

grid_layout layout(int ni = 5, int nj = 4, int nk = 3) {
  grid_layout l;
  l.global = {ni, nj, nk};
  l.local = {ni, nj, nk};
  l.delta = {0.1, 0.1, 0.1};
  return l;
}

/// HeatEquation (implementation heat): evolved {u} with three levels, a scalar and an int group.
/// Analysis (implementation analysis) inherits heat and has its own `u`.
/// Other (implementation other) sees nothing of heat.
struct two_thorns {
  grid_function_store store;
  grid_layout grid = layout();

  two_thorns() {
    thorn_binding heat;
    heat.name = "HeatEquation";
    heat.implementation = "heat";
    heat.groups.push_back(group("evolved", {"u"}, "3"));
    heat.groups.push_back(group("scratch_vars", {"w"}));
    heat.groups.push_back(group("energy", {"total_energy"}, "1", "SCALAR"));
    heat.groups.push_back(group("flags", {"mask"}, "1", "GF", "CCTK_INT"));
    store.add_thorn(heat, grid);

    thorn_binding analysis;
    analysis.name = "Analysis";
    analysis.implementation = "analysis";
    analysis.inherits = {"heat"};
    analysis.groups.push_back(group("own_u", {"u"}));
    analysis.groups.push_back(group("norms", {"norm"}, "1", "SCALAR"));
    store.add_thorn(analysis, grid);

    thorn_binding other;
    other.name = "Other";
    other.implementation = "other";
    other.groups.push_back(group("stuff", {"v"}));
    store.add_thorn(other, grid);
  }
};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return {};
}

CCTK_REAL* real_data(grid_function_store& s, grid_variable& v, int level = 0) {
  return static_cast<CCTK_REAL*>(s.data(v, level));
}

// --- storage -------------------------------------------------------------------------------

TEST(grid_function_store, storage_is_off_until_enable_storage) {
  two_thorns t;
  auto& u = t.store.find("HeatEquation", "u");
  EXPECT_TRUE(u.levels.empty());
  EXPECT_EQ(u.count, t.grid.points());
  EXPECT_EQ(u.timelevels, 3);
  EXPECT_THROW(t.store.data(u), std::invalid_argument);
  t.store.enable_storage("HeatEquation", "evolved");
  ASSERT_EQ(u.levels.size(), 3u);
  for (int l = 0; l < 3; ++l) {
    ASSERT_NE(t.store.data(u, l), nullptr);
    EXPECT_EQ(u.levels[static_cast<std::size_t>(l)].bytes(), t.grid.points() * sizeof(CCTK_REAL));
  }
  // Other groups stay off.
  EXPECT_TRUE(t.store.find("HeatEquation", "w").levels.empty());
}

TEST(grid_function_store, reading_without_storage_names_the_storage_fix) {
  two_thorns t;
  auto& u = t.store.find("HeatEquation", "u");
  const auto message = message_of([&] { t.store.data(u); });
  EXPECT_NE(message.find("heat::u"), std::string::npos) << message;
  EXPECT_NE(message.find("STORAGE: evolved"), std::string::npos) << message;
  EXPECT_NE(message.find("HeatEquation"), std::string::npos) << message;
}

TEST(grid_function_store, new_storage_is_zeroed) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  for (int l = 0; l < 3; ++l) {
    const auto* p = real_data(t.store, u, l);
    for (std::size_t i = 0; i < u.count; ++i) ASSERT_EQ(p[i], 0.0);
  }
}

TEST(grid_function_store, level_out_of_range_throws) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  EXPECT_THROW(t.store.data(u, 3), std::invalid_argument);
  EXPECT_THROW(t.store.data(u, -1), std::invalid_argument);
  const auto message = message_of([&] { t.store.data(u, 3); });
  EXPECT_NE(message.find("3 time level(s)"), std::string::npos) << message;
}

TEST(grid_function_store, enabling_storage_twice_keeps_the_buffers) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  auto* before = real_data(t.store, u);
  before[2] = 7.0;
  t.store.enable_storage("HeatEquation", "evolved[3]");
  EXPECT_EQ(real_data(t.store, u), before);
  EXPECT_EQ(real_data(t.store, u)[2], 7.0);
}

TEST(grid_function_store, group_with_level_count_enables_the_group) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved[3]");
  EXPECT_EQ(t.store.find("HeatEquation", "u").levels.size(), 3u);
}

TEST(grid_function_store, implementation_qualified_group_enables_the_group) {
  two_thorns t;
  t.store.enable_storage("Other", "heat::evolved");
  EXPECT_EQ(t.store.find("HeatEquation", "u").levels.size(), 3u);
  // Analysis' own u is a different variable.
  EXPECT_TRUE(t.store.find("Analysis", "u").levels.empty());
}

TEST(grid_function_store, qualified_group_with_levels_enables_the_group) {
  two_thorns t;
  t.store.enable_storage("Other", "heat::evolved[2]");
  EXPECT_FALSE(t.store.find("HeatEquation", "u").levels.empty());
}

TEST(grid_function_store, inherited_group_is_enabled_from_the_inheriting_thorn) {
  two_thorns t;
  t.store.enable_storage("Analysis", "scratch_vars");
  EXPECT_FALSE(t.store.find("HeatEquation", "w").levels.empty());
}

TEST(grid_function_store, group_is_matched_case_insensitively) {
  two_thorns t;
  t.store.enable_storage("heatequation", "EVOLVED");
  EXPECT_FALSE(t.store.find("HeatEquation", "u").levels.empty());
}

TEST(grid_function_store, unknown_group_throws_naming_the_nearest) {
  two_thorns t;
  const auto message = message_of([&] { t.store.enable_storage("HeatEquation", "evolvd"); });
  EXPECT_NE(message.find("unknown group 'evolvd'"), std::string::npos) << message;
  EXPECT_NE(message.find("HeatEquation"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean"), std::string::npos) << message;
  EXPECT_NE(message.find("evolved"), std::string::npos) << message;
}

TEST(grid_function_store, unknown_qualified_group_throws_naming_the_nearest) {
  two_thorns t;
  const auto message = message_of([&] { t.store.enable_storage("Other", "heat::evolvd"); });
  EXPECT_NE(message.find("unknown group 'heat::evolvd'"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean"), std::string::npos) << message;
  EXPECT_NE(message.find("heat::evolved"), std::string::npos) << message;
}

TEST(grid_function_store, group_of_an_unrelated_thorn_is_unknown_unqualified) {
  two_thorns t;
  // Other neither owns nor inherits heat: `evolved` alone does not reach it.
  EXPECT_THROW(t.store.enable_storage("Other", "evolved"), std::invalid_argument);
  EXPECT_TRUE(t.store.find("HeatEquation", "u").levels.empty());
}

// --- lookup --------------------------------------------------------------------------------

TEST(grid_function_store, finds_own_variables_first) {
  two_thorns t;
  auto& u = t.store.find("Analysis", "u");
  EXPECT_EQ(u.thorn, "Analysis");
  EXPECT_EQ(u.group, "own_u");
  EXPECT_EQ(t.store.find("HeatEquation", "u").thorn, "HeatEquation");
}

TEST(grid_function_store, finds_inherited_variables) {
  two_thorns t;
  auto& w = t.store.find("Analysis", "w");
  EXPECT_EQ(w.thorn, "HeatEquation");
  EXPECT_EQ(&w, &t.store.find("HeatEquation", "w"));
}

TEST(grid_function_store, finds_qualified_variables_from_any_thorn) {
  two_thorns t;
  EXPECT_EQ(t.store.find("Analysis", "heat::u").thorn, "HeatEquation");
  EXPECT_EQ(t.store.find("Other", "heat::u").thorn, "HeatEquation");
  EXPECT_EQ(t.store.find("Other", "HeatEquation::u").thorn, "HeatEquation");  // the thorn name qualifies too
  EXPECT_EQ(t.store.find("HeatEquation", "analysis::u").thorn, "Analysis");
}

TEST(grid_function_store, lookup_is_case_insensitive) {
  two_thorns t;
  EXPECT_EQ(t.store.find("heatequation", "U").thorn, "HeatEquation");
  EXPECT_EQ(t.store.find("Other", "HEAT::U").thorn, "HeatEquation");
}

TEST(grid_function_store, variables_of_unrelated_thorns_are_not_visible_unqualified) {
  two_thorns t;
  EXPECT_EQ(t.store.try_find("Other", "u"), nullptr);
  EXPECT_EQ(t.store.try_find("HeatEquation", "v"), nullptr);
  EXPECT_EQ(t.store.try_find("HeatEquation", "norm"), nullptr);  // Analysis inherits heat, not the reverse
  EXPECT_NE(t.store.try_find("Other", "v"), nullptr);
}

TEST(grid_function_store, wrong_qualifier_finds_nothing) {
  two_thorns t;
  EXPECT_EQ(t.store.try_find("HeatEquation", "other::u"), nullptr);
}

TEST(grid_function_store, unknown_variable_throws_naming_the_nearest) {
  two_thorns t;
  const auto message = message_of([&] { t.store.find("HeatEquation", "total_enrgy"); });
  EXPECT_NE(message.find("unknown grid function 'total_enrgy'"), std::string::npos) << message;
  EXPECT_NE(message.find("HeatEquation"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean"), std::string::npos) << message;
  EXPECT_NE(message.find("total_energy"), std::string::npos) << message;
}

TEST(grid_function_store, unknown_qualified_variable_throws_naming_the_nearest) {
  two_thorns t;
  const auto message = message_of([&] { t.store.find("Other", "heat::total_enrgy"); });
  EXPECT_NE(message.find("did you mean"), std::string::npos) << message;
  EXPECT_NE(message.find("heat::total_energy"), std::string::npos) << message;
}

TEST(grid_function_store, unknown_variable_far_from_everything_has_no_suggestion) {
  two_thorns t;
  const auto message = message_of([&] { t.store.find("HeatEquation", "completely_unrelated_name"); });
  EXPECT_NE(message.find("unknown grid function"), std::string::npos) << message;
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
}

TEST(grid_function_store, variables_named_finds_a_variable_or_a_group) {
  two_thorns t;
  const auto names = [](const std::vector<grid_variable*>& vs) {
    std::vector<std::string> out;
    for (const auto* v : vs) out.push_back(v->implementation + "::" + v->name);
    return out;
  };
  EXPECT_EQ(names(t.store.variables_named("Other", "heat::u")), std::vector<std::string>{"heat::u"});
  EXPECT_EQ(names(t.store.variables_named("Other", "heat::evolved")), std::vector<std::string>{"heat::u"});
  EXPECT_EQ(names(t.store.variables_named("Analysis", "own_u")), std::vector<std::string>{"analysis::u"});
  // A variable before a group of the same name: Analysis's own `u` (its group is own_u).
  EXPECT_EQ(names(t.store.variables_named("Analysis", "u")), std::vector<std::string>{"analysis::u"});
  EXPECT_EQ(names(t.store.variables_named("Analysis", "w")), std::vector<std::string>{"heat::w"});
}

TEST(grid_function_store, variables_named_refuses_a_name_naming_the_nearest_variables_and_groups) {
  two_thorns t;
  EXPECT_EQ(message_of([&] { t.store.variables_named("Other", "heat::evolvd"); }),
            "unknown grid function or group 'heat::evolvd' in thorn Other; did you mean 'heat::evolved'?");
  EXPECT_EQ(message_of([&] { t.store.variables_named("Other", "heat::mask2"); }),
            "unknown grid function or group 'heat::mask2' in thorn Other; did you mean 'heat::mask'?");
  EXPECT_EQ(message_of([&] { t.store.variables_named("HeatEquation", "total_enrgy"); }),
            "unknown grid function or group 'total_enrgy' in thorn HeatEquation; did you mean 'total_energy'?");
  EXPECT_EQ(message_of([&] { t.store.variables_named("Other", "u"); }),
            "unknown grid function or group 'u' in thorn Other; did you mean 'heat::u' or 'analysis::u'?");
}

TEST(grid_function_store, variables_carry_their_declaration) {
  two_thorns t;
  const auto& u = t.store.find("HeatEquation", "u");
  EXPECT_EQ(u.implementation, "heat");
  EXPECT_EQ(u.group, "evolved");
  EXPECT_EQ(u.group_type, opuntia::group_type::gf);
  EXPECT_EQ(u.data_type, opuntia::data_type::cctk_real);
  EXPECT_EQ(t.store.variables().size(), 7u);
}

TEST(grid_function_store, non_numeric_timelevels_fall_back_to_one) {
  grid_function_store store;
  thorn_binding th;
  th.name = "T";
  th.implementation = "t";
  th.groups.push_back(group("g", {"a"}, "num_levels"));
  th.groups.push_back(group("h", {"b"}, "0"));
  store.add_thorn(th, layout());
  EXPECT_EQ(store.find("T", "a").timelevels, 1);
  EXPECT_EQ(store.find("T", "b").timelevels, 1);
}

// --- time levels ---------------------------------------------------------------------------

TEST(grid_function_store, rotates_time_levels_oldest_becomes_current) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  void* p0 = t.store.data(u, 0);
  void* p1 = t.store.data(u, 1);
  void* p2 = t.store.data(u, 2);
  ASSERT_NE(p0, p1);
  ASSERT_NE(p1, p2);
  ASSERT_NE(p0, p2);
  for (int l = 0; l < 3; ++l) {
    auto* p = real_data(t.store, u, l);
    for (std::size_t i = 0; i < u.count; ++i) p[i] = 100.0 * l + static_cast<CCTK_REAL>(i);
  }

  t.store.rotate_timelevels();
  EXPECT_EQ(t.store.data(u, 1), p0);  // level 0 -> 1
  EXPECT_EQ(t.store.data(u, 2), p1);  // level 1 -> 2
  EXPECT_EQ(t.store.data(u, 0), p2);  // the oldest buffer is reused as level 0
  for (std::size_t i = 0; i < u.count; ++i) {
    const auto x = static_cast<CCTK_REAL>(i);
    ASSERT_EQ(real_data(t.store, u, 1)[i], 0.0 + x);
    ASSERT_EQ(real_data(t.store, u, 2)[i], 100.0 + x);
    ASSERT_EQ(real_data(t.store, u, 0)[i], 200.0 + x);  // stale: the old level 2
  }

  // Twice more: back where it started.
  t.store.rotate_timelevels();
  EXPECT_EQ(t.store.data(u, 0), p1);
  EXPECT_EQ(t.store.data(u, 1), p2);
  EXPECT_EQ(t.store.data(u, 2), p0);
  t.store.rotate_timelevels();
  EXPECT_EQ(t.store.data(u, 0), p0);
  EXPECT_EQ(t.store.data(u, 1), p1);
  EXPECT_EQ(t.store.data(u, 2), p2);
}

TEST(grid_function_store, rotation_with_two_levels_swaps_them) {
  grid_function_store store;
  thorn_binding th;
  th.name = "T";
  th.implementation = "t";
  th.groups.push_back(group("g", {"a"}, "2"));
  store.add_thorn(th, layout());
  store.enable_storage("T", "g");
  auto& a = store.find("T", "a");
  void* p0 = store.data(a, 0);
  void* p1 = store.data(a, 1);
  store.rotate_timelevels();
  EXPECT_EQ(store.data(a, 0), p1);
  EXPECT_EQ(store.data(a, 1), p0);
}

TEST(grid_function_store, rotation_leaves_single_level_and_storageless_variables_alone) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "scratch_vars");
  auto& w = t.store.find("HeatEquation", "w");
  void* p = t.store.data(w);
  real_data(t.store, w)[0] = 3.0;
  t.store.rotate_timelevels();  // u has no storage: must not throw or allocate
  EXPECT_EQ(t.store.data(w), p);
  EXPECT_EQ(real_data(t.store, w)[0], 3.0);
  EXPECT_TRUE(t.store.find("HeatEquation", "u").levels.empty());
}

// --- scratch buffer ------------------------------------------------------------------------

TEST(grid_function_store, scratch_is_a_copy_of_level_zero_on_first_use) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  auto* level0 = real_data(t.store, u);
  for (std::size_t i = 0; i < u.count; ++i) level0[i] = 1.5 * static_cast<CCTK_REAL>(i);

  auto* scratch = static_cast<CCTK_REAL*>(t.store.scratch(u));
  ASSERT_NE(scratch, nullptr);
  EXPECT_NE(static_cast<void*>(scratch), static_cast<void*>(level0));
  EXPECT_EQ(std::memcmp(scratch, level0, u.count * sizeof(CCTK_REAL)), 0);

  // Later calls return the same buffer without copying again.
  level0[0] = -9.0;
  scratch[1] = 42.0;
  EXPECT_EQ(t.store.scratch(u), static_cast<void*>(scratch));
  EXPECT_EQ(scratch[0], 0.0);
  EXPECT_EQ(scratch[1], 42.0);
}

TEST(grid_function_store, scratch_without_storage_throws) {
  two_thorns t;
  auto& u = t.store.find("HeatEquation", "u");
  EXPECT_THROW(t.store.scratch(u), std::invalid_argument);
}

TEST(grid_function_store, swap_with_scratch_exchanges_level_zero_and_scratch) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "evolved");
  auto& u = t.store.find("HeatEquation", "u");
  void* level0 = t.store.data(u, 0);
  void* level1 = t.store.data(u, 1);
  auto* scratch = static_cast<CCTK_REAL*>(t.store.scratch(u));
  scratch[0] = 5.0;
  real_data(t.store, u)[0] = 1.0;

  t.store.swap_with_scratch(u);
  EXPECT_EQ(t.store.data(u, 0), static_cast<void*>(scratch));
  EXPECT_EQ(t.store.scratch(u), level0);
  EXPECT_EQ(t.store.data(u, 1), level1);  // other levels untouched
  EXPECT_EQ(real_data(t.store, u)[0], 5.0);
  EXPECT_EQ(static_cast<CCTK_REAL*>(t.store.scratch(u))[0], 1.0);

  t.store.swap_with_scratch(u);
  EXPECT_EQ(t.store.data(u, 0), level0);
  EXPECT_EQ(t.store.scratch(u), static_cast<void*>(scratch));
}

// --- layout and types ----------------------------------------------------------------------

TEST(grid_function_store, buffers_are_64_byte_aligned) {
  grid_function_store store;
  thorn_binding th;
  th.name = "T";
  th.implementation = "t";
  th.groups.push_back(group("g", {"a", "b", "c"}, "3"));
  th.groups.push_back(group("s", {"x"}, "2", "SCALAR"));
  th.groups.push_back(group("i", {"n"}, "1", "GF", "CCTK_INT"));
  store.add_thorn(th, layout(7, 3, 5));  // 105 points: not a multiple of 64 bytes
  for (const char* g : {"g", "s", "i"}) store.enable_storage("T", g);
  for (auto& v : store.variables()) {
    for (int l = 0; l < v.timelevels; ++l) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(store.data(v, l)) % 64, 0u) << v.name << " level " << l;
    }
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(store.scratch(v)) % 64, 0u) << v.name << " scratch";
  }
}

TEST(grid_function_store, scalar_groups_hold_one_value) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "energy");
  auto& e = t.store.find("HeatEquation", "total_energy");
  EXPECT_EQ(e.group_type, opuntia::group_type::scalar);
  EXPECT_EQ(e.count, 1u);
  ASSERT_EQ(e.levels.size(), 1u);
  EXPECT_EQ(e.levels[0].bytes(), sizeof(CCTK_REAL));
  *real_data(t.store, e) = 2.5;
  EXPECT_EQ(*real_data(t.store, e), 2.5);
}

TEST(grid_function_store, int_groups_use_int_storage) {
  two_thorns t;
  t.store.enable_storage("HeatEquation", "flags");
  auto& mask = t.store.find("HeatEquation", "mask");
  static_assert(sizeof(CCTK_INT) == sizeof(int));
  EXPECT_EQ(mask.data_type, opuntia::data_type::cctk_int);
  EXPECT_EQ(mask.element_size(), sizeof(CCTK_INT));
  EXPECT_EQ(mask.count, t.grid.points());
  EXPECT_EQ(mask.levels[0].bytes(), t.grid.points() * sizeof(CCTK_INT));
  auto* p = static_cast<CCTK_INT*>(t.store.data(mask));
  for (std::size_t i = 0; i < mask.count; ++i) p[i] = static_cast<CCTK_INT>(i) - 7;
  EXPECT_EQ(p[mask.count - 1], static_cast<CCTK_INT>(mask.count) - 8);
  // The scratch buffer has the same element type and size.
  auto* s = static_cast<CCTK_INT*>(t.store.scratch(mask));
  EXPECT_EQ(mask.scratch.bytes(), mask.count * sizeof(CCTK_INT));
  EXPECT_EQ(s[3], -4);
}

// --- point counts and memory needs -------------------------------------------------------

TEST(grid_layout, point_count_refuses_products_that_overflow_an_index) {
  EXPECT_EQ(opuntia::point_count({5, 4, 3}), 60u);
  EXPECT_EQ(opuntia::point_count({609, 36760123, 823996703}), std::nullopt);   // unchecked: wraps to a few points
  EXPECT_EQ(opuntia::point_count({4194304, 2097152, 2097152}), std::nullopt);  // 2^64: wraps to 0
  EXPECT_EQ(opuntia::point_count({2097152, 2097152, 2097151}), 2097152ull * 2097152 * 2097151);  // below 2^63
  EXPECT_EQ(opuntia::point_count({2097152, 2097152, 2097152}), std::nullopt);  // 2^63: past ptrdiff_t
  EXPECT_EQ(opuntia::point_count({-1, 2, 2}), std::nullopt);
}

TEST(grid_layout, points_throws_where_the_count_overflows) {
  EXPECT_THROW(static_cast<void>(layout(609, 36760123, 823996703).points()), std::overflow_error);
}

TEST(memory_need, counts_every_level_and_scratch_buffer) {
  two_thorns t;  // 60 points
  opuntia::memory_need need;
  EXPECT_TRUE(need.empty());
  need.add(t.store.find("HeatEquation", "u"), 3, true);
  need.add(t.store.find("HeatEquation", "mask"), 1, false);
  EXPECT_FALSE(need.empty());
  EXPECT_EQ(need.bytes(), 60.0 * sizeof(CCTK_REAL) * 4 + 60.0 * sizeof(CCTK_INT));
  EXPECT_EQ(need.largest_array(), 60.0 * sizeof(CCTK_REAL));
  EXPECT_EQ(need.arrays(), "2 variables with 4 time levels in all and 1 scratch buffer");
  EXPECT_TRUE(t.store.find("HeatEquation", "u").levels.empty());  // counted, not allocated
}

TEST(memory_need, says_variables_x_levels_when_every_variable_has_as_many) {
  two_thorns t;
  opuntia::memory_need one;
  one.add(t.store.find("HeatEquation", "w"), 1, false);
  EXPECT_EQ(one.arrays(), "1 variable x 1 time level");
  opuntia::memory_need two;
  two.add(t.store.find("HeatEquation", "u"), 2, true);
  two.add(t.store.find("HeatEquation", "w"), 2, true);
  EXPECT_EQ(two.arrays(), "2 variables x 2 time levels and 2 scratch buffers");
}

TEST(memory_need, counts_bytes_beyond_size_t_without_wrapping) {
  grid_variable huge;
  huge.data_type = opuntia::data_type::cctk_real;
  huge.count = std::size_t{1} << 62;
  opuntia::memory_need need;
  need.add(huge, 3, true);
  EXPECT_EQ(need.bytes(), 0x1p62 * sizeof(CCTK_REAL) * 4);
}

TEST(byte_text, uses_the_largest_binary_unit_below_the_value) {
  EXPECT_EQ(opuntia::byte_text(1), "1 byte");
  EXPECT_EQ(opuntia::byte_text(100), "100 bytes");
  EXPECT_EQ(opuntia::byte_text(1024), "1.0 KiB");
  EXPECT_EQ(opuntia::byte_text(12.3 * 0x1p30), "12.3 GiB");
  EXPECT_EQ(opuntia::byte_text(1.6e16), "14.2 PiB");
  EXPECT_EQ(opuntia::byte_text(0x1p90), "1024.0 YiB");
}

TEST(field_buffer, default_is_empty_and_sized_buffer_is_not) {
  opuntia::field_buffer empty;
  EXPECT_FALSE(empty);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.bytes(), 0u);
  opuntia::field_buffer b(10, sizeof(double));
  EXPECT_TRUE(b);
  EXPECT_EQ(b.bytes(), 80u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);
}

TEST(field_buffer, zero_elements_still_allocates_an_aligned_block) {
  opuntia::field_buffer b(0, sizeof(double));
  EXPECT_TRUE(b);
  EXPECT_EQ(b.bytes(), 0u);
}

}  // namespace
