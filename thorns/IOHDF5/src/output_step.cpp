#include "output_step.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "hdf5_handle.hpp"

namespace opuntia::thorns::IOHDF5 {

namespace fs = std::filesystem;

namespace {

/// The most bytes one rank sends to rank 0 at a time: its block goes in slabs of z-planes.
constexpr std::size_t piece_bytes = std::size_t{64} << 20;

hid_t memory_type(opuntia::data_type t) {
  if (t == opuntia::data_type::cctk_int) return H5T_NATIVE_INT;
  return sizeof(CCTK_REAL) == sizeof(double) ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}
hid_t file_type(opuntia::data_type t) {
  if (t == opuntia::data_type::cctk_int) return H5T_STD_I32LE;
  return sizeof(CCTK_REAL) == sizeof(double) ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
}
std::size_t element_size(opuntia::data_type t) {
  return t == opuntia::data_type::cctk_int ? sizeof(CCTK_INT) : sizeof(CCTK_REAL);
}

/// A box of the dataset, z, y, x as HDF5 sees it.
struct box {
  std::array<hsize_t, 3> start{};
  std::array<hsize_t, 3> count{};
  bool empty() const { return count[0] == 0 || count[1] == 0 || count[2] == 0; }
};

/// This rank's owned points: where they are in its local array and where in the dataset.
struct owned_points {
  box in_memory;
  std::array<hsize_t, 3> memory_dims{};
  box in_file;
};
owned_points owned_by_this_rank(const output_step& s) {
  const auto r = s.grid.interior();
  owned_points p;
  for (int d = 0; d < 3; ++d) {
    const auto z_first = static_cast<std::size_t>(2 - d);
    p.memory_dims[z_first] = static_cast<hsize_t>(s.grid.local[d]);
    p.in_memory.start[z_first] = static_cast<hsize_t>(r.begin[d]);
    p.in_memory.count[z_first] = static_cast<hsize_t>(std::max(0, r.end[d] - r.begin[d]));
    p.in_file.start[z_first] = static_cast<hsize_t>(s.grid.offset[d] + r.begin[d]);
    p.in_file.count[z_first] = p.in_memory.count[z_first];
  }
  return p;
}

void select(hid_t space, const box& b) {
  if (b.empty()) {
    checked(H5Sselect_none(space), "H5Sselect_none");
  } else {
    checked(H5Sselect_hyperslab(space, H5S_SELECT_SET, b.start.data(), nullptr, b.count.data(), nullptr),
            "H5Sselect_hyperslab");
  }
}

template <typename T>
void write_attribute(hid_t object, const char* name, hid_t type, const T* values, hsize_t count) {
  dataspace_handle space{count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr),
                         "H5Screate"};
  attribute_handle attribute{H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT),
                             fmt::format("creating attribute {}", name)};
  checked(H5Awrite(attribute, type, values), fmt::format("writing attribute {}", name));
}

void write_text_attribute(hid_t object, const char* name, const std::string& text) {
  datatype_handle type{H5Tcopy(H5T_C_S1), "H5Tcopy"};
  checked(H5Tset_size(type, std::max<std::size_t>(1, text.size())), "H5Tset_size");
  write_attribute(object, name, type.get(), text.c_str(), 1);
}

fs::path temporary_of(const fs::path& file) { return file.parent_path() / fmt::format(".{}.tmp", file.filename().string()); }

