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

std::string errors(const std::string& text) { return error_text(parse_param_ccl, "t/param.ccl", text); }

TEST(parse_param, reads_the_cacuda_fixture) {
  const auto file = parse_param_ccl(fixture("param.ccl"));
  EXPECT_EQ(dump(file),
            "param 5:1 1   KEYWORD initial_data@5:9 [] \"different simulation scenarios\" as= {\n"
            "  range 7:3 <\"lid_driven_cavity\"> words=lid_driven_cavity@7:3 :: \"classical testing problem for "
            "incompressible fluid\"\n"
            "  default lid_driven_cavity@8:3\n"
            "param 10:1 1   REAL density@10:11 [] \"Density of the incompressible fluid\" as= {\n"
            "  range 12:2 <1.0e-10:*> words= :: \"Positive\"\n"
            "  default 1.0@13:3\n"
            "param 15:1 1   INT num_psolver_steps@15:10 [] \"number of relaxation steps of the pressure solver\" "
            "as= {\n"
            "  range 17:2 <1:*> words= :: \"Positive\"\n"
            "  default 10@18:3\n");
}

TEST(parse_param, crlf_fixture_gives_the_same_tree) {
  const auto lf = fixture("param.ccl");
  EXPECT_EQ(dump(parse_param_ccl(source_file{lf.path, to_crlf(lf.text)})), dump(parse_param_ccl(lf)));
}

TEST(parse_param, empty_file_is_an_empty_tree) {
  EXPECT_TRUE(parse_param_ccl(source_file{"e/param.ccl", ""}).parameters.empty());
  EXPECT_TRUE(parse_param_ccl(source_file{"e/param.ccl", "# nothing\nprivate:\n"}).parameters.empty());
}

TEST(parse_param, reads_a_realistic_thorn) {
  const auto file = parse_param_ccl(input("wavetoy_param.ccl"));
  const auto& ps = file.parameters;
  ASSERT_EQ(ps.size(), 18u);

  EXPECT_EQ(ps[0].section, param_section::shares_section);
  EXPECT_EQ(ps[0].shared_from, "Cactus");
  EXPECT_EQ(ps[0].qualifier, "uses");
  EXPECT_EQ(ps[0].type, "REAL");
  EXPECT_FALSE(ps[0].default_value.has_value());
  EXPECT_EQ(ps[2].alias, "io_out_dir");
  EXPECT_EQ(ps[3].qualifier, "extends");
  EXPECT_EQ(dump(ps[3].ranges[0].words), "hdf5@11:3");
  EXPECT_EQ(ps[4].shared_from, "MethodOfLines");
  EXPECT_TRUE(ps[4].has_range_block);

  EXPECT_EQ(ps[5].section, param_section::restricted_section);
  EXPECT_EQ(ps[5].shared_from, "");
  EXPECT_EQ(find_key(ps[5].options, "ACCUMULATOR-BASE")->value.text, "MethodOfLines::MoL_Num_Evolved_Vars");

  const auto& initial_data = ps[6];
  EXPECT_EQ(initial_data.section, param_section::private_section);
  EXPECT_EQ(find_key(initial_data.options, "steerable")->value.text, "recover");
  ASSERT_EQ(initial_data.ranges.size(), 3u);
  EXPECT_EQ(initial_data.ranges[1].spec, "\"gaussian\", \"none\"");
  EXPECT_EQ(dump(initial_data.ranges[1].words), "gaussian@30:3 none@30:15");
  EXPECT_EQ(initial_data.ranges[1].comment, "Gaussian pulse or nothing");
  EXPECT_EQ(dump(initial_data.ranges[2].words), "box@31:3");
  EXPECT_EQ(initial_data.default_value->text, "gaussian");

  EXPECT_EQ(ps[8].ranges[0].spec, "(0:*");
  EXPECT_EQ(ps[8].default_value->text, "1.d-3");
  EXPECT_EQ(ps[9].ranges[0].spec, "(0.0:1.0]");
  EXPECT_EQ(ps[9].ranges[1].spec, "[2:4)");
  EXPECT_EQ(ps[10].array_size, "3");
  EXPECT_EQ(ps[10].ranges[0].spec, "1:99999999999999999999:2");
  EXPECT_TRUE(ps[10].ranges[0].words.empty());
  EXPECT_EQ(ps[11].ranges[0].comment, "");
  EXPECT_EQ(ps[11].default_value->text, "-1");
  EXPECT_EQ(dump(ps[12].ranges[0].words), ".*@64:3");
  EXPECT_EQ(ps[12].default_value->text, "wave_");
  EXPECT_EQ(ps[13].ranges[0].spec, ":");
  EXPECT_EQ(ps[13].default_value->text, "yes");
  EXPECT_TRUE(ps[14].has_range_block);
  EXPECT_TRUE(ps[14].ranges.empty());
  EXPECT_EQ(ps[14].default_value->text, "no");
  EXPECT_EQ(find_key(ps[15].options, "ACCUMULATOR")->value.text, "((x) + (y))");
  EXPECT_EQ(ps[16].section, param_section::global_section);
  EXPECT_EQ(find_key(ps[16].options, "STEERABLE")->value.where, (source_location{file.path, 81, 13}));
  EXPECT_EQ(ps[17].name.text, "speed");
  EXPECT_EQ(ps[17].alias, "c");
  EXPECT_EQ(ps[17].section, param_section::global_section) << "the old public: section counts as global";
}

