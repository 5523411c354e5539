#include "generator/semantic/kernel_body.hpp"

#include <gtest/gtest.h>

#include <limits>

#include <string>
#include <vector>

namespace opuntia::gen {
namespace {

/// "I3D(u, 1, 0, 0)@2:5 rw" for each access: its text, place, and whether it reads and writes.
std::vector<std::string> summary(std::string_view body) {
  std::vector<std::string> out;
  for (const auto& a : find_accesses(body)) {
    out.push_back(a.text() + "@" + std::to_string(a.where.line) + ":" + std::to_string(a.where.column) + " " +
                  (a.reads ? "r" : "") + (a.writes ? "w" : ""));
  }
  return out;
}

TEST(kernel_body, finds_reads_and_writes_with_their_places) {
  const auto found = summary("CAKERNEL_K_Begin\n  I3D(u_out, 0, 0, 0) = I3D_l(u, 1, 0, 0) * 2;\n"
                             "  I3D(s, 0, 0, 0) += 1;\n  x = I3D(a,0,0,0) == I3D(b , 0,0 ,0);\n");
  EXPECT_EQ(found, (std::vector<std::string>{"I3D(u_out, 0, 0, 0)@2:3 w", "I3D_l(u, 1, 0, 0)@2:25 r",
                                             "I3D(s, 0, 0, 0)@3:3 rw", "I3D(a, 0, 0, 0)@4:7 r",
                                             "I3D(b, 0, 0, 0)@4:23 r"}));
}

TEST(kernel_body, leaves_out_comments_literals_and_directives) {
  const auto found = summary("/* I3D(a, 1, 0, 0) */ // I3D(b, 1, 0, 0)\n"
                             "const char* s = \"I3D(c, 1, 0, 0)\"; char q = '\\'';\n"
                             "  #define FAR(v) I3D(v, 0, 0, 9) + \\\n    I3D(v, 9, 0, 0)\n"
                             "I3D(d, 0, 0, 0); MY_I3D(e, 0, 0, 0); I3Dx(f, 0, 0, 0); 1I3D(g, 0, 0, 0);\n");
  EXPECT_EQ(found, (std::vector<std::string>{"I3D(d, 0, 0, 0)@5:1 r"}));
}

TEST(kernel_body, leaves_out_if_0_blocks) {
  const auto found = summary("#if 0\nI3D(a, 9, 0, 0)\n#ifdef X\nI3D(b, 0, 0, 0)\n#endif\nI3D(c, 0, 0, 0)\n#else\n"
                             "I3D(d, 0, 0, 0)\n#endif\n  # if 0 // old\nI3D(e, 0, 0, 0)\n#endif\n#if 01\n"
                             "I3D(f, 0, 0, 0)\n#endif\n");
  EXPECT_EQ(found, (std::vector<std::string>{"I3D(d, 0, 0, 0)@8:1 r", "I3D(f, 0, 0, 0)@14:1 r"}));
}

TEST(kernel_body, an_access_may_span_lines_and_hold_another) {
  const auto found = summary("I3D(u,\n    f(1, 2), /* x */ 0,\n    I3D_l(v, 0, 0, -1))");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], "I3D(u, f(1, 2), 0, I3D_l(v, 0, 0, -1))@1:1 r");  // a comment before an argument is left out
  EXPECT_EQ(found[1], "I3D_l(v, 0, 0, -1)@3:5 r");
  const auto accesses = find_accesses("I3D(u,\n    2, 0, 0)");
  ASSERT_EQ(accesses.size(), 1u);
  EXPECT_EQ(accesses[0].arguments[1].where.line, 2u);
  EXPECT_EQ(accesses[0].arguments[1].where.column, 5u);
}

TEST(kernel_body, a_call_cut_short_is_no_access) {
  EXPECT_TRUE(find_accesses("I3D(u, 1, 0").empty());
  EXPECT_TRUE(find_accesses("I3D").empty());
  EXPECT_TRUE(find_accesses("I3D + 1").empty());
}

