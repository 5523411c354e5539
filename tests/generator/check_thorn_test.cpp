// check_thorn on inputs that must pass: what the checks of schedule.ccl, interface.ccl and
// param.ccl added for the audit leave alone (the errors are golden cases, err_* under cases/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "ccl/diagnostic.hpp"
#include "generator/file_io.hpp"
#include "generator/semantic/thorn_model.hpp"

namespace opuntia::gen {
namespace {

namespace fs = std::filesystem;

/// A thorn Heat in a fresh folder: HeatEquation's files, `changes` replacing whole files.
fs::path write_thorn(const std::string& test, const std::map<std::string, std::string>& changes) {
  const fs::path dir = fs::temp_directory_path() / ("opuntia_check_thorn_test_" + test) / "Heat";
  fs::remove_all(dir.parent_path());
  fs::create_directories(dir / "src");
  std::map<std::string, std::string> files{
      {"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF TIMELEVELS=1 { u } \"t\"\n"},
      {"param.ccl", "restricted:\nCCTK_REAL alpha \"thermal diffusivity\"\n{\n  (0:* :: \"positive\"\n} 1.0\n"},
      {"schedule.ccl", "STORAGE: temperature\nschedule CAKERNEL_Launch_Heat_Update IN CCTK_EVOL\n{\n  LANG: C\n"
                       "  SYNC: temperature\n} \"step\"\n"},
      {"cakernel.ccl", "CCTK_KERNEL Heat_Update TYPE=*/3dblock\n{\n  CCTK_KERNEL_VARIABLE cached=yes "
                       "intent=separateinout { u }\n  CCTK_KERNEL_PARAMETER { alpha }\n}\n"},
      {"src/Heat_Update.kernel", "CAKERNEL_Heat_Update_Begin\nCAKERNEL_Heat_Update_Computations_Begin\n"
                                 "  I3D(u_out, 0, 0, 0) = I3D_l(u, 0, 0, 0);\nCAKERNEL_Heat_Update_Computations_End\n"
                                 "CAKERNEL_Heat_Update_End\n"}};
  for (const auto& [name, text] : changes) files[name] = text;
  for (const auto& [name, text] : files) std::ofstream(dir / name, std::ios::binary) << text;
  return dir;
}

/// The diagnostics of checking the thorn, or "" when it passes.
std::string check(const fs::path& dir, thorn_model* model = nullptr) {
  const auto sources = read_thorn(dir);
  try {
    auto thorn = check_thorn(sources, {sources});
    if (model != nullptr) *model = std::move(thorn);
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "";
}

TEST(check_thorn, the_base_thorn_passes) { EXPECT_EQ(check(write_thorn("base", {})), ""); }

TEST(check_thorn, many_time_levels_are_counted_right) {
  // TIMELEVELS=100 lets a kernel read u_p; the count is read whole (it was taken as 1).
  const auto dir = write_thorn("levels", {
      {"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF TIMELEVELS=100 { u, w }\n"
                        "CCTK_REAL two TYPE=GF TIMELEVELS=2 GHOSTSIZE=0 DIM=3 { v }\n"},
      {"cakernel.ccl", "CCTK_KERNEL Heat_Update TYPE=*/3dblock\n{\n  CCTK_KERNEL_VARIABLE intent=in { u_p, v_p }\n"
                       "  CCTK_KERNEL_VARIABLE intent=out { w }\n}\n"},
      {"src/Heat_Update.kernel", "CAKERNEL_Heat_Update_Begin\nCAKERNEL_Heat_Update_Computations_Begin\n"
                                 "  I3D(w, 0, 0, 0) = I3D(u_p, 0, 0, 0) + I3D(v_p, 0, 0, 0);\n"
                                 "CAKERNEL_Heat_Update_Computations_End\nCAKERNEL_Heat_Update_End\n"}});
  thorn_model model;
  EXPECT_EQ(check(dir, &model), "");
  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.kernels[0].variables.at(0).timelevels, 100);
  const auto broken = write_thorn("levels_broken", {
      {"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF TIMELEVELS=100 { u }\n"},
      {"cakernel.ccl", "CCTK_KERNEL Heat_Update TYPE=*/3dblock\n{\n  CCTK_KERNEL_VARIABLE intent=in { " +
                           [] {
                             std::string name = "u";
                             for (int i = 0; i < 100; ++i) name += "_p";
                             return name;
                           }() +
                           " }\n}\n"}});
  EXPECT_NE(check(broken).find("group 'temperature' has TIMELEVELS=100"), std::string::npos) << check(broken);
}

/// Whether each variable of the kernel of a thorn whose Heat_Update body is `body`, with
/// `variables` as its CCTK_KERNEL_VARIABLE lines, is written_at_centre ("u out: yes, ...").
std::string written_at_centre(const std::string& test, const std::string& variables, const std::string& body) {
  const auto dir = write_thorn(
      test, {{"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF TIMELEVELS=1 "
                               "{ u, v, w } \"t\"\n"},
             {"cakernel.ccl", "CCTK_KERNEL Heat_Update TYPE=*/3dblock STENCIL=\"1,1,1,1,1,1\"\n{\n" + variables + "}\n"},
             {"src/Heat_Update.kernel", "CAKERNEL_Heat_Update_Begin\nCAKERNEL_Heat_Update_Computations_Begin\n" + body +
                                            "CAKERNEL_Heat_Update_Computations_End\nCAKERNEL_Heat_Update_End\n"}});
  thorn_model model;
  const auto errors = check(dir, &model);
  if (!errors.empty()) return errors;
  std::string out;
  for (const auto& v : model.kernels.at(0).variables)
    out += (out.empty() ? "" : ", ") + v.name + ": " + (v.written_at_centre ? "yes" : "no");
  return out;
}

TEST(check_thorn, a_buffer_written_only_at_the_point_computed_is_written_at_centre) {
  const std::string in_out = "  CCTK_KERNEL_VARIABLE cached=yes intent=in { u }\n  CCTK_KERNEL_VARIABLE intent=out { v }\n"
                             "  CCTK_KERNEL_VARIABLE intent=inout { w }\n";
  EXPECT_EQ(written_at_centre("centre", in_out,
                              "I3D(v, 0, 0, 0) = I3D_l(u, 1, 0, 0);\nI3D(w, 0, 0, 0) += I3D(v, 0, 0, 0) + I3D(u, 0, 1, 0);\n"),
            "u: no, v: yes, w: yes");
  // an inout variable read off the point, a neighbour written
  EXPECT_EQ(written_at_centre("off_centre", in_out, "I3D(v, -1 + 1, 0, 0) = I3D(w, 0, 0, 1);\nI3D(w, 0, 0, 0) = 1;\n"),
            "u: no, v: yes, w: no");
  EXPECT_EQ(written_at_centre("not_constant", in_out, "const int i = 0;\nI3D(v, i, 0, 0) = 1;\nI3D(w, 0, 0, 0) = 1;\n"),
            "u: no, v: no, w: yes");
  // a macro may reach any buffer through I3D, an included file anything; I3D_l only cached ones
  EXPECT_EQ(written_at_centre("macro_i3d", in_out, "#define W(x) I3D(x, 1, 0, 0)\nI3D(v, 0, 0, 0) = I3D(w, 0, 0, 0);\n"),
            "u: no, v: no, w: no");
  EXPECT_EQ(written_at_centre("include", in_out, "#include \"terms.h\"\nI3D(v, 0, 0, 0) = I3D(w, 0, 0, 0);\n"),
            "u: no, v: no, w: no");
  EXPECT_EQ(written_at_centre("macro_i3d_l",
                              "  CCTK_KERNEL_VARIABLE cached=yes intent=in { u }\n  CCTK_KERNEL_VARIABLE intent=out { v }\n"
                              "  CCTK_KERNEL_VARIABLE cached=yes intent=inout { w }\n",
                              "#define D(x) I3D_l(x, 1, 0, 0)\nI3D(v, 0, 0, 0) = D(u);\nI3D(w, 0, 0, 0) = 1;\n"),
            "u: no, v: yes, w: no");
  // separateinout: the second buffer, which the kernel writes
  EXPECT_EQ(written_at_centre("separate", "  CCTK_KERNEL_VARIABLE cached=yes intent=separateinout { u }\n",
                              "I3D(u_out, 0, 0, 0) = I3D_l(u, 1, 0, 0) + I3D(u, 0, 0, -1);\n"),
            "u: yes");
  EXPECT_EQ(written_at_centre("separate_off", "  CCTK_KERNEL_VARIABLE cached=yes intent=separateinout { u }\n",
                              "I3D(u_out, 0, 0, 0) = I3D(u_out, 1, 0, 0);\n"),
            "u: no");
}

TEST(check_thorn, a_description_ending_in_a_backslash_is_trimmed_for_comments) {
  thorn_model model;
  EXPECT_EQ(check(write_thorn("backslash", {{"param.ccl", "restricted:\nCCTK_REAL alpha \"rate\\\\\"\n{\n"
                                                          "  (0:* :: \"positive\"\n} 1.0\n"}}),
                  &model),
            "");
  ASSERT_EQ(model.params.parameters.size(), 1u);
  EXPECT_EQ(model.params.parameters[0].description, "rate");
}

TEST(check_thorn, schedule_names_that_may_be_elsewhere_pass) {
  // BEFORE/AFTER of routines not in this thorn, a group of a thorn not given (far from every
  // bin), qualified and inherited-style names of the thorn itself, and one item in both branches
  // of an if whose condition reads a parameter of the thorn's own (param.ccl as write_thorn writes it).
  const auto dir = write_thorn("schedule", {
      {"interface.ccl", "implements: heatequation\npublic:\nCCTK_REAL temperature TYPE=GF { u }\n"
                        "CCTK_INT going TYPE=SCALAR\nCCTK_REAL weight TYPE=SCALAR\n"},
      {"schedule.ccl", "STORAGE: HeatEquation::temperature[1], going\n"
                       "schedule GROUP Heat_Loop IN CCTK_EVOL WHILE (heatequation::going) BEFORE NoSuch AFTER (A B)\n"
                       "{\n} \"loop\"\n"
                       "schedule CAKERNEL_Launch_Heat_Update IN Heat_Loop IF going\n{\n  LANG: C\n"
                       "  SYNC: heatequation::temperature\n  STORAGE: weight\n} \"step\"\n"
                       "schedule Heat_Free IN CaCUDA_Shutdown { LANG: Fortran } \"x\"\n"
                       "if (alpha > 0.5 && HeatEquation::alpha < 2) {\n  schedule Heat_Init AT INITIAL { LANG: C } \"i\"\n} else {\n"
                       "  schedule Heat_Init AT CCTK_INITIAL { LANG: C } \"i\"\n}\n"},
      {"cakernel.ccl", "CCTK_KERNEL Heat_Update TYPE=*/3dblock\n{\n  CCTK_KERNEL_VARIABLE cached=yes "
                       "intent=separateinout { u }\n  CCTK_KERNEL_PARAMETER { alpha, weight }\n}\n"}});
  EXPECT_EQ(check(dir), "");
}

}  // namespace
}  // namespace opuntia::gen
