// `opuntia-gen new-thorn` (generator/skeleton/new_thorn.cpp): its coefficients are the centred
// second differences, its thorns go through the generator with the real templates, and bad
// options are refused by name. tests/e2e/new_thorn_test.sh builds one and runs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#include "generator/file_io.hpp"
#include "generator/generate.hpp"
#include "generator/skeleton/new_thorn.hpp"

namespace opuntia::gen {
namespace {

namespace fs = std::filesystem;

std::string as_text(const std::vector<fraction>& c) {
  std::string s;
  for (const auto& f : c) s += std::to_string(f.numerator) + "/" + std::to_string(f.denominator) + " ";
  return s;
}

TEST(new_thorn, coefficients_are_the_centred_second_differences) {
  EXPECT_EQ(as_text(second_difference_coefficients(1)), "-2/1 1/1 ");
  EXPECT_EQ(as_text(second_difference_coefficients(2)), "-5/2 4/3 -1/12 ");
  EXPECT_EQ(as_text(second_difference_coefficients(3)), "-49/18 3/2 -3/20 1/90 ");
  EXPECT_EQ(as_text(second_difference_coefficients(4)), "-205/72 8/5 -1/5 8/315 -1/560 ");
  // Every radius: constants give 0 (c_0 + 2 sum c_m = 0) and x^2 gives 2 (sum m^2 c_m = 1), in
  // exact rational arithmetic (the sums' denominators divide the lcm of the coefficients').
  for (int r = 1; r <= most_new_thorn_radius; ++r) {
    const auto c = second_difference_coefficients(r);
    ASSERT_EQ(c.size(), static_cast<std::size_t>(r) + 1);
    long double constant = static_cast<long double>(c[0].numerator) / c[0].denominator, square = 0;
    for (int m = 1; m <= r; ++m) {
      const long double cm = static_cast<long double>(c[m].numerator) / c[m].denominator;
      constant += 2 * cm;
      square += static_cast<long double>(m) * m * cm;
    }
    EXPECT_NEAR(static_cast<double>(constant), 0.0, 1e-15) << "radius " << r;
    EXPECT_NEAR(static_cast<double>(square), 1.0, 1e-15) << "radius " << r;
  }
  EXPECT_THROW(second_difference_coefficients(0), std::invalid_argument);
  EXPECT_THROW(second_difference_coefficients(most_new_thorn_radius + 1), std::invalid_argument);
}

void expect_refused(const new_thorn_options& options, const std::string& message) {
  try {
    new_thorn_files(options);
    ADD_FAILURE() << "accepted: " << message;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(new_thorn, refuses_bad_names_types_and_radii) {
  expect_refused({"9Lives", "", "3dblock", 1},
                 "'9Lives' is not a thorn name: letters, digits and underscores, beginning with a letter");
  expect_refused({"My-Thorn", "", "3dblock", 1},
                 "'My-Thorn' is not a thorn name: letters, digits and underscores, beginning with a letter");
  expect_refused({"", "", "3dblock", 1}, "'' is not a thorn name: letters, digits and underscores, beginning with a letter");
  // Names whose generated C++ does not compile (each tried: the bindings or the thorn's code fail).
  expect_refused({"int", "", "3dblock", 1}, "'int' is a C++ keyword");
  expect_refused({"CCTK_Heat", "", "3dblock", 1},
                 "'CCTK_Heat' is named with CCTK_, the prefix of the flesh's and the generated code's own names");
  expect_refused({"std", "", "3dblock", 1}, "'std' is the name of a namespace or type that its C++ namespace, "
                                            "opuntia::thorns::std, would hide from the thorn's own code");
  expect_refused({"Heat", "update kernel", "3dblock", 1},
                 "--kernel 'update kernel' is not a kernel name: letters, digits and underscores, beginning with a letter");
  expect_refused({"Heat", "", "3dring", 1}, "--type '3dring': expected 3dblock or 3dstencil");
  expect_refused({"Heat", "", "3dblock", 0}, "--radius 0: expected 1 to 8 (points each side)");
  expect_refused({"Heat", "", "3dblock", 99999999}, "--radius 99999999: expected 1 to 8 (points each side)");
}

class scratch_folder {
public:
  scratch_folder() : path_(fs::temp_directory_path() / ("new_thorn_test_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~scratch_folder() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

std::vector<std::pair<std::string, std::string>> contents(const std::vector<skeleton_file>& files) {
  std::vector<std::pair<std::string, std::string>> c;
  for (const auto& f : files) c.emplace_back(f.path, f.text);
  return c;
}

TEST(new_thorn, its_thorns_go_through_the_generator_for_every_backend) {
  const scratch_folder scratch;
  const fs::path templates = fs::path(OPUNTIA_SOURCE_DIR) / "templates";
  for (const auto& type : {"3dblock", "3dstencil"}) {
    for (const int radius : {1, 2, 4, most_new_thorn_radius}) {
      const std::string name = std::string("Skeleton_") + type + "_" + std::to_string(radius);
      const auto files = new_thorn_files({name, "", type, radius});
      write_new_folder(scratch.path() / name, contents(files));
      generator_inputs inputs;
      inputs.thorns.push_back(read_thorn(scratch.path() / name));
      inputs.library = inputs.thorns;
      inputs.deps_ccl = read_source(templates / "deps.ccl");
      inputs.templates = read_templates(templates);
      std::vector<generated_file> generated;
      ASSERT_NO_THROW(generated = generate(inputs)) << name;
      for (const auto* backend : {"openmp", "cuda", "opencl"}) {
        const std::string kernel_file = name + "/" + backend + "/" + name + "_Update_" + type;
        EXPECT_TRUE(std::any_of(generated.begin(), generated.end(),
                                [&](const generated_file& g) { return g.path.rfind(kernel_file, 0) == 0; }))
            << kernel_file;
      }
    }
  }
}

TEST(new_thorn, never_writes_into_a_folder_that_exists) {
  const scratch_folder scratch;
  const auto files = contents(new_thorn_files({"Heat", "", "3dblock", 1}));
  write_new_folder(scratch.path() / "Heat", files);
  EXPECT_TRUE(fs::exists(scratch.path() / "Heat" / "src" / "Heat_Update.kernel"));
  fs::remove(scratch.path() / "Heat" / "README.md");
  try {
    write_new_folder(scratch.path() / "Heat", files);
    ADD_FAILURE() << "wrote into an existing folder";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (scratch.path() / "Heat").string() + " exists already: choose another name or folder (nothing was written)");
  }
  EXPECT_FALSE(fs::exists(scratch.path() / "Heat" / "README.md"));  // left as it was
  // Nothing is left behind where the folder cannot be made: its parent is a file.
  std::vector<fs::path> before(fs::directory_iterator(scratch.path()), fs::directory_iterator());
  EXPECT_THROW(write_new_folder(scratch.path() / "Heat" / "cakernel.ccl" / "Sub", files), std::runtime_error);
  std::vector<fs::path> after(fs::directory_iterator(scratch.path()), fs::directory_iterator());
  EXPECT_EQ(before.size(), after.size());
}

TEST(new_thorn, refuses_a_name_that_differs_from_a_folder_there_only_in_case) {
  // Thorn names are case-insensitive (ActiveThorns, the registry): heat beside Heat is one thorn twice.
  const scratch_folder scratch;
  const auto files = contents(new_thorn_files({"Heat", "", "3dblock", 1}));
  write_new_folder(scratch.path() / "Heat", files);
  try {
    write_new_folder(scratch.path() / "heat", contents(new_thorn_files({"heat", "", "3dblock", 1})));
    ADD_FAILURE() << "wrote heat beside Heat";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (scratch.path() / "Heat").string() +
                                         " exists already, and names differing only in case are one thorn: choose "
                                         "another name or folder (nothing was written)");
  }
  EXPECT_FALSE(fs::exists(scratch.path() / "heat"));
}

TEST(new_thorn, says_when_the_folder_to_write_in_does_not_exist) {
  const scratch_folder scratch;
  try {
    write_new_folder(scratch.path() / "missing" / "Heat", contents(new_thorn_files({"Heat", "", "3dblock", 1})));
    ADD_FAILURE() << "wrote into a folder that does not exist";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (scratch.path() / "missing").string() + " does not exist (nothing was written)");
  }
}

TEST(new_thorn, generate_refuses_two_thorns_whose_names_differ_only_in_case) {
  const scratch_folder scratch;
  for (const auto* name : {"Heat", "heat"}) {
    fs::create_directory(scratch.path() / (std::string("in_") + name));
    write_new_folder(scratch.path() / (std::string("in_") + name) / name, contents(new_thorn_files({name, "", "3dblock", 1})));
  }
  const fs::path templates = fs::path(OPUNTIA_SOURCE_DIR) / "templates";
  generator_inputs inputs;
  inputs.thorns = {read_thorn(scratch.path() / "in_Heat" / "Heat"), read_thorn(scratch.path() / "in_heat" / "heat")};
  inputs.library = inputs.thorns;
  inputs.deps_ccl = read_source(templates / "deps.ccl");
  inputs.templates = read_templates(templates);
  try {
    generate(inputs);
    ADD_FAILURE() << "generated Heat and heat";
  } catch (const ccl::input_error& e) {
    EXPECT_EQ(e.diagnostics().at(0).message, "thorn 'heat' given twice: as 'Heat' too (thorn names are case-insensitive)");
  }
}

}  // namespace
}  // namespace opuntia::gen