/// The file of one step, open with its new dataset. Until commit() the step can be taken back:
/// a new file is removed (it exists under its temporary name only), an existing one loses the
/// dataset again.
class step_file {
public:
  step_file(const output_step& s, hid_t access)
      : step_(s), path_(s.new_file ? temporary_of(s.file) : s.file), link_(xdmf_link(s.iteration)) {
    const auto what = [&](std::string_view action) { return fmt::format("{} {}", action, s.file.string()); };
    file_ = s.new_file ? file_handle{H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), what("cannot create")}
                       : file_handle{H5Fopen(path_.c_str(), H5F_ACC_RDWR, access), what("cannot open")};
    opened_ = true;
    const std::array<hsize_t, 3> dims{static_cast<hsize_t>(s.extent[2]), static_cast<hsize_t>(s.extent[1]),
                                      static_cast<hsize_t>(s.extent[0])};
    // A dataset of this name is there when a run ran these iterations before into the same file
    // without starting it anew (a recovered run): the new values replace it.
    for (const auto* name : {s.dataset.c_str(), link_.c_str()}) {
      if (H5Lexists(file_, name, H5P_DEFAULT) > 0) {
        checked(H5Ldelete(file_, name, H5P_DEFAULT), what("cannot replace a dataset in"));
      }
    }
    space_ = dataspace_handle{H5Screate_simple(3, dims.data(), nullptr), "H5Screate_simple"};
    dataset_ = dataset_handle{H5Dcreate2(file_, s.dataset.c_str(), file_type(s.type), space_, H5P_DEFAULT,
                                         H5P_DEFAULT, H5P_DEFAULT),
                              fmt::format("cannot create dataset \"{}\" in {}", s.dataset, s.file.string())};
    created_ = true;
    if (H5Lexists(file_, "xdmf", H5P_DEFAULT) <= 0) {
      group_handle group{H5Gcreate2(file_, "xdmf", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             what("cannot create the group xdmf in")};
    }
    checked(H5Lcreate_hard(file_, s.dataset.c_str(), file_, link_.c_str(), H5P_DEFAULT, H5P_DEFAULT),
            fmt::format("cannot link \"{}\" as {} in {}", s.dataset, link_, s.file.string()));
    write_attribute(dataset_, "time", H5T_NATIVE_DOUBLE, &s.time, 1);
    write_attribute(dataset_, "iteration", H5T_NATIVE_INT, &s.iteration, 1);
    write_attribute(dataset_, "origin", H5T_NATIVE_DOUBLE, s.origin.data(), 3);
    write_attribute(dataset_, "delta", H5T_NATIVE_DOUBLE, s.delta.data(), 3);
    write_text_attribute(dataset_, "centering", s.centering);
  }
  step_file(const step_file&) = delete;
  step_file& operator=(const step_file&) = delete;

  ~step_file() {
    if (!opened_) return;
    // Taken back: nothing of the step is left, and the file stays as the last step left it.
    dataset_ = {};
    if (step_.new_file) {
      file_ = {};
      std::error_code ignored;
      fs::remove(path_, ignored);
      return;
    }
    if (created_) {
      H5Ldelete(file_, step_.dataset.c_str(), H5P_DEFAULT);
      if (H5Lexists(file_, link_.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file_, link_.c_str(), H5P_DEFAULT);
    }
    file_ = {};
    H5Eclear2(H5E_DEFAULT);
  }

  /// Writes `memory` (a box of `memory_dims` at `values`) to `in_file`.
  void write(const box& in_file, const std::array<hsize_t, 3>& memory_dims, const box& in_memory, const void* values,
             hid_t transfer) {
    dataspace_handle memory{H5Screate_simple(3, memory_dims.data(), nullptr), "H5Screate_simple"};
    select(memory, in_memory);
    select(space_, in_file);
    checked(H5Dwrite(dataset_, memory_type(step_.type), memory, space_, transfer, values),
            fmt::format("cannot write dataset \"{}\" in {}", step_.dataset, step_.file.string()));
  }

  /// Closes the file, its writes done; a new file takes its name (`rename`: this rank renames).
  void commit(bool rename) {
    const auto what = fmt::format("cannot write {}", step_.file.string());
    dataset_.close(what);
    space_ = {};
    file_.close(what);
    if (step_.new_file && rename) {
      std::error_code error;
      fs::rename(path_, step_.file, error);
      if (error) {
        const auto reason = error.message();
        fs::remove(path_, error);
        throw hdf5_error(fmt::format("{}: {}", what, reason));
      }
    }
    opened_ = false;
  }

private:
  const output_step& step_;
  fs::path path_;
  std::string link_;
  file_handle file_;
  dataspace_handle space_;
  dataset_handle dataset_;
  bool opened_ = false, created_ = false;
};

/// Every rank's owned points, gathered to rank 0 in slabs of z-planes and written there.
void write_through_rank0(const output_step& s, routine_context& ranks) {
  const auto owned = owned_by_this_rank(s);
  const std::size_t element = element_size(s.type);
  const std::size_t plane_bytes = owned.in_memory.count[1] * owned.in_memory.count[2] * element;
  const hsize_t planes = owned.in_memory.empty() ? 0 : owned.in_memory.count[0];
  const hsize_t planes_per_piece = std::max<hsize_t>(1, piece_bytes / std::max<std::size_t>(1, plane_bytes));
  const hsize_t my_pieces = (planes + planes_per_piece - 1) / planes_per_piece;
  const auto pieces = static_cast<hsize_t>(ranks.maximum(static_cast<double>(my_pieces)));

  std::optional<step_file> file;
  if (ranks.rank() == 0) file.emplace(s, H5P_DEFAULT);
  const auto* values = static_cast<const unsigned char*>(s.values);
  for (hsize_t piece = 0; piece < pieces; ++piece) {
    // A piece: its box of the dataset, then its values in C order.
    std::string bytes;
    if (piece < my_pieces) {
      box part = owned.in_file;
      part.start[0] += piece * planes_per_piece;
      part.count[0] = std::min(planes_per_piece, planes - piece * planes_per_piece);
      bytes.resize(sizeof(box) + part.count[0] * plane_bytes);
      std::memcpy(bytes.data(), &part, sizeof(box));
      auto* out = reinterpret_cast<unsigned char*>(bytes.data()) + sizeof(box);
      const auto& m = owned.in_memory;
      const std::size_t row_bytes = m.count[2] * element;
      for (hsize_t k = 0; k < part.count[0]; ++k) {
        for (hsize_t j = 0; j < m.count[1]; ++j) {
          const std::size_t z = m.start[0] + piece * planes_per_piece + k, y = m.start[1] + j;
          const std::size_t first = (z * owned.memory_dims[1] + y) * owned.memory_dims[2] + m.start[2];
          std::memcpy(out, values + first * element, row_bytes);
          out += row_bytes;
        }
      }
    }
    const auto gathered = ranks.gather(bytes);
    if (!file) continue;
    for (const auto& received : gathered) {
      if (received.empty()) continue;
      box part;
      std::memcpy(&part, received.data(), sizeof(box));
      file->write(part, part.count, box{{}, part.count}, received.data() + sizeof(box), H5P_DEFAULT);
    }
  }
  if (file) file->commit(true);
}

}  // namespace

