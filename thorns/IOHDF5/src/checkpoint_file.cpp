#include "checkpoint_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "hdf5_handle.hpp"
#include "opuntia/collective_error.hpp"

namespace opuntia::thorns::IOHDF5 {

namespace fs = std::filesystem;

namespace {

constexpr int format_version = 1;
constexpr const char* parameters_dataset = "parameters";
// On each array's dataset and on the parameters: what the values were when written, so that a
// file damaged since (a flipped bit that HDF5's own structure does not notice) is not recovered
// from. Files written before it lack it and are read unchecked.
constexpr const char* checksum_attribute = "checksum";

/// A grid function's checksum on this rank (its owned points: owned_points_digest, which the
/// ranks add up) or a scalar's (one value, the same on every rank).
std::uint64_t local_checksum(const checkpoint_array& a, const grid_layout& grid) {
  const auto size = element_size(a.type);
  return a.grid_function ? owned_points_digest(a.values, size, grid) : point_digest(0, a.values, size);
}

std::uint64_t text_checksum(const std::string& text) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < text.size(); ++i) sum += point_digest(i, &text[i], 1);
  return sum;
}

/// What is wrong where `object` has a checksum that is not `found`; nothing where it matches or
/// there is none.
std::optional<std::string> checksum_mismatch(hid_t object, std::uint64_t found, const fs::path& file,
                                             std::string_view what) {
  if (H5Aexists(object, checksum_attribute) <= 0) return std::nullopt;
  const auto failed = fmt::format("cannot read the checksum of {} in {}", what, file.string());
  attribute_handle attribute{H5Aopen(object, checksum_attribute, H5P_DEFAULT), failed};
  std::uint64_t written = 0;
  checked(H5Aread(attribute, H5T_NATIVE_UINT64, &written), failed);
  if (written == found) return std::nullopt;
  return fmt::format("checkpoint {} is damaged: {} does not hold what was written (checksum {:016x}, read {:016x})",
                     file.string(), what, written, found);
}

/// Throws collective_error where an array of `file` does not match its checksum: every rank
/// finds it alike (a grid function's sum is over all ranks, a scalar the same on each), and the
/// run says it once.
void check_array(hid_t dataset, std::uint64_t found, const fs::path& file, const std::string& name) {
  if (auto wrong = checksum_mismatch(dataset, found, file, fmt::format("dataset \"{}\"", name))) {
    throw collective_error(*wrong);
  }
}

/// fsync of a file or a folder: what was written is on the disk when it returns.
void sync_to_disk(const fs::path& path, bool folder) {
  const int fd = ::open(path.c_str(), folder ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0 || ::fsync(fd) != 0) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    throw hdf5_error(fmt::format("cannot flush {} to the disk: {}", path.string(), std::strerror(error)));
  }
  ::close(fd);
}

/// Tests only (OPUNTIA_TEST_CHECKPOINT_DELAY_MS): a checkpoint that takes long to write.
void test_delay() {
  const char* ms = std::getenv("OPUNTIA_TEST_CHECKPOINT_DELAY_MS");
  if (ms == nullptr) return;
  std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(ms)));
}

/// Removes the temporary of a write that failed (this rank's part of it, where it holds one).
struct remove_unless_done {
  fs::path temporary;
  bool remove = false;
  bool done = false;
  ~remove_unless_done() {
    std::error_code ignored;
    if (remove && !done) fs::remove(temporary, ignored);
  }
};

template <typename T>
T read_attribute(hid_t object, const char* name, hid_t type, const fs::path& file) {
  if (H5Aexists(object, name) <= 0) {
    throw hdf5_error(fmt::format("{} has no attribute {}: it is no checkpoint", file.string(), name));
  }
  attribute_handle attribute{H5Aopen(object, name, H5P_DEFAULT), fmt::format("cannot read {} of {}", name, file.string())};
  T value{};
  checked(H5Aread(attribute, type, &value), fmt::format("cannot read {} of {}", name, file.string()));
  return value;
}

}  // namespace

