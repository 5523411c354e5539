// with_body_lines (thorns/CaKernel/backends/opencl/build_log.cpp): a compiler that ignores the
// generated source's #line directives (NVIDIA's names the source <kernel>) still gets its
// positions reported in the body's file; one that honours them (pocl) is left alone.
#include <gtest/gtest.h>

#include <string>

#include "thorns/CaKernel/backends/opencl/build_log.hpp"

namespace {

using opuntia::thorns::CaKernel::opencl_build_log::with_body_lines;

// Lines 1-3 generated macros, line 4 the directive, lines 5-7 the body's lines 1-3.
const std::string source =
    "#define A 1\n"
    "#define B 2\n"
    "#define C 3\n"
    "#line 1 \"/thorns/T/src/Body.kernel\"\n"
    "CAKERNEL_K_Begin\n"
    "  x = static_cast<CCTK_REAL>(2);\n"
    "CAKERNEL_K_End\n";

TEST(opencl_build_log, positions_counted_from_the_top_are_mapped_to_the_body_file) {
  EXPECT_EQ(with_body_lines("<kernel>:6:7: error: use of undeclared identifier 'static_cast'\n", source),
            "/thorns/T/src/Body.kernel:2:7: error: use of undeclared identifier 'static_cast'\n");
  // Several positions, each on its own line or after a blank.
  EXPECT_EQ(with_body_lines("<kernel>:5:1: note: here\n  in <kernel>:7:3: error: x\n", source),
            "/thorns/T/src/Body.kernel:1:1: note: here\n  in /thorns/T/src/Body.kernel:3:3: error: x\n");
}

TEST(opencl_build_log, positions_in_the_generated_macros_and_honoured_directives_stay) {
  EXPECT_EQ(with_body_lines("<kernel>:2:9: error: in a macro\n", source), "<kernel>:2:9: error: in a macro\n");
  const std::string honoured = "/thorns/T/src/Body.kernel:2:7: error: use of undeclared identifier\n";
  EXPECT_EQ(with_body_lines(honoured, source), honoured);
  EXPECT_EQ(with_body_lines("no position here\n", source), "no position here\n");
  EXPECT_EQ(with_body_lines("<kernel>:6:7: error\n", "no directive\n"), "<kernel>:6:7: error\n");
}

TEST(opencl_build_log, crlf_sources_and_several_directives) {
  const std::string crlf = "#define A 1\r\n#line 10 \"a.kernel\"\r\nx\r\ny\r\n#line 1 \"b.kernel\"\r\nz\r\n";
  EXPECT_EQ(with_body_lines("<kernel>:4:2: error\n", crlf), "a.kernel:11:2: error\n");
  EXPECT_EQ(with_body_lines("<kernel>:6:2: error\n", crlf), "b.kernel:1:2: error\n");
}

}  // namespace