TEST(parse_param, crlf_realistic_thorn_gives_the_same_tree) {
  const auto lf = input("wavetoy_param.ccl");
  EXPECT_EQ(dump(parse_param_ccl(source_file{lf.path, to_crlf(lf.text)})), dump(parse_param_ccl(lf)));
}

TEST(parse_param, keeps_huge_numbers_as_text) {
  const auto file = parse_param_ccl(
      source_file{"t/param.ccl", "INT n \"d\"\n{\n  1:99999999999999999999 :: \"big\"\n} 123456789012345678901234\n"});
  ASSERT_EQ(file.parameters.size(), 1u);
  EXPECT_EQ(file.parameters[0].ranges[0].spec, "1:99999999999999999999");
  EXPECT_EQ(file.parameters[0].default_value->text, "123456789012345678901234");
}

TEST(parse_param, reports_a_missing_default_where_it_was_expected) {
  EXPECT_EQ(errors("INT n \"d\"\n{\n  1:* :: \"positive\"\n}\n"),
            "t/param.ccl:4:2: error: expected a default value; found end of line\n"
            "}\n"
            " ^\n");
}

TEST(parse_param, reports_an_unknown_type) {
  EXPECT_EQ(errors("FLOAT n \"d\"\n{\n} 1\n"),
            "t/param.ccl:1:1: error: unknown parameter type 'FLOAT'; expected INT, REAL, KEYWORD, STRING or "
            "BOOLEAN\n"
            "FLOAT n \"d\"\n"
            "^\n");
  EXPECT_EQ(errors("USES CCTK_REEL n\n"),
            "t/param.ccl:1:6: error: unknown parameter type 'CCTK_REEL'; expected INT, REAL, KEYWORD, STRING or "
            "BOOLEAN; did you mean 'CCTK_REAL'?\n"
            "USES CCTK_REEL n\n"
            "     ^\n");
}

TEST(parse_param, reports_an_unterminated_range_comment) {
  EXPECT_EQ(errors("INT n \"d\"\n{\n  1:* :: \"positive\n} 1\n"),
            "t/param.ccl:3:10: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "  1:* :: \"positive\n"
            "         ^\n");
}

TEST(parse_param, reports_an_unterminated_range_block) {
  EXPECT_EQ(errors("INT n \"d\"\n{\n  1:* :: \"x\"\n"),
            "t/param.ccl:3:13: error: expected '}' to close the range block opened at line 2, column 1; found end "
            "of file\n"
            "  1:* :: \"x\"\n"
            "            ^\n");
}

