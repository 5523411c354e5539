// What a user of CaKernel::backend = "opencl" sees when something is wrong: a body that the
// OpenCL compiler rejects (tests/thorns/CxxOnlyBody: an error at the body's own file and line,
// the full source written next to the log), and a platform or device that does not exist.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "CxxOnlyBody/opencl/Reach_3dblock.h"
#include "CxxOnlyBody/opencl/Reach_3dstencil.h"
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
  const auto variant =
      std::find_if(kernel.variants.begin(), kernel.variants.end(), [](const auto& v) { return v.backend == "opencl"; });
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

/// The build error of kernel Reach's program with `variant_macros` and `body` (file bad.kernel),
/// CaKernel::opencl_options `user_options`.
std::string error_of_body(const char* variant_macros, const std::string& body, const std::string& user_options = "") {
  const fs::path cache = fs::temp_directory_path() / "opuntia_opencl_i3d_l_test";
  ck::backend_options options;
  options.cache_dir = cache.string();
  options.opencl_options = user_options;
  std::unique_ptr<ck::backend> device;
  try {
    device = opencl_factory().make(options);
  } catch (const std::invalid_argument& e) {  // options refused when the backend starts
    return e.what();
  }
  if (!device) return "no OpenCL device";
  if (!user_options.empty() && device->device_description().find("(build options " + user_options + ")") == std::string::npos)
    return "the device does not say its build options: " + device->device_description();
  const std::string source = std::string(CAKERNEL_CXXONLYBODY_opencl_prelude) + CAKERNEL_Reach_opencl_declarations +
                             variant_macros + "#line 1 \"bad.kernel\"\n" + body;
  const std::string options_text = opuntia::opencl::program_sizes{{8, 2, 2}, {5, 5, 5}}.options();
  std::string message = "no error";
  try {
    opuntia::opencl::kernel({source, options_text, "CAKERNEL_Reach_3dblock_kernel", "Reach_bad"});
  } catch (const std::exception& e) {  // runtime_error: the build; invalid_argument: a parameter
    message = e.what();
  }
  fs::remove_all(cache);
  return message;
}

std::string body_reading(const std::string& read) {
  return "CAKERNEL_Reach_Begin\nCAKERNEL_Reach_Computations_Begin\n  I3D(w, 0, 0, 0) = " + read +
         ";\nCAKERNEL_Reach_Computations_End\nCAKERNEL_Reach_End\n";
}

TEST(opencl_build_error, i3d_l_rules_fail_to_compile_naming_the_variable_at_the_body_line) {
  using namespace opuntia::thorns::CxxOnlyBody;
  const auto good = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body_reading("I3D_l(u, 1, 0, 0)"));
  if (good == "no OpenCL device") GTEST_SKIP() << good;
  EXPECT_EQ(good, "no error");
  const auto not_cached = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body_reading("I3D_l(w, 0, 0, 0)"));
  EXPECT_NE(not_cached.find("bad.kernel:3:"), std::string::npos) << not_cached;
  EXPECT_NE(not_cached.find("I3D_l_of_w_needs_cached_yes_in_kernel_Reach"), std::string::npos) << not_cached;
  const auto beyond = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body_reading("I3D_l(u, 2, 0, 0)"));
  EXPECT_NE(beyond.find("bad.kernel:3:"), std::string::npos) << beyond;
  EXPECT_NE(beyond.find("I3D_l_of_u_beyond_the_STENCIL_of_kernel_Reach"), std::string::npos) << beyond;
  const auto diagonal = error_of_body(CAKERNEL_Reach_3dstencil_opencl_macros, body_reading("I3D_l(u, 1, 1, 0)"));
  EXPECT_NE(diagonal.find("I3D_l_of_u_off_the_axes_in_3dstencil_kernel_Reach_use_I3D"), std::string::npos) << diagonal;
}

TEST(opencl_build_error, opencl_options_reach_every_build_and_a_refused_one_names_the_parameter) {
  using namespace opuntia::thorns::CxxOnlyBody;
  const std::string body = "#ifndef OPUNTIA_FROM_OPTIONS\n#error CaKernel::opencl_options did not reach the build\n#endif\n" +
                           body_reading("I3D_l(u, 1, 0, 0)");
  const auto with = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body, "-DOPUNTIA_FROM_OPTIONS=1");
  if (with == "no OpenCL device") GTEST_SKIP() << with;
  EXPECT_EQ(with, "no error");
  const auto without = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body);
  EXPECT_NE(without.find("did not reach the build"), std::string::npos) << without;
  EXPECT_EQ(without.find("CaKernel::opencl_options added"), std::string::npos) << without;
  // An option the compiler refuses: the backend does not start, naming the parameter and its
  // value, whichever way the platform refuses it (CL_INVALID_BUILD_OPTIONS, or a failed build).
  const auto refused = error_of_body(CAKERNEL_Reach_3dblock_opencl_macros, body_reading("I3D_l(u, 1, 0, 0)"),
                                     "-no-such-option-for-opuntia");
  EXPECT_NE(refused.find("CaKernel::opencl_options"), std::string::npos) << refused;
  EXPECT_NE(refused.find("-no-such-option-for-opuntia"), std::string::npos) << refused;
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
    EXPECT_NE(
        message.find("CaKernel::opencl_platform = \"no-such-platform\": no OpenCL platform matches (platforms: 0 \""),
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
