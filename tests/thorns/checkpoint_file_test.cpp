// IOHDF5's checkpoint files (thorns/IOHDF5/src/checkpoint_file.cpp) on one rank: every array and
// the header read back as written, a rank's owned points only (its ghost zones left alone), the
// file there only when complete, and the reasons a file cannot be read. tests/e2e/checkpoint_test.sh
// runs them under mpirun, collectively and through rank 0, and kills runs in the middle.
#include "thorns/IOHDF5/src/checkpoint_file.hpp"

#include <gtest/gtest.h>

#include "opuntia/collective_error.hpp"

#include <fstream>
#include <numeric>
#include <stdexcept>

namespace {

namespace fs = std::filesystem;
using namespace opuntia;
using namespace opuntia::thorns::IOHDF5;

/// A run of one rank, as far as writing a checkpoint asks.
class one_rank final : public routine_context {
public:
  explicit one_rank(grid_layout g) : grid_(g) {}
  std::string_view thorn() const override { return "IOHDF5"; }
  const grid_layout& grid() const override { return grid_; }
  int iteration() const override { return 0; }
  double time() const override { return 0; }
  double dt() const override { return 0; }
  void set_dt(double) override { throw std::logic_error("not in this test"); }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  double reduce(double local, reduction) const override { return local; }
  double sum(exact_sum& local) const override { return local.value(); }
  std::uint64_t wrapping_sum(std::uint64_t local) const override { return local; }
  std::vector<std::string> gather(const std::string& local) const override { return {local}; }
  std::vector<variable_description> variables() const override { return {}; }
  std::vector<variable_description> variables_named(std::string_view) const override { return {}; }
  std::vector<std::string> grid_functions_named(std::string_view) const override { return {}; }
  const parameter_source& all_parameters() const override { throw std::logic_error("not in this test"); }
  std::span<const CCTK_REAL> read(std::string_view, int) override { throw std::logic_error("not in this test"); }
  std::span<CCTK_REAL> write(std::string_view, int) override { throw std::logic_error("not in this test"); }
  std::span<const CCTK_INT> read_integer(std::string_view, int) override { throw std::logic_error("not in this test"); }
  CCTK_INT& integer_scalar(std::string_view) override { throw std::logic_error("not in this test"); }
  CCTK_REAL& real_scalar(std::string_view) override { throw std::logic_error("not in this test"); }
  centerings centering(std::string_view) override { return ccl::vertex_centred; }
  std::filesystem::path out_dir() override { return ::testing::TempDir(); }
  void info(std::string_view) override {}
  void warn(std::string_view) override {}
  void warn_about(const std::vector<std::string>&, std::string_view) override {}
  void terminate_next(std::string_view, bool) override { throw std::logic_error("not in this test"); }

protected:
  const void* thorn_parameters() const override { return nullptr; }
  field_reduction local_reduction(std::string_view, int, reduction_figures) override { throw std::logic_error("not in this test"); }

private:
  grid_layout grid_;
};

/// A block of 7x6x5 points with a ghost layer on every side that is not a physical face (the
/// lower x face is): it owns 6x4x3 points, the whole grid of a one-rank run.
grid_layout block() {
  grid_layout g;
  g.global = {6, 4, 3};
  g.local = {7, 6, 5};
  g.ghosts = {1, 1, 1};
  g.offset = {0, -1, -1};
  g.physical = {true, false, false, false, false, false};
  g.origin = {0, 0, 0};
  g.delta = {0.5, 0.25, 0.125};
  return g;
}

class checkpoint_file_test : public ::testing::Test {
protected:
  void SetUp() override {
    // A folder of each test's own: CTest runs a suite's tests side by side (-j), and one's
    // TearDown would remove another's files.
    dir_ = fs::path(::testing::TempDir()) / "checkpoint_file_test" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const auto points = static_cast<std::size_t>(7 * 6 * 5);
    for (auto* level : {&u0_, &u1_}) level->resize(points);
    std::iota(u0_.begin(), u0_.end(), 0.5);
    std::iota(u1_.begin(), u1_.end(), -1000.25);
    flags_.resize(points);
    std::iota(flags_.begin(), flags_.end(), -7);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// The contents of a run with u (2 levels), the integer grid function flags and two scalars.
  checkpoint_contents contents(std::vector<CCTK_REAL>& u0, std::vector<CCTK_REAL>& u1, std::vector<CCTK_INT>& flags,
                               CCTK_REAL& energy, CCTK_INT& steps) {
    checkpoint_contents c;
    c.header = {7, 0.875, 0.125, 1, "ActiveThorns = \"Grid\"\nGrid::n = 6\n"};
    c.grid = block();
    c.extent = {6, 4, 3};
    c.arrays = {{"grid", "u", 0, data_type::cctk_real, true, ccl::vertex_centred, u0.data()},
                {"grid", "u", 1, data_type::cctk_real, true, ccl::vertex_centred, u1.data()},
                {"grid", "flags", 0, data_type::cctk_int, true, ccl::vertex_centred, flags.data()},
                {"grid", "energy", 0, data_type::cctk_real, false, ccl::vertex_centred, &energy},
                {"grid", "steps", 0, data_type::cctk_int, false, ccl::vertex_centred, &steps}};
    return c;
  }

  /// checkpoint.it7.h5 of contents() as SetUp made them, written by one rank.
  fs::path written() {
    one_rank ranks(block());
    const auto file = dir_ / "checkpoint.it7.h5";
    write_checkpoint(file, contents(u0_, u1_, flags_, energy_, steps_), ranks, write_mode::one_rank);
    return file;
  }

  fs::path dir_;
  std::vector<CCTK_REAL> u0_, u1_;
  std::vector<CCTK_INT> flags_;
  CCTK_REAL energy_ = 2.5;
  CCTK_INT steps_ = 42;
};

TEST_F(checkpoint_file_test, reads_back_every_array_and_the_header_owned_points_only) {
  one_rank ranks(block());
  const auto file = dir_ / "checkpoint.it7.h5";
  write_checkpoint(file, contents(u0_, u1_, flags_, energy_, steps_), ranks, write_mode::one_rank);
  EXPECT_TRUE(fs::exists(file));
  EXPECT_FALSE(fs::exists(temporary_of(file)));

  const auto header = read_checkpoint_header(file);
  EXPECT_EQ(header.iteration, 7);
  EXPECT_EQ(header.time, 0.875);
  EXPECT_EQ(header.dt, 0.125);
  EXPECT_EQ(header.ranks, 1);
  EXPECT_EQ(header.parameters, "ActiveThorns = \"Grid\"\nGrid::n = 6\n");

  // Read into arrays whose every point holds a sentinel: the ghosts must keep it.
  std::vector<CCTK_REAL> v0(u0_.size(), -1), v1(u0_.size(), -1);
  std::vector<CCTK_INT> f(flags_.size(), -1);
  CCTK_REAL energy = 0;
  CCTK_INT steps = 0;
  auto into = contents(v0, v1, f, energy, steps);
  read_checkpoint(file, into, ranks);
  const auto g = block();
  const auto owned = g.interior();
  for (int k = 0; k < g.local[2]; ++k) {
    for (int j = 0; j < g.local[1]; ++j) {
      for (int i = 0; i < g.local[0]; ++i) {
        const bool is_owned = i >= owned.begin[0] && i < owned.end[0] && j >= owned.begin[1] && j < owned.end[1] &&
                              k >= owned.begin[2] && k < owned.end[2];
        const auto n = g.index(i, j, k);
        ASSERT_EQ(v0[n], is_owned ? u0_[n] : -1) << i << " " << j << " " << k;
        ASSERT_EQ(v1[n], is_owned ? u1_[n] : -1);
        ASSERT_EQ(f[n], is_owned ? flags_[n] : -1);
      }
    }
  }
  EXPECT_EQ(energy, 2.5);
  EXPECT_EQ(steps, 42);
}

TEST_F(checkpoint_file_test, a_write_that_fails_leaves_no_file) {
  one_rank ranks(block());
  const auto file = dir_ / "no_such_folder" / "checkpoint.it7.h5";
  EXPECT_THROW(write_checkpoint(file, contents(u0_, u1_, flags_, energy_, steps_), ranks, write_mode::one_rank),
               hdf5_error);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(temporary_of(file)));
}

TEST_F(checkpoint_file_test, a_damaged_file_is_no_checkpoint) {
  const auto file = written();
  const auto cut = dir_ / "checkpoint.it8.h5";
  fs::copy_file(file, cut);
  fs::resize_file(cut, fs::file_size(file) / 2);
  try {
    read_checkpoint_header(cut);
    FAIL() << "a truncated file was read";
  } catch (const hdf5_error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("cannot open " + cut.string() + ": ")) << e.what();
  }
  std::ofstream(dir_ / "other.h5") << "not HDF5";
  EXPECT_THROW(read_checkpoint_header(dir_ / "other.h5"), hdf5_error);
}

