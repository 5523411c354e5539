#include <gtest/gtest.h>

#include "ccl/parse.hpp"
#include "parse_test_support.hpp"

namespace opuntia::ccl {
namespace {

using test::dump;
using test::error_text;
using test::first_line;
using test::fixture;
using test::input;
using test::repeated;
using test::to_crlf;

std::string errors(const std::string& text) { return error_text(parse_schedule_ccl, "t/schedule.ccl", text); }

schedule_file parse(const std::string& text) { return parse_schedule_ccl(source_file{"t/schedule.ccl", text}); }

TEST(parse_schedule, reads_the_cacuda_fixture) {
  const auto file = parse_schedule_ccl(fixture("schedule.ccl"));
  const std::string tree = dump(file);
  // The head of the file: storage, the conditional initial data and the first groups.
  EXPECT_EQ(tree.substr(0, tree.find("schedule 25:1")),
            "storage 3:1 velocity@3:10 pressure@3:20 psolver_step@3:30\n"
            "if 5:1 (CCTK_Equals(initial_data, \"lid_driven_cavity\"))\n"
            "  schedule 7:3 CACUDACFD3D_Init_LDC@7:12 in CCTK_INITIAL@7:36 \"Initialize with the lid-driven cavity "
            "initial data\"\n"
            "    LANG@9:5: C@9:11\n"
            "else\n"
            "schedule 16:1 group Update_Velocity@16:16 in CCTK_EVOL@16:35 \"Update Velocity\"\n"
            "schedule 20:1 CAKERNEL_Launch_Update_Velocity@20:10 in Update_Velocity@20:45 \"Launch CaCUDA Kernel "
            "Update_Velocity\"\n"
            "  LANG@22:3: C@22:9\n");
  EXPECT_NE(tree.find("schedule 44:1 group Update_Pressure_Iterator@44:16 in Update_Pressure@44:44 while "
                      "CaCUDACFD3DWOMOL::psolver_step@46:10 after CaCUDACFD3D_Pressure_Solver_Iterator_Start@45:9 "
                      "\"Iteratively Launch CaCUDA Kernel Update_Pressure\"\n"),
            std::string::npos);
  EXPECT_NE(tree.find("  SYNC@70:3: velocity@70:9 pressure@70:19\n"), std::string::npos);
  EXPECT_NE(tree.find("  TRIGGERS@82:3: velocity@82:13 pressure@82:23\n"), std::string::npos);
  // The routines after the NUL byte line are read too.
  EXPECT_NE(tree.find("schedule 103:1 CaCUDA_AllocDevMem@103:10 in CaCUDA_AllocMem@103:32 \"Allocate memory for "
                      "variables on devices\"\n  LANG@105:11: C@105:17\n"),
            std::string::npos);
  EXPECT_EQ(file.statements.size(), 18u);
}

TEST(parse_schedule, description_glued_to_the_brace_and_continued_lines) {
  const auto file = parse_schedule_ccl(fixture("schedule.ccl"));
  const auto& item = file.statements[4].item;  // CAKERNEL_Launch_Update_Boundaries, over two lines
  EXPECT_EQ(item.name.text, "CAKERNEL_Launch_Update_Boundaries");
  EXPECT_EQ(item.placement, "in");
  EXPECT_EQ(item.target.text, "Update_Velocity");
  EXPECT_EQ(dump(item.after), "CAKERNEL_Launch_Update_Velocity@26:9");
  EXPECT_EQ(item.description, "Launch CaCUDA Kernel Update_Boundaries after Updating Velocity");
}

TEST(parse_schedule, crlf_fixture_gives_the_same_tree) {
  const auto lf = fixture("schedule.ccl");
  EXPECT_EQ(dump(parse_schedule_ccl(source_file{lf.path, to_crlf(lf.text)})), dump(parse_schedule_ccl(lf)));
}

TEST(parse_schedule, empty_file_is_an_empty_tree) {
  EXPECT_TRUE(parse("").statements.empty());
  EXPECT_TRUE(parse("\n# comment only\n").statements.empty());
}

TEST(parse_schedule, reads_a_realistic_thorn) {
  const auto file = parse_schedule_ccl(input("wavetoy_schedule.ccl"));
  EXPECT_EQ(dump(file),
            "storage 3:1 scalarevolve[3]@3:10 state@3:26\n"
            "storage 4:1 coefficients[num_levels]@4:10 wavetoy::modes@4:36\n"
            "schedule 6:1 WaveToy_Startup@6:10 at STARTUP@6:29 \"Register banner\"\n"
            "  LANG@8:3: C@8:9\n"
            "  OPTIONS@9:3: meta@9:12\n"
            "if 12:1 (CCTK_Equals(initial_data, \"gaussian\"))\n"
            "  schedule 14:3 WaveToy_Gaussian@14:12 at initial@14:32 as WaveToy_InitialData before "
            "MoL_PostStep@14:71 WaveToy_Boundaries@14:85 after WaveToy_Setup@14:111 \"Gaussian initial data\"\n"
            "    LANG@16:5: C@16:11\n"
            "    WRITES@17:5: wavetoy::phi(interior)@17:13 wavetoy::u(everywhere)@17:36\n"
            "    READS@18:5: grid::coordinates@18:12\n"
            "    SYNC@19:5: scalarevolve@19:11\n"
            "else\n"
            "  if 22:6 (CCTK_Equals(initial_data, \"plane\") && amplitude > 0)\n"
            "    schedule 24:3 WaveToy_Plane@24:12 at initial@24:29 \"Plane wave\"\n"
            "      LANG@24:39: C@24:45\n"
            "      SYNC@24:48: state@24:54\n"
            "  else\n"
            "    if 28:3 (!CCTK_Equals(initial_data,\"none\"))\n"
            "      schedule 29:5 WaveToy_Zero@29:14 at initial@29:30 \"Zero data\"\n"
            "        LANG@31:7: C@31:13\n"
            "    else\n"
            "      storage 34:5 energy@34:14\n"
            "schedule 38:1 group WaveToy_Evolve@38:16 in MoL_CalcRHS@38:34 while wavetoy::keep_going@38:52 until "
            "wavetoy::done@38:79 if wavetoy::active@38:97 \"Evolution loop\"\n"
            "schedule 42:1 WaveToy_RHS@42:10 in WaveToy_Evolve@42:25 \"Calculate the RHS\"\n"
            "  LANG@44:3: Fortran@44:9\n"
            "  READS@45:3: ustate(everywhere)@45:10\n"
            "  WRITES@46:3: urhs(interior)@46:11\n"
            "  SYNC@47:3: urhs@47:9\n"
            "  TAGS@49:3: Device=yes@49:9 checkpoint=\"no\"@49:20\n"
            "  INVALIDATES@50:3: wavetoy::energy@50:16\n"
            "schedule 53:1 WaveToy_Boundaries@53:10 in MoL_PostStep@53:32 before WaveToy_ApplyBCs@54:12 after "
            "WaveToy_RHS@54:36 MoL_Add@54:48 \"Select boundary conditions\"\n"
            "  LANG@56:3: C@56:9\n"
            "  OPTION@57:3: level@57:11 loop-local@57:17\n"
            "  STORAGE@58:3: coefficients[2]@58:12\n"
            "  TRIGGERS@59:3: scalarevolve@59:13\n"
            "  SYNCS@60:3: scalarevolve@60:10 state@60:24\n"
            "schedule 63:1 group ApplyBCs@63:16 in MoL_PostStep@63:48 as WaveToy_ApplyBCs after "
            "WaveToy_Boundaries@63:67 \"Apply boundary conditions\"\n"
            "schedule 67:1 WaveToy_Terminate@67:10 at CCTK_TERMINATE@67:31 \"Free memory\"\n"
            "  LANG@69:3: C@69:9\n"
            "  TRIGGER@70:3: state@70:12\n");
}

TEST(parse_schedule, crlf_realistic_thorn_gives_the_same_tree) {
  const auto lf = input("wavetoy_schedule.ccl");
  EXPECT_EQ(dump(parse_schedule_ccl(source_file{lf.path, to_crlf(lf.text)})), dump(parse_schedule_ccl(lf)));
}

TEST(parse_schedule, keeps_while_condition_without_parentheses) {
  const auto file = parse("schedule group Loop IN CCTK_EVOL while (impl::step)\n{\n} \"loop\"\n");
  ASSERT_EQ(file.statements.size(), 1u);
  EXPECT_EQ(dump(file.statements[0].item.while_vars), "impl::step@1:41");
  EXPECT_TRUE(file.statements[0].item.is_group);
}

TEST(parse_schedule, storage_keeps_timelevels_and_parameter_counts) {
  const auto file = parse("STORAGE: a, b[3] c[num_tl]\n");
  ASSERT_EQ(file.statements.size(), 1u);
  EXPECT_EQ(file.statements[0].what, schedule_statement_syntax::kind::storage);
  EXPECT_EQ(dump(file.statements[0].storage), "a@1:10 b[3]@1:13 c[num_tl]@1:18");
}

TEST(parse_schedule, else_if_nests_a_conditional_in_the_else_branch) {
  const auto file = parse("if (a) { STORAGE: x\n} else if (b) {\n STORAGE: y\n} else { STORAGE: z\n}\n");
  ASSERT_EQ(file.statements.size(), 1u);
  const auto& outer = file.statements[0];
  EXPECT_EQ(outer.condition, "a");
  ASSERT_EQ(outer.else_branch.size(), 1u);
  const auto& inner = outer.else_branch[0];
  EXPECT_EQ(inner.what, schedule_statement_syntax::kind::conditional);
  EXPECT_EQ(inner.condition, "b");
  EXPECT_EQ(dump(inner.then_branch[0].storage), "y@3:11");
  EXPECT_EQ(dump(inner.else_branch[0].storage), "z@4:19");
}

TEST(parse_schedule, reports_a_missing_bin_after_in) {
  EXPECT_EQ(errors("schedule foo IN\n{\n} \"d\"\n"),
            "t/schedule.ccl:1:16: error: expected a bin or group name after AT or IN; found end of line\n"
            "schedule foo IN\n"
            "               ^\n");
}

TEST(parse_schedule, a_description_missing_its_closing_quote_is_named_where_the_parse_fails) {
  EXPECT_EQ(errors("schedule A AT CCTK_EVOL\n{\n  LANG: C\n} \"first\n\nschedule B AT CCTK_EVOL\n{\n  LANG: C\n} "
                   "\"second\"\n"),
            "t/schedule.ccl:9:4: error: expected 'schedule', 'STORAGE:' or 'if'; found 'second'; the string opened at "
            "line 4, column 3 closes only on this line: is its closing quote missing?\n"
            "} \"second\"\n"
            "   ^\n");
}

TEST(parse_schedule, reports_an_unknown_clause_with_the_nearest_names) {
  EXPECT_EQ(errors("schedule foo IN bar\n{\n  LANG: C\n  SYNCC: x\n} \"d\"\n"),
            "t/schedule.ccl:4:3: error: unknown schedule clause 'SYNCC'; did you mean 'SYNC' or 'SYNCS'? (known: "
            "LANG, STORAGE, TRIGGER, TRIGGERS, SYNC, SYNCS, OPTION, OPTIONS, TAGS, READS, WRITES, INVALIDATES)\n"
            "  SYNCC: x\n"
            "  ^\n");
}

TEST(parse_schedule, reports_unbalanced_if_parentheses) {
  EXPECT_EQ(errors("if (CCTK_Equals(a, \"b\")\n{\n}\n"),
            "t/schedule.ccl:1:24: error: expected ')' to close the condition opened at line 1, column 4; found end "
            "of line\n"
            "if (CCTK_Equals(a, \"b\")\n"
            "                       ^\n");
}

TEST(parse_schedule, reports_an_unterminated_schedule_block) {
  EXPECT_EQ(errors("schedule foo IN bar\n{\n  LANG: C\n"),
            "t/schedule.ccl:3:10: error: expected '}' to close the schedule block opened at line 2, column 1; found "
            "end of file\n"
            "  LANG: C\n"
            "         ^\n");
}

TEST(parse_schedule, reports_an_unterminated_if_block) {
  EXPECT_EQ(errors("if (x) {\n  schedule foo IN bar { LANG: C }\n"),
            "t/schedule.ccl:2:34: error: expected '}' to close the block opened at line 1, column 8; found end of "
            "file\n"
            "  schedule foo IN bar { LANG: C }\n"
            "                                 ^\n");
}

TEST(parse_schedule, reports_an_unterminated_description) {
  EXPECT_EQ(errors("schedule foo IN bar\n{\n  LANG: C\n} \"unterminated\n"),
            "t/schedule.ccl:4:3: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "} \"unterminated\n"
            "  ^\n");
}

TEST(parse_schedule, reports_a_stray_token_at_top_level) {
  EXPECT_EQ(errors("schedule foo IN bar\n{\n  LANG: C\n}\n}\n"),
            "t/schedule.ccl:5:1: error: expected 'schedule', 'STORAGE:' or 'if'; found '}'\n"
            "}\n"
            "^\n");
}

TEST(parse_schedule, reports_a_missing_name_after_after) {
  EXPECT_EQ(errors("schedule foo IN bar AFTER\n{\n}\n"),
            "t/schedule.ccl:2:1: error: expected a routine name or '(' and a list of names; found '{'\n"
            "{\n"
            "^\n");
}

TEST(parse_schedule, reports_a_misspelled_placement) {
  EXPECT_EQ(errors("schedule foo INTO bar\n{\n}\n"),
            "t/schedule.ccl:1:14: error: expected AT or IN; found 'INTO'\n"
            "schedule foo INTO bar\n"
            "             ^\n");
}

TEST(parse_schedule, reports_else_without_a_block) {
  EXPECT_EQ(errors("if (x) {\n} else schedule\n"),
            "t/schedule.ccl:2:8: error: expected 'if' or '{' after else; found 'schedule'\n"
            "} else schedule\n"
            "       ^\n");
}

TEST(parse_schedule, if_statements_nest_256_levels_deep) {
  EXPECT_EQ(errors(repeated("if (a) {\n", 256) + repeated("}\n", 256)), "no error");
}

TEST(parse_schedule, reports_if_statements_nested_too_deeply) {
  // 20,000 used to overflow the stack of `check --thorn` and `generate` in the schedule emitter.
  EXPECT_EQ(errors(repeated("if (a) {\n", 20000)),
            "t/schedule.ccl:257:1: error: if statements nested deeper than 256 levels (each 'else if' is one more)\n"
            "if (a) {\n"
            "^\n");
  EXPECT_EQ(first_line(errors(repeated("if (a) {\n} else ", 300) + "{\n}\n")),
            "t/schedule.ccl:257:8: error: if statements nested deeper than 256 levels (each 'else if' is one more)");
}

TEST(parse_schedule, reports_parentheses_nested_too_deeply) {
  EXPECT_EQ(first_line(errors("if (" + repeated("(", 100000) + "\n")),
            "t/schedule.ccl:1:260: error: parentheses nested deeper than 256 levels");
  EXPECT_EQ(first_line(errors("schedule foo IN bar\n{\n  OPTIONS: a" + repeated("(", 100000) + "\n")),
            "t/schedule.ccl:3:269: error: parentheses nested deeper than 256 levels");
}

TEST(parse_schedule, counts_if_statements_and_parentheses_apart) {
  // 256 if statements, each condition two parentheses deep: valid (the limit is per kind).
  const std::string open = "if (CCTK_Equals(a, \"b\")) {\n";
  const std::string body = "STORAGE: x\n";
  EXPECT_EQ(errors(repeated(open, 256) + body + repeated("}\n", 256)), "no error");
  EXPECT_EQ(errors(to_crlf(repeated(open, 256) + body + repeated("}\n", 256))), "no error");
  // One more if statement: the message names if statements, not parentheses.
  EXPECT_EQ(first_line(errors(repeated(open, 257) + body + repeated("}\n", 257))),
            "t/schedule.ccl:257:1: error: if statements nested deeper than 256 levels (each 'else if' is one more)");
  // Parentheses two-deep per condition never add up across the if statements.
  EXPECT_EQ(errors(repeated("if ((((a)))) {\n", 200) + body + repeated("}\n", 200)), "no error");
}

TEST(parse_schedule, reports_a_schedule_block_left_open) {
  const std::string text = "schedule A IN CCTK_EVOL\n{\n  LANG: C\n\nschedule B IN CCTK_EVOL\n{\n  LANG: C\n} \"b\"\n";
  EXPECT_EQ(errors(text),
            "t/schedule.ccl:5:1: error: expected '}' to close the schedule block opened at line 2, column 1; found "
            "'schedule'\nschedule B IN CCTK_EVOL\n^\n");
  EXPECT_EQ(errors(to_crlf(text)), errors(text));
  // A description before the brace, and an if statement after the block.
  EXPECT_EQ(first_line(errors("schedule A IN CCTK_EVOL\n{\n  LANG: C\n\"a\"\n")),
            "t/schedule.ccl:4:1: error: expected '}' to close the schedule block opened at line 2, column 1; found "
            "'\"'");
  EXPECT_EQ(first_line(errors("schedule A IN CCTK_EVOL\n{\n  LANG: C\n  if (x) { }\n")),
            "t/schedule.ccl:4:3: error: expected '}' to close the schedule block opened at line 2, column 1; found "
            "'if'");
  // A misspelt clause is still an unknown clause.
  EXPECT_EQ(first_line(errors("schedule A IN CCTK_EVOL\n{\n  LANGG: C\n}\n")).substr(0, 58),
            "t/schedule.ccl:3:3: error: unknown schedule clause 'LANGG'");
}

}  // namespace
}  // namespace opuntia::ccl
