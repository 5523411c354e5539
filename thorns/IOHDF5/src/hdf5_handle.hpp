#pragma once
// HDF5 identifiers that close themselves, and calls checked with the library's own reason: the
// library's automatic printing of its error stack is turned off, and a failed call throws
// hdf5_error "what: reason" with the innermost message of the stack.
#include <hdf5.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace opuntia::thorns::IOHDF5 {

class hdf5_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// The innermost message of the current error stack, which it then clears.
inline std::string take_error_message() {
  std::string message;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        if (n == 0 && e->desc != nullptr) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &message);
  H5Eclear2(H5E_DEFAULT);
  return message.empty() ? "the HDF5 library gives no reason" : message;
}
}  // namespace detail

/// Throws hdf5_error "what: reason" when `status` (an identifier or a herr_t) is negative.
template <typename Status>
Status checked(Status status, std::string_view what) {
  if (status < 0) throw hdf5_error(std::string(what) + ": " + detail::take_error_message());
  return status;
}

/// Turns off the printing of HDF5's error stack, once per process: errors reach the user as
/// exceptions with their reason instead.
inline void quiet_hdf5_errors() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

/// An HDF5 identifier closed by `Close` (H5Fclose, H5Dclose, ...) when it goes out of scope.
template <herr_t (*Close)(hid_t)>
class handle {
public:
  handle() = default;
  /// Takes `id` (negative: a failed call) and throws hdf5_error "what: reason" for a failed one.
  handle(hid_t id, std::string_view what) : id_(checked(id, what)) {}
  handle(handle&& other) noexcept : id_(std::exchange(other.id_, -1)) {}
  handle& operator=(handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
    }
    return *this;
  }
  handle(const handle&) = delete;
  handle& operator=(const handle&) = delete;
  ~handle() { reset(); }

  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: passed to the C API as it is
  /// Closes now, with the library's reason when that fails (a file's last writes happen here).
  void close(std::string_view what) {
    if (id_ < 0) return;
    checked(Close(std::exchange(id_, -1)), what);
  }

private:
  void reset() {
    if (id_ >= 0) Close(std::exchange(id_, -1));
  }
  hid_t id_ = -1;
};

using file_handle = handle<H5Fclose>;
using group_handle = handle<H5Gclose>;
using dataset_handle = handle<H5Dclose>;
using dataspace_handle = handle<H5Sclose>;
using attribute_handle = handle<H5Aclose>;
using property_handle = handle<H5Pclose>;
using datatype_handle = handle<H5Tclose>;

}  // namespace opuntia::thorns::IOHDF5
