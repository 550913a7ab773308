// SubgraphRecord: what one subgraph kernel reports about itself: its ops,
// its driver, whether it runs on the device or fell back to its host ops
// and why, and (cross-check mode) how far device and host outputs differ.
//
// Each subgraph kernel owns its record; the KernelContext of its program
// lists pointers to them in program order so predictors can build the
// placement report. Plain data, read after creation or between runs.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lite {

// Attribute npu_subgraph_pass sets on each op it leaves on host: why (the
// bridge's or driver's reason, a partition rule, or the minimum size).
inline constexpr const char* kHostReasonAttr = "__npu_host_reason__";

struct SubgraphRecord {
  int id = 0;
  std::string driver;
  std::vector<std::string> ops;  // DebugName() of every op, block order
  enum class State { kPending, kOnDevice, kFellBack };
  State state = State::kPending;
  // kPending: why compilation waits (input shapes unknown until the first
  // run); kFellBack: the bridge, Compile or Execute failure.
  std::string reason;
  int compiles = 0;  // executables built (one per input-shape signature)
  // Executables rebuilt from saved compiled code (the .nb or the cache dir)
  // instead of compiling, and why saved code was last not used ("" when it
  // was, or when there was none).
  int deserializations = 0;
  std::string compiled_note;
  // When the driver refused to compile the whole subgraph and it was split:
  // how and why ("split into 3 parts (ops 1-5 device, ops 6-6 host, ...)
  // around 1 op(s) the driver refused: #6 reshape ...: reason"), and for
  // each index into `ops` that runs on host, the driver's reason.
  std::string split;
  std::map<int, std::string> host_ops;
  int device_runs = 0;
  // Cross-check mode: runs compared and the largest differences seen.
  int cross_checked_runs = 0;
  double max_abs_diff = 0;
  double max_rel_diff = 0;
};

const char* SubgraphStateName(SubgraphRecord::State s);  // "device", "host", "pending"

}  // namespace lite
