#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ccl/parse.hpp"

namespace opuntia::ccl {
namespace {

std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(OPUNTIA_SOURCE_DIR) + "/tests/fixtures/cacuda/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string to_crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

std::string error_text(const std::string& text) {
  try {
    parse_cakernel_ccl(source_file{"cakernel.ccl", text});
  } catch (const input_error& e) {
    return format_diagnostics(e.diagnostics());
  }
  return "no error";
}

TEST(parse_cakernel, reads_the_cacuda_fixture) {
  const auto file = parse_cakernel_ccl(source_file{"cakernel.ccl", read_fixture("cakernel.ccl")});
  ASSERT_EQ(file.kernels.size(), 3u);
  const auto& velocity = file.kernels[0];
  EXPECT_EQ(velocity.name.text, "Update_Velocity");
  EXPECT_EQ(velocity.keyword, "CCTK_CUDA_KERNEL");
  EXPECT_EQ(velocity.name.where, (source_location{"cakernel.ccl", 3, 18}));
  ASSERT_EQ(velocity.keys.size(), 3u);
  EXPECT_EQ(velocity.keys[0].key.text, "TYPE");
  EXPECT_EQ(velocity.keys[0].value.text, "*/3dblock");
  EXPECT_EQ(velocity.keys[1].value.text, "1,1,1,1,1,1");  // quotes removed
  ASSERT_EQ(velocity.variables.size(), 2u);
  EXPECT_EQ(velocity.variables[0].keys[1].value.text, "separateinout");
  ASSERT_EQ(velocity.variables[0].names.size(), 3u);
  EXPECT_EQ(velocity.variables[0].names[2].text, "vz");
  EXPECT_EQ(velocity.variables[0].description, "velocity u^i");
  EXPECT_EQ(velocity.variables[1].names[0].text, "p");
  EXPECT_EQ(velocity.variables[1].description, "pressure p");
  ASSERT_EQ(velocity.parameters.size(), 1u);
  EXPECT_EQ(velocity.parameters[0].names[0].text, "density");
  EXPECT_EQ(file.kernels[2].name.text, "Update_Boundaries");
  EXPECT_EQ(file.kernels[2].variables[0].keys[1].value.text, "inout");
}

TEST(parse_cakernel, crlf_input_gives_the_same_tree) {
  const auto lf = parse_cakernel_ccl(source_file{"a", read_fixture("cakernel.ccl")});
  const auto crlf = parse_cakernel_ccl(source_file{"a", to_crlf(read_fixture("cakernel.ccl"))});
  ASSERT_EQ(lf.kernels.size(), crlf.kernels.size());
  for (std::size_t i = 0; i < lf.kernels.size(); ++i) {
    EXPECT_EQ(lf.kernels[i].name.text, crlf.kernels[i].name.text);
    EXPECT_EQ(lf.kernels[i].name.where, crlf.kernels[i].name.where);
    EXPECT_EQ(lf.kernels[i].variables.size(), crlf.kernels[i].variables.size());
    EXPECT_EQ(lf.kernels[i].keys.size(), crlf.kernels[i].keys.size());
  }
}

TEST(parse_cakernel, accepts_paper_spelling_any_case_and_one_line_form) {
  const auto file = parse_cakernel_ccl(source_file{
      "k", "cctk_kernel Heat type='*/3dblock|3dstencil' stencil=1 { CCTK_Kernel_Variable CACHED=YES "
           "INTENT=SEPERATEINOUT {u} CCTK_KERNEL_PARAMETER {alpha beta} \"params\" } \"heat\"\n"});
  ASSERT_EQ(file.kernels.size(), 1u);
  EXPECT_EQ(file.kernels[0].keys[0].value.text, "*/3dblock|3dstencil");
  EXPECT_EQ(file.kernels[0].variables[0].names[0].text, "u");
  EXPECT_EQ(file.kernels[0].parameters[0].names.size(), 2u);
  EXPECT_EQ(file.kernels[0].parameters[0].description, "params");
  EXPECT_EQ(file.kernels[0].description, "heat");
}

TEST(parse_cakernel, empty_and_comment_only_files_have_no_kernels) {
  EXPECT_TRUE(parse_cakernel_ccl(source_file{"k", ""}).kernels.empty());
  EXPECT_TRUE(parse_cakernel_ccl(source_file{"k", "# nothing\r\n\r\n"}).kernels.empty());
}

TEST(parse_cakernel, error_unterminated_kernel) {
  EXPECT_EQ(error_text("CCTK_KERNEL K TYPE=3dblock\n{\n  CCTK_KERNEL_VARIABLE { u }\n"),
            "cakernel.ccl:3:29: error: expected CCTK_KERNEL_VARIABLE, CCTK_KERNEL_PARAMETER or '}' to close the "
            "kernel opened at line 2, column 1; found end of file\n"
            "  CCTK_KERNEL_VARIABLE { u }\n"
            "                            ^\n");
}

TEST(parse_cakernel, error_unterminated_variable_list) {
  EXPECT_EQ(error_text("CCTK_KERNEL K {\n  CCTK_KERNEL_VARIABLE { u, v\n}\n"),
            "cakernel.ccl:3:2: error: expected CCTK_KERNEL_VARIABLE, CCTK_KERNEL_PARAMETER or '}' to close the "
            "kernel opened at line 1, column 15; found end of file\n"
            "}\n"
            " ^\n");
}

TEST(parse_cakernel, error_bad_name_in_list) {
  EXPECT_EQ(error_text("CCTK_KERNEL K {\n  CCTK_KERNEL_VARIABLE { u, -v }\n}\n"),
            "cakernel.ccl:2:29: error: expected a name, ',' or '}' to close the list opened at line 2, column 24; "
            "found '-'\n"
            "  CCTK_KERNEL_VARIABLE { u, -v }\n"
            "                            ^\n");
}

TEST(parse_cakernel, error_unterminated_string) {
  EXPECT_EQ(error_text("CCTK_KERNEL K TYPE=\"*/3dblock\n{\n}\n"),
            "cakernel.ccl:1:20: error: unterminated string: this '\"' has no closing '\"'; found end of file\n"
            "CCTK_KERNEL K TYPE=\"*/3dblock\n"
            "                   ^\n");
}

TEST(parse_cakernel, error_missing_value) {
  EXPECT_EQ(error_text("CCTK_KERNEL K TILE= {\n}\n"),
            "cakernel.ccl:1:21: error: expected a value after '=' (a word or a quoted string); found '{'\n"
            "CCTK_KERNEL K TILE= {\n"
            "                    ^\n");
}

TEST(parse_cakernel, error_stray_text_at_top_level) {
  EXPECT_EQ(error_text("CCTK_KERNEL K {}\nKERNEL L {}\n"),
            "cakernel.ccl:2:1: error: expected CCTK_KERNEL (or CCTK_CUDA_KERNEL) to begin a kernel descriptor; "
            "found 'KERNEL'\n"
            "KERNEL L {}\n"
            "^\n");
}

TEST(parse_cakernel, error_missing_kernel_name) {
  EXPECT_EQ(error_text("CCTK_KERNEL {\n}\n"),
            "cakernel.ccl:1:13: error: expected the kernel's name; found '{'\n"
            "CCTK_KERNEL {\n"
            "            ^\n");
}

TEST(parse_cakernel, error_key_given_twice) {
  // Which one would win is a guess (the checks read the first, the model kept the last): an error.
  EXPECT_EQ(error_text("CCTK_KERNEL K STENCIL=\"1\" stencil=\"0\"\n{\n}\n"),
            "cakernel.ccl:1:27: error: stencil is given twice: first at line 1, column 15\n"
            "CCTK_KERNEL K STENCIL=\"1\" stencil=\"0\"\n"
            "                          ^\n");
  EXPECT_EQ(error_text("CCTK_KERNEL K\n{\n  CCTK_KERNEL_VARIABLE cached=yes cached=no { u } \"\"\n}\n"),
            "cakernel.ccl:3:35: error: cached is given twice: first at line 3, column 24\n"
            "  CCTK_KERNEL_VARIABLE cached=yes cached=no { u } \"\"\n"
            "                                  ^\n");
}

}  // namespace
}  // namespace opuntia::ccl
