#pragma once
// OpenCL compilers report errors by line of the source they were given. pocl honours the
// `#line N "file"` directives that the generated source puts before each body; NVIDIA's
// compiler names the source `<kernel>` and counts its lines from the top. This maps the latter
// back, so a build error always points at the body's own file and line.
#include <string>

namespace opuntia::thorns::CaKernel::opencl_build_log {

/// `log` with every `name:L:C:` whose L is a line of `source` after a `#line N "file"`
/// directive, and whose name is not that file already, rewritten as `file:N':C:` (N' the line
/// in that file). Positions before any directive, and names the source's directives carry,
/// stay as they are.
std::string with_body_lines(const std::string& log, const std::string& source);

}  // namespace opuntia::thorns::CaKernel::opencl_build_log
