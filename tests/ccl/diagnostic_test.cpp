#include "ccl/diagnostic.hpp"

#include <gtest/gtest.h>

#include "ccl/source_file.hpp"

namespace opuntia::ccl {
namespace {

TEST(diagnostic, formats_place_line_and_caret) {
  const source_file file{"thorn/cakernel.ccl", "CCTK_KERNEL K\r\n  TILES=1\r\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(2, 3, "unknown key 'TILES'")),
            "thorn/cakernel.ccl:2:3: error: unknown key 'TILES'\n"
            "  TILES=1\n"
            "  ^\n");
}

TEST(diagnostic, caret_keeps_tabs) {
  const source_file file{"f", "\tx = 1\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(1, 2, "m")), "f:1:2: error: m\n\tx = 1\n\t^\n");
}

TEST(diagnostic, control_and_binary_bytes_are_escaped_with_the_caret_kept_under_its_byte) {
  // An escape sequence from a bad file must not reach the terminal; the caret follows the escapes.
  const source_file file{"f", "a\x1b[31mb\tc\x80\xff" "d\x7f = 1\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(1, 13, "m")),
            "f:1:13: error: m\n"
            "a\\x1b[31mb\tc\\x80\\xffd\\x7f = 1\n"
            "          \t          ^\n");
  EXPECT_EQ(format_diagnostic(diagnostic{{"f", 0, 0}, "expected a number, not '\x1b]0;x\x07'", ""}),
            "f: error: expected a number, not '\\x1b]0;x\\x07'\n");
}

TEST(diagnostic, utf8_is_shown_and_the_caret_counts_characters) {
  // "é" is two bytes and one column on screen; U+009B (a terminal's CSI) and a BOM are escaped.
  const source_file file{"f", "\xc3\xa9 x \xc2\x9b\xef\xbb\xbf y\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(1, 4, "m")), "f:1:4: error: m\n\xc3\xa9 x \\xc2\\x9b\\xef\\xbb\\xbf y\n  ^\n");
  EXPECT_EQ(format_diagnostic(file.error_at(1, 12, "m")),
            "f:1:12: error: m\n\xc3\xa9 x \\xc2\\x9b\\xef\\xbb\\xbf y\n                         ^\n");
}

TEST(diagnostic, the_caret_counts_two_cells_for_a_wide_character) {
  // "熱拡散率" is four CJK characters of 3 bytes, each two cells wide on a terminal.
  const source_file file{"f", "} \"\xe7\x86\xb1\xe6\x8b\xa1\xe6\x95\xa3\xe7\x8e\x87\" BOGUS\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(1, 18, "m")),
            "f:1:18: error: m\n} \"\xe7\x86\xb1\xe6\x8b\xa1\xe6\x95\xa3\xe7\x8e\x87\" BOGUS\n"
            "             ^\n");
}

TEST(diagnostic, whole_file_errors_have_no_line) {
  EXPECT_EQ(format_diagnostic(diagnostic{{"f", 0, 0}, "empty", ""}), "f: error: empty\n");
}

TEST(diagnostic, nearest_names_suggests_close_spellings) {
  const std::vector<std::string> known{"TYPE", "STENCIL", "TILE", "EXTERIOR", "SHARECODE", "CODE"};
  EXPECT_EQ(nearest_names("TILES", known), (std::vector<std::string>{"TILE"}));
  EXPECT_EQ(did_you_mean("stencl", known), "; did you mean 'STENCIL'?");
  EXPECT_EQ(did_you_mean("qqqqqqqq", known), "");
}

TEST(source_file, location_of_counts_lines_and_columns) {
  const source_file file{"f", "ab\ncd\r\nef"};
  EXPECT_EQ(file.location_of(4), (source_location{"f", 2, 2}));
  EXPECT_EQ(file.line_text(2), "cd");
  EXPECT_EQ(file.line_text(3), "ef");
  EXPECT_EQ(file.line_text(9), "");
}

}  // namespace
}  // namespace opuntia::ccl
