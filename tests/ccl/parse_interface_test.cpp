#include <gtest/gtest.h>

#include "ccl/parse.hpp"
#include "parse_test_support.hpp"

namespace opuntia::ccl {
namespace {

using test::dump;
using test::error_text;
using test::fixture;
using test::input;
using test::to_crlf;

std::string errors(const std::string& text) { return error_text(parse_interface_ccl, "t/interface.ccl", text); }

TEST(parse_interface, reads_the_cacuda_fixture) {
  const auto file = parse_interface_ccl(fixture("interface.ccl"));
  EXPECT_EQ(file.path, fixture("interface.ccl").path);
  EXPECT_EQ(dump(file),
            "implements cacudacfd3dwomol@2:13\n"
            "inherits \n"
            "friends \n"
            "group 6:1 0 REAL velocity@6:11 [] type@6:20=gf@6:25 timelevels@6:28=1@6:39 {vx@8:3 vy@8:7 vz@8:11} "
            "\"velocity u^i\"\n"
            "group 11:1 0 REAL pressure@11:11 [] type@11:20=gf@11:25 timelevels@11:28=1@11:39 {p@13:3} "
            "\"pressure p\"\n"
            "group 17:1 2 INT psolver_step@17:10 [] type@17:23=scalar@17:28 timelevels@17:35=1@17:46 no-list {} "
            "\"\"\n");
}

TEST(parse_interface, empty_inherits_list_is_followed_by_an_access_line) {
  const auto file = parse_interface_ccl(fixture("interface.ccl"));
  EXPECT_TRUE(file.inherits.empty());
  ASSERT_EQ(file.groups.size(), 3u);
  EXPECT_EQ(file.groups[0].access, access_level::public_access);
  EXPECT_EQ(file.groups[2].access, access_level::private_access);
  EXPECT_FALSE(file.groups[2].has_variable_list);
  EXPECT_EQ(file.groups[0].where, (source_location{file.path, 6, 1}));
}

TEST(parse_interface, crlf_fixture_gives_the_same_tree) {
  const auto lf = fixture("interface.ccl");
  const source_file crlf{lf.path, to_crlf(lf.text)};
  EXPECT_EQ(dump(parse_interface_ccl(crlf)), dump(parse_interface_ccl(lf)));
}

TEST(parse_interface, empty_file_is_an_empty_tree) {
  const auto file = parse_interface_ccl(source_file{"e/interface.ccl", ""});
  EXPECT_EQ(file.implements.text, "");
  EXPECT_TRUE(file.groups.empty());
  EXPECT_TRUE(file.functions.empty());
  EXPECT_TRUE(file.includes.empty());
  EXPECT_TRUE(parse_interface_ccl(source_file{"e/interface.ccl", "  # only a comment\n\n"}).groups.empty());
}

TEST(parse_interface, reads_a_realistic_thorn) {
  const auto file = parse_interface_ccl(input("wavetoy_interface.ccl"));
  EXPECT_EQ(file.implements.text, "wavetoy");
  EXPECT_EQ(dump(file.inherits), "grid@4:11 boundary@4:17 Driver@4:26");
  EXPECT_EQ(dump(file.friends), "admbase@5:9");
  ASSERT_EQ(file.groups.size(), 8u);

  const auto& state = file.groups[1];
  EXPECT_EQ(state.data_type, "REAL");
  EXPECT_EQ(state.name.text, "state");
  EXPECT_EQ(find_key(state.options, "centering")->value.text, "{vvv}");
  EXPECT_EQ(find_key(state.options, "TAGS")->value.text, "rhs=\"rhs\" dependents=\"energy error\"");
  EXPECT_EQ(state.description, "Scalar wave state");
  EXPECT_EQ(dump(state.variables), "u@36:3 rho@37:3");

  const auto& coefficients = file.groups[2];
  EXPECT_EQ(coefficients.access, access_level::protected_access);
  EXPECT_EQ(coefficients.vector_size, "3");
  EXPECT_EQ(find_key(coefficients.options, "SIZE")->value.text, "nx+1,ny");
  EXPECT_EQ(find_key(coefficients.options, "GHOSTSIZE")->value.text, "0,0");
  EXPECT_EQ(dump(coefficients.variables), "c@41:90");
  EXPECT_EQ(coefficients.description, "Vector group");

  EXPECT_EQ(file.groups[3].data_type, "COMPLEX");
  EXPECT_EQ(dump(file.groups[3].variables), "mode_re@43:3 mode_im@43:12");
  EXPECT_EQ(file.groups[5].data_type, "REAL8");
  EXPECT_EQ(find_key(file.groups[5].options, "type")->value.text, "scalar");
  EXPECT_EQ(file.groups[5].description, "total energy");
  EXPECT_EQ(file.groups[6].data_type, "POINTER");
  EXPECT_EQ(file.groups[7].data_type, "INT4");

  ASSERT_EQ(file.functions.size(), 8u);
  EXPECT_EQ(file.functions[0].kind, "function");
  EXPECT_EQ(file.functions[0].return_type, "CCTK_INT");
  EXPECT_EQ(file.functions[0].name, "Boundary_SelectVarForBC");
  EXPECT_EQ(file.functions[0].arguments,
            "CCTK_POINTER_TO_CONST IN GH, CCTK_INT IN faces, CCTK_INT IN boundary_width, CCTK_INT IN "
            "table_handle, CCTK_STRING IN var_name, CCTK_STRING IN bc_name");
  EXPECT_EQ(file.functions[1].kind, "requires");
  EXPECT_EQ(file.functions[3].kind, "uses");
  EXPECT_EQ(file.functions[3].name, "GetRefinementLevel");
  EXPECT_EQ(file.functions[4].return_type, "void");
  EXPECT_EQ(file.functions[4].arguments,
            "CCTK_REAL ARRAY OUT values, CCTK_INT CCTK_FPOINTER IN callback(CCTK_INT IN a)");
  EXPECT_EQ(file.functions[5].kind, "provides");
  EXPECT_EQ(file.functions[5].provider, "WaveToy_Interpolate");
  EXPECT_EQ(file.functions[5].language, "C");
  EXPECT_EQ(file.functions[6].name, "WaveToy_Report");
  EXPECT_EQ(file.functions[7].name, "WaveToy_DomainSize");
  EXPECT_EQ(file.functions[7].arguments, "CCTK_INT IN patch, CCTK_REAL OUT ARRAY extent");

  ASSERT_EQ(file.includes.size(), 4u);
  EXPECT_EQ(file.includes[0].kind, "uses header");
  EXPECT_EQ(file.includes[0].file, "loop_device.hxx");
  EXPECT_EQ(file.includes[1].kind, "uses");
  EXPECT_EQ(file.includes[2].kind, "includes source");
  EXPECT_EQ(file.includes[2].target, "Boundary.c");
  EXPECT_EQ(file.includes[3].file, "wavetoy.h");
  EXPECT_EQ(file.includes[3].target, "WaveToy.h");
}

TEST(parse_interface, crlf_realistic_thorn_gives_the_same_tree) {
  const auto lf = input("wavetoy_interface.ccl");
  EXPECT_EQ(dump(parse_interface_ccl(source_file{lf.path, to_crlf(lf.text)})), dump(parse_interface_ccl(lf)));
}

TEST(parse_interface, keywords_ignore_case_and_braces_may_share_a_line) {
  const auto file = parse_interface_ccl(
      source_file{"t/interface.ccl", "Implements: a\nPUBLIC:\nreal g type=GF { x y, z } \"d\"\n"});
  ASSERT_EQ(file.groups.size(), 1u);
  EXPECT_EQ(file.groups[0].access, access_level::public_access);
  EXPECT_EQ(dump(file.groups[0].variables), "x@3:18 y@3:20 z@3:23");
}

TEST(parse_interface, reports_an_unterminated_variable_list) {
  EXPECT_EQ(errors("implements: x\nCCTK_REAL v TYPE=GF\n{\n  a, b\n"),
            "t/interface.ccl:4:7: error: expected '}' to close the variable list opened at line 3, column 1; "
            "found end of file\n"
            "  a, b\n"
            "      ^\n");
}

TEST(parse_interface, reports_an_unknown_group_option_with_the_nearest_name) {
  EXPECT_EQ(errors("CCTK_REAL v TYPE=GF TIMELEVEL=3\n{ a }\n"),
            "t/interface.ccl:1:21: error: unknown group option 'TIMELEVEL'; did you mean 'TIMELEVELS'? (known: "
            "TYPE, DIM, TIMELEVELS, SIZE, DISTRIB, GHOSTSIZE, STAGGER, TAGS, CENTERING)\n"
            "CCTK_REAL v TYPE=GF TIMELEVEL=3\n"
            "                    ^\n");
}

TEST(parse_interface, reports_a_bad_group_type) {
  EXPECT_EQ(errors("CCTK_REAL v TYPE=grid\n{ a }\n"),
            "t/interface.ccl:1:18: error: group TYPE must be GF, ARRAY or SCALAR, not 'grid'\n"
            "CCTK_REAL v TYPE=grid\n"
            "                 ^\n");
}

TEST(parse_interface, reports_an_unterminated_description) {
  EXPECT_EQ(errors("implements: x\nCCTK_REAL v TYPE=GF \"open\n{ a }\n"),
            "t/interface.ccl:2:21: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "CCTK_REAL v TYPE=GF \"open\n"
            "                    ^\n");
}

TEST(parse_interface, reports_a_misspelled_statement) {
  EXPECT_EQ(errors("implemnts: x\n"),
            "t/interface.ccl:1:1: error: unknown statement 'implemnts:'; did you mean 'implements'?\n"
            "implemnts: x\n"
            "^\n");
}

TEST(parse_interface, reports_an_unknown_data_type) {
  EXPECT_EQ(errors("CCTK_REEL v TYPE=GF\n"),
            "t/interface.ccl:1:1: error: unknown data type 'CCTK_REEL'; did you mean 'CCTK_REAL', "
            "'CCTK_REAL4' or 'CCTK_REAL8'?\n"
            "CCTK_REEL v TYPE=GF\n"
            "^\n");
}

TEST(parse_interface, reports_a_stray_token_at_top_level) {
  EXPECT_EQ(errors("implements: x\n}\n"),
            "t/interface.ccl:2:1: error: expected implements:, inherits:, friend:, an access level, a variable "
            "group, a function or an include; found '}'\n"
            "}\n"
            "^\n");
}

TEST(parse_interface, reports_an_unclosed_argument_list) {
  EXPECT_EQ(errors("CCTK_INT FUNCTION f(CCTK_INT IN x\n"),
            "t/interface.ccl:1:34: error: expected ')' to close the argument list; found end of file\n"
            "CCTK_INT FUNCTION f(CCTK_INT IN x\n"
            "                                 ^\n");
}

TEST(ccl_kind, names_the_grammar_of_a_file_name) {
  EXPECT_EQ(ccl_kind_of("thorns/Wave/interface.ccl"), "interface");
  EXPECT_EQ(ccl_kind_of("PARAM.CCL"), "param");
  EXPECT_EQ(ccl_kind_of("a\\b\\Schedule.ccl"), "schedule");
  EXPECT_EQ(ccl_kind_of("templates/deps.ccl"), "deps");
  EXPECT_EQ(ccl_kind_of("cakernel.ccl"), "cakernel");
  EXPECT_EQ(ccl_kind_of("configuration.ccl"), "");
  EXPECT_EQ(ccl_kind_of("interface.ccl.bak"), "");
}

TEST(parse_interface, reports_parentheses_nested_too_deeply) {
  EXPECT_EQ(test::first_line(errors("CCTK_INT FUNCTION f(" + test::repeated("(", 100000) + "\n")),
            "t/interface.ccl:1:277: error: parentheses nested deeper than 256 levels");
}

TEST(parse_interface, a_group_option_given_twice_is_an_error) {
  EXPECT_EQ(test::first_line(errors("implements: t\nCCTK_REAL u TYPE=GF type=SCALAR\n{\n  u\n}\n")),
            "t/interface.ccl:2:21: error: type is given twice: first at line 2, column 13");
}

TEST(parse_interface, a_second_implements_is_an_error) {
  EXPECT_EQ(test::first_line(errors("implements: heat\nimplements: other\n")),
            "t/interface.ccl:2:13: error: a thorn implements one implementation: 'heat' is given at line 1, column 13");
}

}  // namespace
}  // namespace opuntia::ccl