void write_checkpoint(const fs::path& file, const checkpoint_contents& c, routine_context& ranks, write_mode mode) {
  quiet_hdf5_errors();
  const auto temporary = temporary_of(file);
  const bool holder = holds_file(mode, ranks);
  remove_unless_done cleanup{temporary, ranks.rank() == 0};
  // Held for the header, then for one dataset at a time, not while the file goes to the disk
  // (hdf5_handle.hpp): an output step of the run's thread waits for one dataset at most.
  auto header_lock = lock_hdf5();
  const auto properties = properties_for(mode);
  const auto what = [&](std::string_view detail) { return fmt::format("cannot write {}: {}", file.string(), detail); };
  file_handle out;
  if (holder) {
    out = file_handle{H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, properties.access),
                      fmt::format("cannot create {}", temporary.string())};
    write_attribute(out, "checkpoint_format", H5T_NATIVE_INT, &format_version, 1);
    write_attribute(out, "iteration", H5T_NATIVE_INT, &c.header.iteration, 1);
    write_attribute(out, "time", H5T_NATIVE_DOUBLE, &c.header.time, 1);
    write_attribute(out, "dt", H5T_NATIVE_DOUBLE, &c.header.dt, 1);
    write_attribute(out, "ranks", H5T_NATIVE_INT, &c.header.ranks, 1);
  }
  {
    datatype_handle text{H5Tcopy(H5T_C_S1), "H5Tcopy"};
    checked(H5Tset_size(text, std::max<std::size_t>(1, c.header.parameters.size())), "H5Tset_size");
    dataset_handle parameters;
    if (holder) {
      dataspace_handle scalar{H5Screate(H5S_SCALAR), "H5Screate"};
      parameters = dataset_handle{
          H5Dcreate2(out, parameters_dataset, text, scalar, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
          what("the parameters")};
      const std::uint64_t checksum = text_checksum(c.header.parameters);
      write_attribute(parameters, checksum_attribute, H5T_NATIVE_UINT64, &checksum, 1);
    }
    const std::string padded = c.header.parameters.empty() ? std::string(1, '\0') : c.header.parameters;
    write_from_rank0(parameters, text, padded.data(), ranks, mode, properties.transfer, what("the parameters"));
  }
  header_lock.unlock();
  for (const auto& a : c.arrays) {
    // Before the library's lock, which an output step of the run's thread may be waiting for:
    // hashing takes a core about 2.5 ns a point. A collective of the ranks, on the run's thread:
    // a background write (one rank) calls none.
    const std::uint64_t local = local_checksum(a, c.grid);
    const std::uint64_t checksum = a.grid_function && mode != write_mode::one_rank ? ranks.wrapping_sum(local) : local;
    const auto dataset_lock = lock_hdf5();  // made before the dataset, so released after it closes
    const auto name = dataset_name(a.implementation, a.name, c.header.iteration, a.level);
    const auto failed = what(fmt::format("dataset \"{}\"", name));
    dataset_handle dataset;
    if (a.grid_function) {
      if (holder) {
        dataset = create_grid_dataset(out, name, a.type, c.extent, failed);
        write_grid_attributes(dataset, attributes_of(c.grid, a.centering, c.header.time, c.header.iteration));
      }
      write_owned_points(dataset, a.type, a.values, c.grid, ranks, mode, properties.transfer, failed);
    } else {
      if (holder) {
        dataspace_handle scalar{H5Screate(H5S_SCALAR), "H5Screate"};
        dataset = dataset_handle{
            H5Dcreate2(out, name.c_str(), file_type(a.type), scalar, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), failed};
      }
      write_from_rank0(dataset, memory_type(a.type), a.values, ranks, mode, properties.transfer, failed);
    }
    if (holder) write_attribute(dataset, checksum_attribute, H5T_NATIVE_UINT64, &checksum, 1);
  }
  test_delay();
  if (holder) {
    const auto flush_lock = lock_hdf5();
    checked(H5Fflush(out, H5F_SCOPE_GLOBAL), what("flushing it"));
    out.close(what("closing it"));
  }
  if (ranks.rank() == 0) {
    // On the disk before it takes its name, and the name on the disk before the run goes on.
    sync_to_disk(temporary, false);
    std::error_code error;
    fs::rename(temporary, file, error);
    if (error) throw hdf5_error(what(error.message()));
    cleanup.done = true;
    const auto folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    sync_to_disk(folder, true);
  }
}

