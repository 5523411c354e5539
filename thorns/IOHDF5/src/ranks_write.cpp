#include "ranks_write.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "IOHDF5_parameters.hpp"

namespace opuntia::thorns::IOHDF5 {

namespace fs = std::filesystem;

namespace {

/// The most bytes one rank sends to rank 0 at a time: its block goes in slabs of z-planes.
constexpr std::size_t piece_bytes = std::size_t{64} << 20;

/// A box of the dataset, z, y, x as HDF5 sees it.
struct box {
  std::array<hsize_t, 3> start{};
  std::array<hsize_t, 3> count{};
  bool empty() const { return count[0] == 0 || count[1] == 0 || count[2] == 0; }
};

/// This rank's owned points: where they are in its local array (padding included) and where in
/// the dataset.
struct owned_points {
  box in_memory;
  std::array<hsize_t, 3> memory_dims{};
  box in_file;
};
owned_points owned_by_this_rank(const grid_layout& grid) {
  const auto r = grid.interior();
  const auto in_array = grid.allocated_box(r);  // the rows' padding is in memory, not in the file
  const auto allocated = grid.allocated();
  owned_points p;
  for (int d = 0; d < 3; ++d) {
    const auto z_first = static_cast<std::size_t>(2 - d);
    p.memory_dims[z_first] = static_cast<hsize_t>(allocated[d]);
    p.in_memory.start[z_first] = static_cast<hsize_t>(in_array.begin[d]);
    p.in_memory.count[z_first] = static_cast<hsize_t>(std::max(0, r.end[d] - r.begin[d]));
    p.in_file.start[z_first] = static_cast<hsize_t>(grid.offset[d] + r.begin[d]);
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

/// Writes `in_memory` of an array of `memory_dims` at `values` to `in_file` of `dataset`.
void write_box(hid_t dataset, opuntia::data_type type, const box& in_file, const std::array<hsize_t, 3>& memory_dims,
               const box& in_memory, const void* values, hid_t transfer, std::string_view what) {
  dataspace_handle memory{H5Screate_simple(3, memory_dims.data(), nullptr), "H5Screate_simple"};
  dataspace_handle file{H5Dget_space(dataset), "H5Dget_space"};
  select(memory, in_memory);
  select(file, in_file);
  checked(H5Dwrite(dataset, memory_type(type), memory, file, transfer, values), what);
}

/// Every rank's owned points, gathered to rank 0 in slabs of z-planes and written there.
void write_through_rank0(hid_t dataset, opuntia::data_type type, const void* local_values, const grid_layout& grid,
                         routine_context& ranks, std::string_view what) {
  const auto owned = owned_by_this_rank(grid);
  const std::size_t element = element_size(type);
  const std::size_t plane_bytes = owned.in_memory.count[1] * owned.in_memory.count[2] * element;
  const hsize_t planes = owned.in_memory.empty() ? 0 : owned.in_memory.count[0];
  const hsize_t planes_per_piece = std::max<hsize_t>(1, piece_bytes / std::max<std::size_t>(1, plane_bytes));
  const hsize_t my_pieces = (planes + planes_per_piece - 1) / planes_per_piece;
  const auto pieces = static_cast<hsize_t>(ranks.maximum(static_cast<double>(my_pieces)));

  const auto* values = static_cast<const unsigned char*>(local_values);
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
    if (ranks.rank() != 0) continue;
    for (const auto& received : gathered) {
      if (received.empty()) continue;
      box part;
      std::memcpy(&part, received.data(), sizeof(box));
      write_box(dataset, type, part, part.count, box{{}, part.count}, received.data() + sizeof(box), H5P_DEFAULT,
                what);
    }
  }
}

}  // namespace

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
  const auto lock = lock_hdf5();
  H5get_libversion(&major, &minor, &release);
  return fmt::format("HDF5 {}.{}.{} ({})", major, minor, release, parallel_library() ? "parallel" : "serial");
}

write_mode write_mode_of(const routine_context& context) {
  if (context.size() == 1) return write_mode::one_rank;
  const bool collective = context.parameters<parameters>().collective_io;
  return collective && collective_writes_possible(context.size()) ? write_mode::collective : write_mode::through_rank0;
}

bool holds_file(write_mode mode, const routine_context& ranks) {
  return mode != write_mode::through_rank0 || ranks.rank() == 0;
}

write_properties properties_for(write_mode mode) {
  const auto lock = lock_hdf5();
  write_properties p{{H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"}, {H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"}};
#if H5_VERSION_GE(1, 10, 7)
  // A user looks at the output while the run goes on (ParaView, h5py), and such a reader holds
  // HDF5's lock on the file as long as it keeps it open: the run's next step, taking the lock to
  // write, failed ("unable to lock file") and ended the run. The run's writes take no lock: two
  // runs never write into one folder (its own lock, simulation::prepare_output_folder), and a
  // reader that keeps the file open sees the steps it had when it opened it.
  checked(H5Pset_file_locking(p.access, false, true), "H5Pset_file_locking");
#endif
  if (mode == write_mode::collective) {
#ifdef H5_HAVE_PARALLEL
    checked(H5Pset_fapl_mpio(p.access, MPI_COMM_WORLD, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    checked(H5Pset_dxpl_mpio(p.transfer, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
#else
    throw std::logic_error("IOHDF5: collective writes asked of a serial HDF5 library");
#endif
  }
  return p;
}

fs::path temporary_of(const fs::path& file) {
  return file.parent_path() / fmt::format(".{}.tmp", file.filename().string());
}

std::string dataset_name(std::string_view implementation, std::string_view variable, int iteration, int level) {
  std::string upper(implementation);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return fmt::format("{}::{} it={} tl={}", upper, variable, iteration, level);
}

std::size_t element_size(opuntia::data_type t) {
  return t == opuntia::data_type::cctk_int ? sizeof(CCTK_INT) : sizeof(CCTK_REAL);
}

hid_t memory_type(opuntia::data_type t) {
  if (t == opuntia::data_type::cctk_int) return H5T_NATIVE_INT;
  return sizeof(CCTK_REAL) == sizeof(double) ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}
hid_t file_type(opuntia::data_type t) {
  if (t == opuntia::data_type::cctk_int) return H5T_STD_I32LE;
  return sizeof(CCTK_REAL) == sizeof(double) ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
}

void write_text_attribute(hid_t object, const char* name, const std::string& text) {
  datatype_handle type{H5Tcopy(H5T_C_S1), "H5Tcopy"};
  checked(H5Tset_size(type, std::max<std::size_t>(1, text.size())), "H5Tset_size");
  write_attribute(object, name, type.get(), text.c_str(), 1);
}

grid_attributes attributes_of(const grid_layout& grid, const centerings& centering, double time, int iteration) {
  grid_attributes a;
  a.time = time;
  a.iteration = iteration;
  for (int d = 0; d < 3; ++d) {
    a.origin[d] = grid.origin[d] + ccl::centering_offset(centering[d]) * grid.delta[d];
    a.centering += ccl::centering_letters[static_cast<std::size_t>(centering[d])];
  }
  a.delta = grid.delta;
  return a;
}

void write_grid_attributes(hid_t dataset, const grid_attributes& a) {
  write_attribute(dataset, "time", H5T_NATIVE_DOUBLE, &a.time, 1);
  write_attribute(dataset, "iteration", H5T_NATIVE_INT, &a.iteration, 1);
  write_attribute(dataset, "origin", H5T_NATIVE_DOUBLE, a.origin.data(), 3);
  write_attribute(dataset, "delta", H5T_NATIVE_DOUBLE, a.delta.data(), 3);
  write_text_attribute(dataset, "centering", a.centering);
}

dataset_handle create_grid_dataset(hid_t file, const std::string& name, opuntia::data_type type,
                                   const std::array<int, 3>& extent, std::string_view what) {
  const std::array<hsize_t, 3> dims{static_cast<hsize_t>(extent[2]), static_cast<hsize_t>(extent[1]),
                                    static_cast<hsize_t>(extent[0])};
  dataspace_handle space{H5Screate_simple(3, dims.data(), nullptr), "H5Screate_simple"};
  return dataset_handle{H5Dcreate2(file, name.c_str(), file_type(type), space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                        what};
}

void write_owned_points(hid_t dataset, opuntia::data_type type, const void* values, const grid_layout& grid,
                        routine_context& ranks, write_mode mode, hid_t transfer, std::string_view what) {
  if (mode == write_mode::through_rank0) return write_through_rank0(dataset, type, values, grid, ranks, what);
  const auto owned = owned_by_this_rank(grid);
  write_box(dataset, type, owned.in_file, owned.memory_dims, owned.in_memory, values, transfer, what);
}

void read_owned_points(hid_t dataset, opuntia::data_type type, void* values, const grid_layout& grid,
                       std::string_view what) {
  const auto owned = owned_by_this_rank(grid);
  dataspace_handle memory{H5Screate_simple(3, owned.memory_dims.data(), nullptr), "H5Screate_simple"};
  dataspace_handle file{H5Dget_space(dataset), "H5Dget_space"};
  select(memory, owned.in_memory);
  select(file, owned.in_file);
  checked(H5Dread(dataset, memory_type(type), memory, file, H5P_DEFAULT, values), what);
}

void write_from_rank0(hid_t dataset, hid_t type, const void* values, routine_context& ranks, write_mode mode,
                      hid_t transfer, std::string_view what) {
  if (!holds_file(mode, ranks)) return;
  if (ranks.rank() == 0) {
    checked(H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, transfer, values), what);
    return;
  }
  // A collective write: the other ranks take part, writing nothing.
  dataspace_handle file{H5Dget_space(dataset), "H5Dget_space"};
  checked(H5Sselect_none(file), "H5Sselect_none");
  checked(H5Dwrite(dataset, type, file, file, transfer, values), what);
}

}  // namespace opuntia::thorns::IOHDF5
