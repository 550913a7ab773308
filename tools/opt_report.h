// What tools/opt prints besides the pass log: op x target support tables
// (from the OpRegistry and KernelRegistry linked into the binary), the
// model's op list, registered kernel keys, and the before/after summary of
// an optimization. Pure functions returning text; deterministic (sorted).
//
// Owned by tools/ (opt). Targets reported: host, x86, npu. A target
// "supports" an op when a kernel is registered for it or for target any;
// host kernels are also the fallback for every other target.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "lite/backends/npu/plugin/plugin_loader.h"
#include "lite/base/types.h"
#include "lite/base/program_desc.h"

namespace lite {
namespace tools {

// host, x86, npu.
const std::vector<TargetType>& ReportTargets();
// A kernel for `op` registered with target `t` (or kAny).
bool HasKernelFor(const std::string& op, TargetType t);
// Supported by some place of `places` (host fallback included).
bool SupportedBy(const std::string& op, const std::vector<Place>& places);

// Every op type (registered ops and ops with kernels) x target: "Y" / "-".
std::string AllOpsTable();
// The ops `places` can run, one per line with the targets that have kernels.
std::string SupportedOpsText(const std::vector<Place>& places);
// The model's ops (every block) with counts, per-target support, and
// whether `places` can run them; ends with the unsupported ones, if any.
std::string ModelOpsTable(const cpp::ProgramDesc& program, const std::vector<Place>& places);

// An op type of a model that no place of the valid places can run.
struct UnsupportedOp {
  std::string type;
  int count = 0;         // occurrences over every block
  std::string closest;   // the supported type nearest by edit distance
};
// The model's unsupported op types, sorted by type.
std::vector<UnsupportedOp> UnsupportedModelOps(const cpp::ProgramDesc& program,
                                               const std::vector<Place>& places);
// The type `places` can run with the smallest edit distance to `op` (ties:
// the alphabetically first); empty when nothing is supported.
std::string ClosestSupportedOp(const std::string& op, const std::vector<Place>& places);
// "a x2 (closest supported: b), c x1 (closest supported: d)".
std::string UnsupportedOpsText(const std::vector<UnsupportedOp>& ops);
// Every registered kernel key, one per line.
std::string KernelsText();
// The NPU drivers (name, API or plugin ABI version, driver version, origin:
// "built in" or the plugin file), the plugin files `scan` refused or
// ignored, and the op types with bridges.
std::string DriversText(const npu::PluginScan& scan);

// Op type -> count over block 0.
std::map<std::string, int> OpCounts(const cpp::ProgramDesc& program);
// Ops before/after with per-type diff, subgraph op count, and picked kernels
// per target (from the kernel keys recorded in `after`).
std::string SummaryText(const cpp::ProgramDesc& before, const cpp::ProgramDesc& after);

}  // namespace tools
}  // namespace lite
