#pragma once
// HDF5 identifiers that close themselves, and calls checked with the library's own reason: the
// library's automatic printing of its error stack is turned off, and a failed call throws
// hdf5_error "what: reason" with the innermost message of the stack.
//
// The HDF5 library of Debian (serial and parallel) is built without its thread-safe option, and
// a checkpoint may be written by a second thread while IOHDF5's output runs on the run's: every
// HDF5 call of the process is made holding hdf5_mutex() (lock_hdf5()). Each entry point of
// IOHDF5 holds it for what it does; a checkpoint written in the background holds it for one
// dataset at a time and lets go while the file is flushed to the disk, so that an output step
// waits for one dataset at most. Handles take it to close themselves.
#include <hdf5.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace opuntia::thorns::IOHDF5 {

/// The one mutex every HDF5 call of the process is made under (recursive: an entry point that
/// holds it calls helpers that take it again).
inline std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}
using hdf5_lock = std::unique_lock<std::recursive_mutex>;
/// Holds hdf5_mutex() until the returned lock goes out of scope.
[[nodiscard]] inline hdf5_lock lock_hdf5() { return hdf5_lock(hdf5_mutex()); }

class hdf5_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// A system call's failure as HDF5's file drivers describe it, "file write failed: time = ...,
/// filename = '...', file descriptor = 4, errno = 28, error message = 'No space left on device',
/// buf = 0x..., ...", told as "file write failed: No space left on device", and "unable to extend
/// file properly, errno = 27, error message = 'File too large'" as "unable to extend file
/// properly: File too large" (the file is named by the caller's message). Others are kept.
inline std::string without_driver_details(std::string message) {
  constexpr std::string_view system_reason = "error message = '";
  const auto reason = message.find(system_reason);
  if (reason == std::string::npos) return message;
  const auto begin = reason + system_reason.size();
  const auto end = message.find('\'', begin);
  if (end == std::string::npos) return message;
  const auto details = std::min(message.find(':'), message.find(','));  // what failed ends here
  return message.substr(0, details) + ": " + message.substr(begin, end - begin);
}

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
  return message.empty() ? "the HDF5 library gives no reason" : without_driver_details(std::move(message));
}

/// Called where H5Fclose failed. HDF5 1.10 then keeps the file's identifier with its state
/// already freed, and its clean-up at the process's end (atexit, or MPI_Finalize's callback on
/// MPI_COMM_SELF) closes it again and crashes (H5F__close_cb): a failed write ended as a
/// segmentation fault instead of its error. The failure has been thrown to the caller, whose
/// error the run prints; the process then ends with status 1 before that clean-up (an exit
/// handler registered now runs before those registered earlier, MPI's among them).
inline void skip_hdf5_cleanup_at_exit() {
  static const bool registered = [] {
    std::atexit([] {
      std::fflush(nullptr);
      std::_Exit(1);
    });
    return true;
  }();
  (void)registered;
}

template <herr_t (*Close)(hid_t)>
herr_t close_identifier(hid_t id) {
  const herr_t status = Close(id);
  if constexpr (Close == &H5Fclose) {
    if (status < 0) skip_hdf5_cleanup_at_exit();
  }
  return status;
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
  const auto lock = lock_hdf5();
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
    const auto lock = lock_hdf5();
    checked(detail::close_identifier<Close>(std::exchange(id_, -1)), what);
  }

private:
  void reset() {
    if (id_ < 0) return;
    const auto lock = lock_hdf5();
    detail::close_identifier<Close>(std::exchange(id_, -1));
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