TEST(kernel_body, names_the_variable_only_when_it_is_one_identifier) {
  const auto accesses = find_accesses("I3D(u, 0, 0, 0); I3D(arrays.u, 0, 0, 0); I3D(2, 0, 0, 0)");
  ASSERT_EQ(accesses.size(), 3u);
  EXPECT_EQ(accesses[0].variable(), "u");
  EXPECT_EQ(accesses[1].variable(), "");
  EXPECT_EQ(accesses[2].variable(), "");
}

TEST(kernel_body, directives_name_what_their_macros_may_reach) {
  const std::string body = "I3D(u, 0, 0, 0) = 1; // #define X I3D\n"
                           "  #define FAR(v) I3D_l(v, 1, 0, 0) + \\\r\n    I3D(v, 9, 0, 0)\n"
                           "const char* s = \"#include\"; #x\n#include \"terms.h\"\n#if 2I3Dx\n#endif\n";
  EXPECT_TRUE(directives_name(body, "I3D"));        // on the continuation line, after a CRLF
  EXPECT_TRUE(directives_name(body, "I3D_l"));
  EXPECT_TRUE(directives_name(body, "include"));
  EXPECT_TRUE(directives_name(body, "FAR"));
  EXPECT_FALSE(directives_name(body, "u"));         // only outside directives
  EXPECT_FALSE(directives_name(body, "x"));         // '#' not at a line's start
  EXPECT_FALSE(directives_name(body, "I3Dx"));      // a number's letters are no name
  EXPECT_FALSE(directives_name("", "I3D"));
  EXPECT_FALSE(directives_name("#define ONE 1\n", "I3D"));
}

TEST(kernel_body, evaluates_integer_constant_expressions) {
  EXPECT_EQ(integer_constant("2"), 2);
  EXPECT_EQ(integer_constant(" -1 "), -1);
  EXPECT_EQ(integer_constant("-(1 + 1)"), -2);
  EXPECT_EQ(integer_constant("2 * 3 - 1"), 5);
  EXPECT_EQ(integer_constant("1 - 2 - 3"), -4);
  EXPECT_EQ(integer_constant("+ + 4"), 4);
  EXPECT_EQ(integer_constant("0"), 0);
}

// Every integer literal C++ takes is read, so that a huge or hexadecimal offset is checked
// against the STENCIL like a small one: 99999999999 was left to the compiler, which takes it.
TEST(kernel_body, reads_every_integer_literal_cpp_takes) {
  EXPECT_EQ(integer_constant("99999999999"), 99999999999LL);
  EXPECT_EQ(integer_constant("1234567890"), 1234567890);
  EXPECT_EQ(integer_constant("100000 * 100000"), 10000000000LL);
  EXPECT_EQ(integer_constant("0x10"), 16);
  EXPECT_EQ(integer_constant("0XfF"), 255);
  EXPECT_EQ(integer_constant("010"), 8);
  EXPECT_EQ(integer_constant("0b101"), 5);
  EXPECT_EQ(integer_constant("1'000"), 1000);
  EXPECT_EQ(integer_constant("2u"), 2);
  EXPECT_EQ(integer_constant("3ULL"), 3);
  EXPECT_EQ(integer_constant("-4l"), -4);
  EXPECT_EQ(integer_constant("99999999999 - 99999999998"), 1);  // exact, not saturated
  // Past a long long: the most it holds, with the sign.
  EXPECT_EQ(integer_constant("18446744073709551615u"), std::numeric_limits<long long>::max());
  EXPECT_EQ(integer_constant("-18446744073709551615u"), -std::numeric_limits<long long>::max());
}