TEST(parse_param, reports_a_malformed_numeric_range) {
  EXPECT_EQ(errors("INT n \"d\"\n{\n  1:abc :: \"x\"\n} 1\n"),
            "t/param.ccl:3:3: error: expected a numeric range such as '1:*', '(0:1]', '0:10:2' or '*' for INT "
            "parameter 'n'\n"
            "  1:abc :: \"x\"\n"
            "  ^\n");
}

TEST(parse_param, reports_a_non_numeric_real_default) {
  EXPECT_EQ(errors("REAL n \"d\"\n{\n  *:* :: \"x\"\n} abc\n"),
            "t/param.ccl:4:3: error: expected a number as the default of REAL parameter 'n'\n"
            "} abc\n"
            "  ^\n");
}

TEST(parse_param, reports_a_misspelled_option_and_section) {
  EXPECT_EQ(errors("INT n \"d\" STEERABEL=always\n{\n} 1\n"),
            "t/param.ccl:1:11: error: unknown parameter option 'STEERABEL'; did you mean 'STEERABLE'?\n"
            "INT n \"d\" STEERABEL=always\n"
            "          ^\n");
  EXPECT_EQ(errors("privte:\n"),
            "t/param.ccl:1:1: error: unknown section 'privte:'; did you mean 'private'?\n"
            "privte:\n"
            "^\n");
}

TEST(parse_param, reports_a_bad_steerable_value) {
  EXPECT_EQ(errors("INT n \"d\" STEERABLE=sometimes\n{\n} 1\n"),
            "t/param.ccl:1:21: error: STEERABLE must be never, always or recover, not 'sometimes'\n"
            "INT n \"d\" STEERABLE=sometimes\n"
            "                    ^\n");
}

TEST(parse_param, reports_a_stray_token_at_top_level) {
  EXPECT_EQ(errors("private:\n} 1\n"),
            "t/param.ccl:2:1: error: expected a section (private:, restricted:, global:, shares:) or a parameter "
            "declaration; found '}'\n"
            "} 1\n"
            "^\n");
}

TEST(parse_param, reports_parentheses_nested_too_deeply) {
  EXPECT_EQ(test::first_line(errors("INT n \"d\" STEERABLE=" + test::repeated("(", 100000) + "\n")),
            "t/param.ccl:1:277: error: parentheses nested deeper than 256 levels");
}

TEST(parse_param, reports_an_array_size_that_is_not_a_positive_integer) {
  for (const std::string size : {"abc", "-5", "0", "99999999999999999999", "1000001", "n+1"}) {
    const std::string line = "REAL alpha[" + size + "] \"d\"";
    EXPECT_EQ(errors(line + "\n{\n  * :: \"\"\n} 1\n"),
              "t/param.ccl:1:12: error: the array size of parameter 'alpha' must be a positive integer of at most "
              "1000000, not '" + size + "'\n" + line + "\n           ^\n")
        << size;
  }
  // CRLF lines give the same message and place.
  EXPECT_EQ(test::first_line(errors(to_crlf("private:\nINT n[0] \"d\"\n{\n  * :: \"\"\n} 1\n"))),
            "t/param.ccl:2:7: error: the array size of parameter 'n' must be a positive integer of at most 1000000, "
            "not '0'");
  EXPECT_EQ(parse_param_ccl(source_file{"t/param.ccl", "INT n[ 007 ] \"d\"\n{\n  * :: \"\"\n} 1\n"})
                .parameters.at(0)
                .array_size,
            "7");
  EXPECT_EQ(parse_param_ccl(source_file{"t/param.ccl", "INT n[1000000] \"d\"\n{\n  * :: \"\"\n} 1\n"})
                .parameters.at(0)
                .array_size,
            "1000000");
}

TEST(parse_param, an_option_given_twice_is_an_error) {
  EXPECT_EQ(test::first_line(errors("INT n \"d\" STEERABLE=always steerable=never\n{\n  * :: \"\"\n} 1\n")),
            "t/param.ccl:1:28: error: steerable is given twice: first at line 1, column 11");
}

}  // namespace
}  // namespace opuntia::ccl
