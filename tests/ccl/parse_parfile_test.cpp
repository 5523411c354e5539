#include <gtest/gtest.h>

#include "ccl/parse.hpp"
#include "parse_test_support.hpp"

namespace opuntia::ccl {
namespace {

using test::error_text;
using test::first_line;
using test::fixture;
using test::repeated;
using test::to_crlf;

/// A compact, fully parenthesised rendering of an expression tree.
std::string show(const parfile_expression& e) {
  using kind = parfile_expression::kind;
  switch (e.what) {
    case kind::number: return e.text;
    case kind::string: return "\"" + e.text + "\"";
    case kind::word: return e.text;
    case kind::parameter: return "@" + e.text;
    case kind::parfile: return "$" + e.text;
    case kind::unary: return "(" + e.text + show(e.operands[0]) + ")";
    case kind::binary: return "(" + show(e.operands[0]) + " " + e.text + " " + show(e.operands[1]) + ")";
    case kind::chain: {  // as nested binary operations, left to right: ((a - b) + c)
      std::string out = show(e.operands[0]);
      for (std::size_t i = 1; i < e.operands.size(); ++i) {
        out = "(" + out + " " + e.operators[i - 1] + " " + show(e.operands[i]) + ")";
      }
      return out;
    }
    case kind::call: {
      std::string out = e.text + "(";
      for (std::size_t i = 0; i < e.operands.size(); ++i) out += (i ? ", " : "") + show(e.operands[i]);
      return out + ")";
    }
  }
  return "?";
}

std::string dump(const parfile_file& f) {
  std::string out;
  for (const auto& s : f.statements) {
    out += std::to_string(s.where.line) + ":" + std::to_string(s.where.column) + " ";
    if (s.what == parfile_statement::kind::active_thorns) {
      out += "ActiveThorns";
      for (const auto& t : s.thorns) out += " " + t.text;
    } else {
      out += s.implementation.text + "::" + s.name.text;
      if (s.index) out += "[" + show(*s.index) + "]";
      out += " = " + show(s.value);
    }
    out += "\n";
  }
  return out;
}

std::string value_of(const std::string& text) {
  const auto f = parse_parfile(source_file{"p.par", "A::b = " + text + "\n"});
  return show(f.statements.at(0).value);
}

TEST(parse_parfile, reads_the_cacuda_parfile) {
  const auto f = parse_parfile(fixture("cacuda.par"));
  ASSERT_EQ(f.statements.size(), 41u);  // every non-comment line
  const auto& active = f.statements[0];
  ASSERT_EQ(active.what, parfile_statement::kind::active_thorns);
  ASSERT_EQ(active.thorns.size(), 15u);
  EXPECT_EQ(active.thorns[0].text, "CaCUDALib");
  EXPECT_EQ(active.thorns[14].text, "IOBasic");
  EXPECT_EQ(active.thorns[1].where, (source_location{fixture("cacuda.par").path, 1, 27}));
  const auto text = dump(f);
  EXPECT_NE(text.find("4:1 Cactus::cctk_run_title = \"Cactus CaCUDA Testing Run\"\n"), std::string::npos);
  EXPECT_NE(text.find("Cactus::cctk_itlast = 100\n"), std::string::npos);
  EXPECT_NE(text.find("CaCUDALib::min_cuda_capability = 1.3\n"), std::string::npos);
  EXPECT_NE(text.find("PUGH::global_nx = 128\n"), std::string::npos);  // "=128" without a blank
  EXPECT_NE(text.find("Grid::domain = full\n"), std::string::npos);
  EXPECT_NE(text.find("IOASCII::out2D_style = \"gnuplot f(x,y)\"\n"), std::string::npos);
  EXPECT_NE(text.find("IOBasic::outInfo_vars = \"cacudacfd3dwomol::vx cacudacfd3dwomol::p\"\n"), std::string::npos);
}

TEST(parse_parfile, crlf_gives_the_same_statements) {
  const auto lf = parse_parfile(fixture("cacuda.par"));
  const auto crlf = parse_parfile(source_file{lf.path, to_crlf(fixture("cacuda.par").text)});
  EXPECT_EQ(dump(lf), dump(crlf));
}

TEST(parse_parfile, a_string_spanning_lines_of_a_crlf_file_holds_newlines) {
  const auto lf = parse_parfile(source_file{"p.par", "A::b = \"one\ntwo\"\n"});
  const auto crlf = parse_parfile(source_file{"p.par", "A::b = \"one\r\ntwo\"\r\n"});
  EXPECT_EQ(crlf.statements.at(0).value.text, "one\ntwo");
  EXPECT_EQ(dump(lf), dump(crlf));
}

TEST(parse_parfile, empty_and_comment_only_files_are_valid) {
  EXPECT_TRUE(parse_parfile(source_file{"p.par", ""}).statements.empty());
  EXPECT_TRUE(parse_parfile(source_file{"p.par", "# nothing\n\n   # at all\r\n"}).statements.empty());
}

TEST(parse_parfile, arithmetic_follows_the_usual_precedence) {
  EXPECT_EQ(value_of("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(value_of("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(value_of("2 ** 3 ** 2"), "(2 ** (3 ** 2))");
  EXPECT_EQ(value_of("-2 ** 2"), "(-(2 ** 2))");
  EXPECT_EQ(value_of("2**-3"), "(2 ** (-3))");
  EXPECT_EQ(value_of("8 / 4 / 2"), "((8 / 4) / 2)");
  EXPECT_EQ(value_of("2*pi/64"), "((2 * pi) / 64)");
  EXPECT_EQ(value_of("sqrt(2) * int(3.7) + floor(exp(1))"), "((sqrt(2) * int(3.7)) + floor(exp(1)))");
  EXPECT_EQ(value_of("max(1, 2, 3)"), "max(1, 2, 3)");
}

TEST(parse_parfile, a_run_of_one_precedence_is_one_flat_node) {
  const auto f = parse_parfile(source_file{"p.par", "A::b = 1 - 2 + 3 - 4 * 5 / 6 * 7\n"});
  const auto& sum = f.statements.at(0).value;
  ASSERT_EQ(sum.what, parfile_expression::kind::chain);
  EXPECT_EQ(sum.operators, (std::vector<std::string>{"-", "+", "-"}));
  ASSERT_EQ(sum.operands.size(), 4u);
  EXPECT_EQ(sum.where, (source_location{"p.par", 1, 8}));
  const auto& product = sum.operands[3];
  ASSERT_EQ(product.what, parfile_expression::kind::chain);
  EXPECT_EQ(product.operators, (std::vector<std::string>{"*", "/", "*"}));
  EXPECT_EQ(product.where, (source_location{"p.par", 1, 20}));
  // Still left-associative, as the evaluator applies it.
  EXPECT_EQ(show(sum), "(((1 - 2) + 3) - (((4 * 5) / 6) * 7))");
  EXPECT_EQ(value_of("1 - (2 - 3) - 4"), "((1 - (2 - 3)) - 4)");
  EXPECT_EQ(value_of("(1 + 2) * 3 - 4"), "(((1 + 2) * 3) - 4)");
}

TEST(parse_parfile, a_sum_of_200000_terms_parses_flat) {
  // Each operator used to copy the whole tree built so far: 10,000 terms took seconds.
  std::string text = "Cactus::cctk_itlast = 0";
  for (int i = 0; i < 200000; ++i) text += "+1";
  const auto f = parse_parfile(source_file{"p.par", text + "\n"});
  const auto& value = f.statements.at(0).value;
  ASSERT_EQ(value.what, parfile_expression::kind::chain);
  EXPECT_EQ(value.operands.size(), 200001u);
  EXPECT_EQ(value.operators.size(), 200000u);
  EXPECT_EQ(value.operands.back().text, "1");
}  // and the tree is destroyed without deep recursion

/// The first line of the error `text` gives: "p.par:1:264: error: ...".
std::string first_error_line(const std::string& text) {
  return first_line(error_text(parse_parfile, "p.par", text));
}

TEST(parse_parfile, expressions_nest_256_levels_deep) {
  EXPECT_EQ(first_error_line("A::b = " + repeated("(", 255) + "1" + repeated(")", 255) + "\n"), "no error");
  EXPECT_EQ(first_error_line("A::b = " + repeated("-", 255) + "1\n"), "no error");
}

TEST(parse_parfile, error_expressions_nested_too_deeply) {
  // Each used to overflow the stack; the error points at the first level past the limit.
  EXPECT_EQ(first_error_line("A::b = " + repeated("(", 100000) + "1\n"),
            "p.par:1:264: error: expressions nested deeper than 256 levels");
  EXPECT_EQ(first_error_line("A::b = " + repeated("(", 256) + "1" + repeated(")", 256) + "\n"),
            "p.par:1:264: error: expressions nested deeper than 256 levels");
  EXPECT_EQ(first_error_line("A::b = " + repeated("-", 200000) + "1\n"),
            "p.par:1:264: error: expressions nested deeper than 256 levels");
  EXPECT_EQ(first_error_line("A::b = " + repeated("max(", 50000) + "1\n"),
            "p.par:1:1032: error: expressions nested deeper than 256 levels");
  EXPECT_EQ(first_error_line("A::b = " + repeated("2**", 300) + "2\n"),
            "p.par:1:776: error: expressions nested deeper than 256 levels");
  EXPECT_EQ(first_error_line("A::b[" + repeated("(", 300) + "\n"),
            "p.par:1:262: error: expressions nested deeper than 256 levels");
}

TEST(parse_parfile, error_names_typographic_quotes) {
  // A parameter file written in a word processor: its quotes are UTF-8 E2 80 9C / 9D and 98 / 99.
  EXPECT_EQ(first_error_line("ActiveThorns = \xe2\x80\x9cWaveToy\xe2\x80\x9d\n"),
            "p.par:1:16: error: expected a quoted list of thorn names after ActiveThorns =; found "
            "'\xe2\x80\x9c', a typographic quote: write \"");
  EXPECT_EQ(first_error_line("A::b = \xe2\x80\x98x\xe2\x80\x99\n").substr(0, 13), "p.par:1:8: er");
  EXPECT_NE(first_error_line("A::b = \xe2\x80\x98x\xe2\x80\x99\n").find("a typographic quote: write '"),
            std::string::npos);
}

TEST(parse_parfile, reads_every_kind_of_value) {
  EXPECT_EQ(value_of("1.d-3"), "1.d-3");
  EXPECT_EQ(value_of("1.0D+2"), "1.0D+2");
  EXPECT_EQ(value_of(".5e10"), ".5e10");
  EXPECT_EQ(value_of("99999999999999999999999999"), "99999999999999999999999999");
  EXPECT_EQ(value_of("yes"), "yes");
  EXPECT_EQ(value_of("'single'"), "\"single\"");
  EXPECT_EQ(value_of("$parfile"), "$parfile");
  EXPECT_EQ(value_of("${parfile}"), "$parfile");
  EXPECT_EQ(value_of("Driver::global_nx - 1"), "(@Driver::global_nx - 1)");
}

TEST(parse_parfile, reads_arrays_descriptions_and_multiline_strings) {
  const auto f = parse_parfile(source_file{"p.par", "!DESC \"a test\"\nActiveThorns = \"A\nB\"\n"
                                                    "ActiveThorns = \"C\"\nT::arr[2] = 5\nT::s = \"line one\nline two\"\n"});
  EXPECT_EQ(f.description, "a test");
  EXPECT_EQ(dump(f), "2:1 ActiveThorns A B\n4:1 ActiveThorns C\n5:1 T::arr[2] = 5\n6:1 T::s = \"line one\nline two\"\n");
  EXPECT_EQ(f.statements[0].thorns[1].where, (source_location{"p.par", 3, 1}));
}

TEST(parse_parfile, a_backslash_that_ends_a_line_in_the_thorn_list_joins_it_with_the_next) {
  const auto f = parse_parfile(source_file{"p.par", "ActiveThorns = \"A \\\n  B\\  \r\nC\"\n"});
  EXPECT_EQ(dump(f), "1:1 ActiveThorns A B C\n");
  EXPECT_EQ(f.statements[0].thorns[1].where, (source_location{"p.par", 2, 3}));
  EXPECT_EQ(f.statements[0].thorns[2].where, (source_location{"p.par", 3, 1}));
}

TEST(parse_parfile, a_description_in_single_quotes_as_any_string) {
  EXPECT_EQ(parse_parfile(source_file{"p.par", "!DESC 'say \\'hi\\''\n"}).description, "say 'hi'");
  EXPECT_EQ(parse_parfile(source_file{"p.par", "!desc 'a test'\r\n"}).description, "a test");
}

TEST(parse_parfile, error_missing_value) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "Driver::global_nx =\n"),
            "p.par:1:20: error: expected a value: a number, a quoted string, a word, impl::name, $parfile or an "
            "expression; found end of line\n"
            "Driver::global_nx =\n"
            "                   ^\n");
}

TEST(parse_parfile, error_missing_implementation) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "global_nx = 5\n"),
            "p.par:1:1: error: expected ActiveThorns = \"...\" or an assignment implementation::parameter = value; "
            "found 'global_nx'\n"
            "global_nx = 5\n"
            "^\n");
}