// The frame a body keeps: its own four macros, once each, in order; in comments they count not.
TEST(kernel_body, frame_errors_name_the_first_macro_out_of_place) {
  const auto errors = [](const std::string& text) {
    std::string out;
    for (const auto& d : frame_errors("K", ccl::source_file{"K.kernel", text})) {
      out += std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + " " + d.message + "\n";
    }
    return out;
  };
  const std::string order =
      "the frame macros come once each, in the order CAKERNEL_K_Begin, CAKERNEL_K_Computations_Begin, "
      "CAKERNEL_K_Computations_End, CAKERNEL_K_End";
  EXPECT_EQ(errors("CAKERNEL_K_Begin\nCAKERNEL_K_Computations_Begin\nx = 1;\nCAKERNEL_K_Computations_End\n"
                   "CAKERNEL_K_End\n/* CAKERNEL_K_End */ // CAKERNEL_K_Begin\n"),
            "");
  EXPECT_EQ(errors("CAKERNEL_L_Begin\n"),
            "1:1 'CAKERNEL_L_Begin' frames the body of kernel 'L', but this is the body of kernel 'K': write "
            "CAKERNEL_K_Begin\n");
  EXPECT_EQ(errors("CAKERNEL_K_Begin\nCAKERNEL_K_Computations_End\n"),
            "2:1 expected CAKERNEL_K_Computations_Begin after CAKERNEL_K_Begin; " + order + "\n");
  EXPECT_EQ(errors("  CAKERNEL_K_Computations_Begin\n"), "1:3 expected CAKERNEL_K_Begin first; " + order + "\n");
  EXPECT_EQ(errors("CAKERNEL_K_Begin CAKERNEL_K_Begin\n"), "1:18 'CAKERNEL_K_Begin' again: " + order + "\n");
  EXPECT_EQ(errors("CAKERNEL_K_Begin\nCAKERNEL_K_Computations_Begin\n"),
            "2:1 expected CAKERNEL_K_Computations_End after CAKERNEL_K_Computations_Begin; " + order + "\n");
  EXPECT_EQ(errors("/* nothing */\n"),
            "1:1 the body of kernel 'K' has none of its frame macros: write CAKERNEL_K_Begin, "
            "CAKERNEL_K_Computations_Begin, CAKERNEL_K_Computations_End, CAKERNEL_K_End, once each and in that "
            "order, around its computations\n");
}

// What a body ends in (a comment or an #if 0 left open) hides its last macros: that, at its place,
// is the error; and a kernel whose name ends in _Computations has its own frame.
TEST(kernel_body, frame_errors_name_a_comment_or_if_0_left_open_and_read_a_kernels_own_names_first) {
  const auto first_error = [](const std::string& kernel, const std::string& text) {
    const auto found = frame_errors(kernel, ccl::source_file{kernel + ".kernel", text});
    return found.empty() ? std::string("none")
                         : std::to_string(found[0].where.line) + ":" + std::to_string(found[0].where.column) + " " +
                               found[0].message;
  };
  const std::string frame = "CAKERNEL_K_Begin\nCAKERNEL_K_Computations_Begin\nx = 1;\nCAKERNEL_K_Computations_End\n"
                            "CAKERNEL_K_End\n";
  EXPECT_EQ(first_error("K", "CAKERNEL_K_Begin\n  double y; /* open\n" + frame.substr(17)),
            "2:13 unterminated comment: this '/*' has no closing '*/'");
  EXPECT_EQ(first_error("K", "CAKERNEL_K_Begin\n#if 0\nold();\n" + frame.substr(17)),
            "2:1 this '#if 0' has no closing '#endif' (nor '#else' or '#elif'): the rest of the body is left out");
  EXPECT_EQ(first_error("K", "CAKERNEL_K_Begin\n#if 0\nold();\n#endif\n" + frame.substr(17)), "none");
  EXPECT_EQ(first_error("Heat_Computations", "CAKERNEL_Heat_Computations_Begin\nCAKERNEL_Heat_Computations_Computations_Begin\n"
                                            "x = 1;\nCAKERNEL_Heat_Computations_Computations_End\nCAKERNEL_Heat_Computations_End\n"),
            "none");
}

TEST(kernel_body, leaves_other_expressions_to_the_compiler) {
  for (const char* text : {"", "gi", "params.reach", "1.5", "1e3", "0x1p3", "09", "0b2", "1abc", "1 +", "(1", "1)",
                           "R * 2", "f(1)", "0x", "1000000000000000000000000000000000000000",
                           "1000000000000000000 * 1000000000000000000 * 10"}) {
    EXPECT_EQ(integer_constant(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace opuntia::gen
