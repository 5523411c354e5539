// What a user of CaKernel::backend = "opencl" sees when something is wrong: a body that the
// OpenCL compiler rejects (tests/thorns/CxxOnlyBody: an error at the body's own file and line,
// the full source written next to the log), and a platform or device that does not exist.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "CxxOnlyBody_parameters.hpp"
#include "flesh/grid/grid_functions.hpp"
#include "opuntia/binding.hpp"
#include "thorns/CaKernel/src/backend.hpp"
#include "thorns/CaKernel/src/cakernel_runtime.hpp"

namespace {

namespace fs = std::filesystem;
namespace ck = opuntia::thorns::CaKernel;

const ck::backend_factory& opencl_factory() {
  for (const auto& factory : ck::compiled_backends()) {
    if (std::string(factory.name) == "opencl") return factory;
  }
  throw std::logic_error("this build has no opencl backend");
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(opencl_build_error, names_the_body_file_and_line_and_writes_the_full_source) {
  const fs::path cache = fs::temp_directory_path() / "opuntia_opencl_build_error_test";
  fs::remove_all(cache);
  ck::backend_options options;
  options.cache_dir = cache.string();
  auto device = opencl_factory().make(options);
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const auto b = opuntia::thorns::CxxOnlyBody::binding();
  const auto& kernel = b.kernels.at(0);
  const auto variant = std::find_if(kernel.variants.begin(), kernel.variants.end(),
                                    [](const auto& v) { return v.backend == "opencl"; });
  ASSERT_NE(variant, kernel.variants.end());
  const std::size_t bytes = 5 * 4 * 3 * sizeof(CCTK_REAL);
  std::vector<void*> arrays{device->allocate(bytes), device->allocate(bytes)};
  const opuntia::thorns::CxxOnlyBody::parameters p{};
  opuntia::kernel_call call;
  call.grid.ni = 5;
  call.grid.nj = 4;
  call.grid.nk = 3;
  call.arrays = arrays.data();
  call.parameters = &p;
  std::string message;
  try {
    variant->launch(call);
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  for (auto* a : arrays) device->release(a);
  EXPECT_NE(message.find("OpenCL build of kernel Cast_3dblock failed"), std::string::npos) << message;
  EXPECT_NE(message.find("CxxOnlyBody/src/Cast.kernel:4:"), std::string::npos) << message;
  const fs::path source = cache / "build-errors" / "Cast_3dblock.cl";
  EXPECT_NE(message.find("the full source is in " + source.string()), std::string::npos) << message;
  EXPECT_NE(read_text(source).find("#line 1 \""), std::string::npos);
  EXPECT_NE(read_text(source).find("static_cast<CCTK_REAL>(2)"), std::string::npos);
  EXPECT_NE(read_text(cache / "build-errors" / "Cast_3dblock.log").find("Cast.kernel:4:"), std::string::npos);
  fs::remove_all(cache);
}

TEST(opencl_build_error, unknown_platform_or_device_lists_what_the_machine_has) {
  opuntia::grid_function_store store;
  ck::backend_options options;
  options.opencl_platform = "no-such-platform";
  try {
    ck::make_kernel_runtime("opencl", store, options);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("CaKernel::opencl_platform = \"no-such-platform\": no OpenCL platform matches (platforms: 0 \""),
              std::string::npos)
        << message;
  }
  options = {};
  options.opencl_device = "no-such-device";
  try {
    ck::make_kernel_runtime("opencl", store, options);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("CaKernel::opencl_device = \"no-such-device\": no OpenCL device matches on any platform "
                           "(devices: 0 \""),
              std::string::npos)
        << message;
  }
}

}  // namespace