/// Replaces the first occurrence of `from` in `file` by `to` (as many bytes), as a damaged disk
/// or a stray write would: the file's structure stays intact.
void overwrite_in_file(const fs::path& file, const std::string& from, const std::string& to) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(f), {}};
  const auto at = bytes.find(from);
  ASSERT_NE(at, std::string::npos) << "no such bytes in " << file;
  f.seekp(static_cast<std::streamoff>(at));
  f.write(to.data(), static_cast<std::streamsize>(to.size()));
}

std::string bytes_of(CCTK_REAL value) { return {reinterpret_cast<const char*>(&value), sizeof value}; }

TEST_F(checkpoint_file_test, a_file_damaged_inside_is_refused_by_its_checksums) {
  one_rank ranks(block());
  const auto file = written();
  const auto intact = dir_ / "intact.h5";
  fs::copy_file(file, intact);
  // One bit of an owned point of u's level 0.
  const CCTK_REAL owned_value = u0_[block().index(3, 2, 2)];
  CCTK_REAL flipped = owned_value;
  reinterpret_cast<unsigned char*>(&flipped)[0] ^= 1;
  overwrite_in_file(file, bytes_of(owned_value), bytes_of(flipped));
  std::vector<CCTK_REAL> v0(u0_.size()), v1(u0_.size());
  std::vector<CCTK_INT> f(flags_.size());
  CCTK_REAL energy = 0;
  CCTK_INT steps = 0;
  auto into = contents(v0, v1, f, energy, steps);
  EXPECT_NO_THROW(read_checkpoint_header(file));  // the header is intact
  try {
    read_checkpoint(file, into, ranks);
    FAIL() << "a damaged value was read";
  } catch (const collective_error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("checkpoint " + file.string() +
                                    " is damaged: dataset \"GRID::u it=7 tl=0\" does not hold what was written "
                                    "(checksum "))
        << message;
  }
  // A scalar, and the record of the parameters.
  fs::copy_file(intact, file, fs::copy_options::overwrite_existing);
  overwrite_in_file(file, bytes_of(energy_), bytes_of(-energy_));
  EXPECT_THROW(read_checkpoint(file, into, ranks), collective_error);
  fs::copy_file(intact, file, fs::copy_options::overwrite_existing);
  overwrite_in_file(file, "Grid::n = 6", "Grid::n = 7");
  try {
    read_checkpoint_header(file);
    FAIL() << "a damaged record of the parameters was read";
  } catch (const hdf5_error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("checkpoint " + file.string() +
                                                  " is damaged: its record of the parameters does not hold what "
                                                  "was written"))
        << e.what();
  }
  // The intact file reads.
  EXPECT_NO_THROW(read_checkpoint(intact, into, ranks));
  EXPECT_EQ(v0[block().index(3, 2, 2)], owned_value);
}

TEST_F(checkpoint_file_test, refuses_a_checkpoint_of_other_variables_or_another_grid) {
  one_rank ranks(block());
  const auto file = written();
  auto into = contents(u0_, u1_, flags_, energy_, steps_);
  into.arrays[1].name = std::string(1, 'w');  // another variable (a string literal trips GCC 12's -Wrestrict)
  try {
    read_checkpoint(file, into, ranks);
    FAIL() << "a missing dataset was not noticed";
  } catch (const hdf5_error& e) {
    EXPECT_EQ(std::string(e.what()), "checkpoint " + file.string() +
                                         " has no dataset \"GRID::w it=7 tl=1\": it was written by a run with other "
                                         "variables");
  }
  into = contents(u0_, u1_, flags_, energy_, steps_);
  into.extent = {6, 4, 4};
  try {
    read_checkpoint(file, into, ranks);
    FAIL() << "another grid was not noticed";
  } catch (const hdf5_error& e) {
    EXPECT_EQ(std::string(e.what()), "checkpoint " + file.string() +
                                         ": dataset \"GRID::u it=7 tl=0\" is not the grid of 6x4x4 owned points");
  }
}

}  // namespace