checkpoint_header read_checkpoint_header(const fs::path& path) {
  const auto lock = lock_hdf5();
  quiet_hdf5_errors();
  file_handle file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), fmt::format("cannot open {}", path.string())};
  checkpoint_header h;
  const int format = read_attribute<int>(file, "checkpoint_format", H5T_NATIVE_INT, path);
  if (format != format_version) {
    throw hdf5_error(fmt::format("{} is a checkpoint of format {}; this build reads format {}", path.string(), format,
                                 format_version));
  }
  h.iteration = read_attribute<int>(file, "iteration", H5T_NATIVE_INT, path);
  h.time = read_attribute<double>(file, "time", H5T_NATIVE_DOUBLE, path);
  h.dt = read_attribute<double>(file, "dt", H5T_NATIVE_DOUBLE, path);
  h.ranks = read_attribute<int>(file, "ranks", H5T_NATIVE_INT, path);
  const auto failed = fmt::format("cannot read the parameters of {}", path.string());
  dataset_handle parameters{H5Dopen2(file, parameters_dataset, H5P_DEFAULT), failed};
  datatype_handle type{H5Dget_type(parameters), failed};
  const std::size_t size = H5Tget_size(type);
  if (H5Tget_class(type) != H5T_STRING || size == 0) throw hdf5_error(failed + ": not a string");
  std::string text(size, '\0');
  checked(H5Dread(parameters, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()), failed);
  text.resize(std::strlen(text.c_str()));  // a fixed-length string may be padded with NULs
  if (auto wrong = checksum_mismatch(parameters, text_checksum(text), path, "its record of the parameters")) {
    throw hdf5_error(*wrong);
  }
  h.parameters = std::move(text);
  return h;
}

void read_checkpoint(const fs::path& path, checkpoint_contents& into, routine_context& ranks) {
  const auto lock = lock_hdf5();
  quiet_hdf5_errors();
  file_handle file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), fmt::format("cannot open {}", path.string())};
  const int iteration = read_attribute<int>(file, "iteration", H5T_NATIVE_INT, path);
  for (auto& a : into.arrays) {
    const auto name = dataset_name(a.implementation, a.name, iteration, a.level);
    const auto failed = fmt::format("checkpoint {}: cannot read dataset \"{}\"", path.string(), name);
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) {
      throw hdf5_error(fmt::format("checkpoint {} has no dataset \"{}\": it was written by a run with other variables",
                                   path.string(), name));
    }
    dataset_handle dataset{H5Dopen2(file, name.c_str(), H5P_DEFAULT), failed};
    datatype_handle type{H5Dget_type(dataset), failed};
    const auto expected = a.type == opuntia::data_type::cctk_int ? H5T_INTEGER : H5T_FLOAT;
    if (H5Tget_class(type) != expected) {
      throw hdf5_error(fmt::format("checkpoint {}: dataset \"{}\" is not {}", path.string(), name,
                                   a.type == opuntia::data_type::cctk_int ? "CCTK_INT" : "CCTK_REAL"));
    }
    dataspace_handle space{H5Dget_space(dataset), failed};
    const int rank = H5Sget_simple_extent_ndims(space);
    if (!a.grid_function) {
      if (rank != 0) throw hdf5_error(fmt::format("checkpoint {}: dataset \"{}\" is not a scalar", path.string(), name));
      checked(H5Dread(dataset, memory_type(a.type), H5S_ALL, H5S_ALL, H5P_DEFAULT, a.values), failed);
      check_array(dataset, local_checksum(a, into.grid), path, name);
      continue;
    }
    std::array<hsize_t, 3> dims{};
    if (rank != 3 || H5Sget_simple_extent_dims(space, dims.data(), nullptr) != 3 ||
        dims != std::array<hsize_t, 3>{static_cast<hsize_t>(into.extent[2]), static_cast<hsize_t>(into.extent[1]),
                                       static_cast<hsize_t>(into.extent[0])}) {
      throw hdf5_error(fmt::format("checkpoint {}: dataset \"{}\" is not the grid of {}x{}x{} owned points",
                                   path.string(), name, into.extent[0], into.extent[1], into.extent[2]));
    }
    read_owned_points(dataset, a.type, a.values, into.grid, failed);
    check_array(dataset, ranks.wrapping_sum(local_checksum(a, into.grid)), path, name);
  }
}

}  // namespace opuntia::thorns::IOHDF5
