#pragma once
// Where the valid copy of each grid function is: host, device or both. Data moves only when
// the other side needs it: a kernel reading a variable whose device copy is stale, or the host
// reading one whose host copy is stale; never on every launch.
#include <map>
#include <string>

namespace opuntia::thorns::CaKernel {

enum class validity { host, device, both };

class validity_tracker {
public:
  /// What must be copied before a use; the tracker assumes the copy then happens.
  enum class transfer { none, to_device, to_host };

  /// A variable the tracker has not seen is valid on the host only.
  validity state(const std::string& variable) const;

  transfer before_kernel_reads(const std::string& variable);   // intent in, inout, separateinout
  void after_kernel_writes(const std::string& variable);       // intent out, inout, separateinout
  transfer before_host_reads(const std::string& variable);
  void after_host_writes(const std::string& variable);

private:
  std::map<std::string, validity> states_;
};

}  // namespace opuntia::thorns::CaKernel
