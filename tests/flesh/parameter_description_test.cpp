#include "flesh/parameters/parameter_description.hpp"

#include <gtest/gtest.h>

namespace {

using namespace opuntia;

thorn_description demo() {
  thorn_description t{"Demo", "demo", {}};
  t.parameters.push_back({"speed", "REAL", "restricted", "", "1.0", "", "wave speed c", {{"(0:*", "positive"}}});
  t.parameters.push_back({"scheme", "KEYWORD", "private", "", "\"central\"", "recover", "scheme",
                          {{"\"upwind\"", "first order"}, {"\"central\"", ""}}});
  t.parameters.push_back({"label", "STRING", "global", "", "\"a|b\"", "", "a *title*, shown\nat the start",
                          {{"\"^(a|b)`$\"", "a or b_"}}});
  t.parameters.push_back({"coeffs[3]", "REAL", "private", "", "0", "", "wave_number_x, _y and _z", {}});
  t.parameters.push_back({"global_nx", "INT", "", "uses driver::global_nx", "", "", "", {}});
  t.parameters.push_back({"xmax", "REAL", "", "extends driver::xmax", "", "", "", {{"100:200", ""}}});
  return t;
}

TEST(parameter_description, text_shows_each_parameter_on_its_lines) {
  EXPECT_EQ(format_description(demo(), description_format::text),
            "Demo (implementation demo)\n"
            "  speed  REAL  restricted  default 1.0\n"
            "    wave speed c\n"
            "    range: (0:*  positive\n"
            "  scheme  KEYWORD  private  default \"central\"  steerable recover\n"
            "    scheme\n"
            "    range: \"upwind\"  first order\n"
            "    range: \"central\"\n"
            "  label  STRING  global  default \"a|b\"\n"
            "    a *title*, shown\nat the start\n"
            "    range: \"^(a|b)`$\"  a or b_\n"
            "  coeffs[3]  REAL  private  default 0\n"
            "    wave_number_x, _y and _z\n"
            "  global_nx  INT  uses driver::global_nx\n"
            "  xmax  REAL  extends driver::xmax\n"
            "    range: 100:200\n");
}

// Each parameter is one row of a table; what Markdown would read as emphasis, code, a cell's end
// or a line break is escaped, and an underscore inside a word is left alone.
TEST(parameter_description, markdown_is_a_section_with_one_row_a_parameter) {
  EXPECT_EQ(format_description(demo(), description_format::markdown),
            "## Demo\n"
            "\n"
            "Implementation `demo`.\n"
            "\n"
            "| parameter | type | default | range | description |\n"
            "|---|---|---|---|---|\n"
            "| `speed` | REAL, restricted | `1.0` | `(0:*` positive | wave speed c |\n"
            "| `scheme` | KEYWORD, private, steerable recover | `\"central\"` | `\"upwind\"` first order<br>`\"central\"` "
            "| scheme |\n"
            "| `label` | STRING, global | `\"a\\|b\"` | ``\"^(a\\|b)`$\"`` a or b\\_ | a \\*title\\*, shown at the start |\n"
            "| `coeffs[3]` | REAL, private | `0` | any | wave_number_x, \\_y and \\_z |\n"
            "| `global_nx` | INT, uses `driver::global_nx` | as `driver::global_nx` | as `driver::global_nx` |  |\n"
            "| `xmax` | REAL, extends `driver::xmax` | as `driver::xmax` | `100:200` |  |\n");
}

TEST(parameter_description, a_thorn_without_parameters_says_so) {
  const thorn_description empty{"Empty", "empty", {}};
  EXPECT_EQ(format_description(empty, description_format::text), "Empty (implementation empty)\n  (no parameters)\n");
  EXPECT_EQ(format_description(empty, description_format::markdown), "## Empty\n\nImplementation `empty`. No parameters.\n");
}

TEST(parameter_description, a_code_span_that_starts_with_a_backtick_is_padded) {
  thorn_description t{"T", "t", {}};
  t.parameters.push_back({"quote", "STRING", "private", "", "\"`\"", "", "", {{"`x", ""}}});
  const auto text = format_description(t, description_format::markdown);
  EXPECT_NE(text.find("| `quote` | STRING, private | ``\"`\"`` | `` `x `` |  |\n"), std::string::npos) << text;
}

TEST(parameter_description, every_thorn_one_after_the_other) {
  const thorn_description a{"A", "a", {}}, b{"B", "b", {}};
  EXPECT_EQ(format_descriptions({a, b}, description_format::text),
            "A (implementation a)\n  (no parameters)\n\nB (implementation b)\n  (no parameters)\n");
  const auto page = format_descriptions({a, b}, description_format::markdown);
  EXPECT_EQ(page.rfind("# Thorn parameters\n\n", 0), 0u) << page;
  EXPECT_NE(page.find("\n\n## A\n\nImplementation `a`. No parameters.\n\n## B\n\nImplementation `b`. No parameters.\n"),
            std::string::npos)
      << page;
  EXPECT_TRUE(page.ends_with("\n\n## B\n\nImplementation `b`. No parameters.\n")) << page;
}

}  // namespace