TEST(parse_parfile, error_two_values_on_a_line) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "A::b = 1 2\n"),
            "p.par:1:10: error: expected the end of the line after the value (one assignment per line); found '2'\n"
            "A::b = 1 2\n"
            "         ^\n");
}

TEST(parse_parfile, error_unterminated_string) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "IO::out_dir = \"output\n"),
            "p.par:1:15: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "IO::out_dir = \"output\n"
            "              ^\n");
}

// A string may span lines, so one whose closing quote is missing closes at the next quote: the
// error there names where it began, in CRLF files too.
TEST(parse_parfile, error_after_a_string_missing_its_closing_quote_names_where_it_began) {
  for (const std::string eol : {"\n", "\r\n"}) {
    EXPECT_EQ(error_text(parse_parfile, "p.par",
                         "Cactus::cctk_run_title = \"my run" + eol + "Cactus::cctk_itlast = 2" + eol +
                             "IO::out_dir = \"out\"" + eol),
              "p.par:3:16: error: expected the end of the line after the value (one assignment per line); found "
              "'out'; the string opened at line 1, column 26 closes only on this line: is its closing quote missing?\n"
              "IO::out_dir = \"out\"\n"
              "               ^\n");
  }
  // A string over two lines followed by a well-formed line: no error, no note.
  EXPECT_NO_THROW(parse_parfile(source_file{"p.par", "ActiveThorns = \"A\nB\"\nA::b = 1\n"}));
  // One meant to span lines, with stray text after it: the error, without the note (no string
  // of that line's own was cut in two).
  EXPECT_EQ(first_error_line("Cactus::cctk_run_title = \"two\nlines\" stray\n"),
            "p.par:2:8: error: expected the end of the line after the value (one assignment per line); found 'stray'");
}

TEST(parse_parfile, error_unclosed_parenthesis) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "A::b = (1 + 2\n"),
            "p.par:1:14: error: expected ')' to close the parenthesis; found end of line\n"
            "A::b = (1 + 2\n"
            "             ^\n");
}

TEST(parse_parfile, error_dangling_operator) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "A::b = 1 +\n"),
            "p.par:1:11: error: expected a value after the operator; found end of line\n"
            "A::b = 1 +\n"
            "          ^\n");
}

TEST(parse_parfile, error_missing_equals) {
  EXPECT_EQ(error_text(parse_parfile, "p.par", "A::b 5\n"),
            "p.par:1:6: error: expected '=' after the parameter name; found '5'\n"
            "A::b 5\n"
            "     ^\n");
}

}  // namespace
}  // namespace opuntia::ccl
