#pragma once
// Where the valid copy of each grid function buffer is: host, device or both. Data moves only
// when the other side needs it: a kernel reading a buffer whose device copy is stale, or the host
// reading one whose host copy is stale; never on every launch. It also counts each buffer's
// writes, which tell a checkpoint's snapshot what changed since the last one.
#include <cstddef>
#include <map>

#include "flesh/grid/grid_functions.hpp"

namespace opuntia::thorns::CaKernel {

enum class validity { host, device, both };

class validity_tracker {
public:
  /// What must be copied before a use; the tracker assumes the copy then happens.
  enum class transfer { none, to_device, to_host };

  /// A buffer the tracker has not seen is valid on the host only.
  validity state(const buffer_key& buffer) const;

  transfer before_kernel_reads(const buffer_key& buffer);  // intent in, inout, separateinout
  void after_kernel_writes(const buffer_key& buffer);      // intent out, inout, separateinout
  transfer before_host_reads(const buffer_key& buffer);
  void after_host_writes(const buffer_key& buffer);

  /// How many writes (by kernels and by the host) the buffer has had: kernel_runtime::stamp_of.
  std::size_t writes(const buffer_key& buffer) const;

private:
  std::map<buffer_key, validity> states_;
  std::map<buffer_key, std::size_t> writes_;
};

}  // namespace opuntia::thorns::CaKernel