std::string xdmf_link(int iteration) { return fmt::format("xdmf/it={}", iteration); }

bool collective_writes_possible(int ranks) {
#ifdef H5_HAVE_PARALLEL
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) return false;
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  return world == ranks;
#else
  (void)ranks;
  return false;
#endif
}

bool parallel_library() {
#ifdef H5_HAVE_PARALLEL
  return true;
#else
  return false;
#endif
}

std::string library_description() {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  return fmt::format("HDF5 {}.{}.{} ({})", major, minor, release, parallel_library() ? "parallel" : "serial");
}

void write_step(const output_step& s, routine_context& ranks, write_mode mode) {
  quiet_hdf5_errors();
  if (mode == write_mode::through_rank0) return write_through_rank0(s, ranks);
  property_handle access{H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"};
  property_handle transfer{H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"};
  if (mode == write_mode::collective) {
#ifdef H5_HAVE_PARALLEL
    checked(H5Pset_fapl_mpio(access, MPI_COMM_WORLD, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    checked(H5Pset_dxpl_mpio(transfer, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
#else
    throw std::logic_error("IOHDF5: collective writes asked of a serial HDF5 library");
#endif
  }
  const auto owned = owned_by_this_rank(s);
  step_file file(s, access);
  file.write(owned.in_file, owned.memory_dims, owned.in_memory, s.values, transfer);
  file.commit(ranks.rank() == 0);
  // The other ranks open the file under its new name at the next step.
  if (mode == write_mode::collective && s.new_file) ranks.maximum(0);
}

std::vector<series_entry> read_series(const fs::path& path, const std::string& prefix) {
  quiet_hdf5_errors();
  file_handle file{H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), fmt::format("cannot read {}", path.string())};
  std::vector<std::string> names;
  checked(H5Literate(
              file, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr,
              [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
                static_cast<std::vector<std::string>*>(out)->emplace_back(name);
                return 0;
              },
              &names),
          fmt::format("cannot list the datasets of {}", path.string()));
  std::vector<series_entry> series;
  constexpr std::string_view level = " tl=0";
  for (auto& name : names) {
    const std::string_view text(name);
    if (text.size() <= prefix.size() + level.size() || !text.starts_with(prefix) || !text.ends_with(level)) continue;
    series_entry e;
    const auto digits = text.substr(prefix.size(), text.size() - prefix.size() - level.size());
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), e.iteration);
    if (error != std::errc() || end != digits.data() + digits.size()) continue;
    attribute_handle time{H5Aopen_by_name(file, name.c_str(), "time", H5P_DEFAULT, H5P_DEFAULT),
                          fmt::format("cannot read the time of \"{}\" in {}", name, path.string())};
    checked(H5Aread(time, H5T_NATIVE_DOUBLE, &e.time),
            fmt::format("cannot read the time of \"{}\" in {}", name, path.string()));
    e.dataset = std::move(name);
    series.push_back(std::move(e));
  }
  std::sort(series.begin(), series.end(), [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
  return series;
}

}  // namespace opuntia::thorns::IOHDF5
