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

TEST(diagnostic, invisible_and_space_like_characters_are_escaped) {
  // A no-break space, a zero-width space and a right-to-left override pasted into a name: shown,
  // in the message and the line, so that the name no longer looks like the one it is not.
  const source_file file{"f", "A = \"Wave\xc2\xa0Toy\xe2\x80\x8b\xe2\x80\xae\" x\n"};
  EXPECT_EQ(format_diagnostic(file.error_at(1, 23, "unknown thorn 'Wave\xc2\xa0Toy'")),
            "f:1:23: error: unknown thorn 'Wave\\xc2\\xa0Toy'\n"
            "A = \"Wave\\xc2\\xa0Toy\\xe2\\x80\\x8b\\xe2\\x80\\xae\" x\n"
            "                                              ^\n");  // under the x
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
  // A short name that shares no character in place with a candidate is not its typo.
  EXPECT_EQ(did_you_mean("on", {"off", "full"}), "");
  EXPECT_EQ(did_you_mean("uu", {"u", "w", "q"}), "; did you mean 'u'?");
  EXPECT_EQ(did_you_mean("w", {"u", "v"}), "");
}

TEST(source_file, location_of_counts_lines_and_columns) {
  const source_file file{"f", "ab\ncd\r\nef"};
  EXPECT_EQ(file.location_of(4), (source_location{"f", 2, 2}));
  EXPECT_EQ(file.line_text(2), "cd");
  EXPECT_EQ(file.line_text(3), "ef");
  EXPECT_EQ(file.line_text(9), "");
}

TEST(source_file, every_offset_and_line_agrees_with_a_scan_from_the_top) {
  // The index of line starts (made at the first lookup, remade when the text changes size)
  // against the plain count, at every offset and line of texts with empty lines, CRLF, a final
  // newline or none, and no text at all.
  for (const std::string text : {"", "\n", "a", "ab\n\ncd\r\n", "\r\n\r\nx", "one\ntwo\nthree"}) {
    source_file file{"f", text};
    std::size_t line = 1, column = 1;
    for (std::size_t offset = 0; offset <= text.size() + 2; ++offset) {
      EXPECT_EQ(file.location_of(offset), (source_location{"f", line, column})) << '"' << text << "\" at " << offset;
      if (offset < text.size()) {
        column = text[offset] == '\n' ? 1 : column + 1;
        if (text[offset] == '\n') ++line;
      }
    }
    std::size_t begin = 0;
    for (std::size_t l = 1; l <= line + 1; ++l) {
      const auto end = begin <= text.size() ? text.find('\n', begin) : std::string::npos;
      std::string expected;
      if (begin <= text.size() && l <= line) {
        expected = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      }
      if (!expected.empty() && expected.back() == '\r') expected.pop_back();
      EXPECT_EQ(file.line_text(l), expected) << '"' << text << "\" line " << l;
      begin = end == std::string::npos ? text.size() + 1 : end + 1;
    }
  }
  source_file grown{"f", "a"};
  EXPECT_EQ(grown.location_of(1), (source_location{"f", 1, 2}));
  grown.text += "\nb";
  EXPECT_EQ(grown.location_of(2), (source_location{"f", 2, 1}));
  EXPECT_EQ(grown.line_text(2), "b");
}

TEST(source_file, a_text_made_from_another_file_gives_the_places_written) {
  // "a\nb" as a deps.ccl string at line 7 column 10 wrote its newline as the escape \n (two
  // bytes): the text's bytes were written at columns 10, 11 and 13 of line 7.
  source_file text{"deps.ccl", "a\nb"};
  text.written_at = {{"deps.ccl", 7, 10}, {"deps.ccl", 7, 11}, {"deps.ccl", 7, 13}, {"deps.ccl", 7, 14}};
  EXPECT_EQ(text.place_of(2, 1), (source_location{"deps.ccl", 7, 13}));
  EXPECT_EQ(text.place_of(2, 9), (source_location{"deps.ccl", 7, 14}));  // past the end: the end
  EXPECT_EQ(text.location_of(1), (source_location{"deps.ccl", 7, 11}));
  const auto d = text.error_at(2, 1, "m");
  EXPECT_EQ(d.where, (source_location{"deps.ccl", 7, 13}));
  EXPECT_EQ(d.line_text, "");  // deps.ccl's line 7 is not this text's: filled from deps.ccl later
  EXPECT_EQ(source_file({"f", "x\ny"}).error_at(2, 1, "m").line_text, "y");
  EXPECT_EQ(text.error_at_offset(2, "m").where, (source_location{"deps.ccl", 7, 13}));
  const auto plain = source_file({"f", "x\r\nyz"}).error_at_offset(4, "m");
  EXPECT_EQ(plain.where, (source_location{"f", 2, 2}));
  EXPECT_EQ(plain.line_text, "yz");
}

}  // namespace
}  // namespace opuntia::ccl
