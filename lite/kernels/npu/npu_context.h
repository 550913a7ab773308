// NpuContext: the NPU library's slot in a program's KernelContext.
//
// It holds the run-time NPU settings (NpuOptions: driver override, strict,
// cross-check) the predictor built the program with, and the records of the
// program's subgraph kernels in creation order (each kernel owns its record
// and pushes a pointer here in Init). Predictors read the records for the
// placement report. The KernelContext owns the NpuContext.
//
// Per-shape state: each subgraph kernel keeps its executables (one per input
// shape signature, each with the driver's workspace for that shape) in an
// LRU of at most `max_cached_shapes`, evicting the least recently run one
// before compiling another, and also until the ones kept plus the new one
// need no more activation bytes than 1.5x the largest compiled so far (a
// stream of large sizes holds about one large executable, not four);
// ReleaseNpuCaches (the predictor's memory budget)
// drops all but the one run last. Counts are in the context.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "lite/backends/npu/npu_options.h"
#include "lite/backends/npu/placement.h"
#include "lite/core/kernel.h"

namespace lite {
namespace kernels {
namespace npu {

struct NpuContext : public TargetContext {
  explicit NpuContext(NpuOptions o = NpuOptions()) : options(std::move(o)) {}
  TargetType target() const override { return TargetType::kNPU; }

  NpuOptions options;
  std::vector<const SubgraphRecord*> subgraphs;
  // Executables kept per subgraph (the LRU above); at least 1.
  int max_cached_shapes = 4;
  int64_t evictions = 0;  // executables dropped by the LRU or a release
  // One per subgraph kernel: drops its executables except the one run last,
  // returns how many it dropped; `cached` counts those it holds.
  std::vector<std::function<int()>> releasers;
  std::vector<std::function<int()>> cached;
};

// Executables held by all subgraphs of `ctx` now.
int NpuCachedShapes(const KernelContext& ctx);
// Drops every subgraph's executables but its last run one; the count dropped.
int ReleaseNpuCaches(KernelContext* ctx);

// The context a predictor hands to BuildRuntimeProgram.
std::unique_ptr<TargetContext> MakeNpuContext(const NpuOptions& options);
// The NPU context of `ctx`; one with default settings is added when the
// program was built without it.
NpuContext* NpuContextOf(KernelContext* ctx);
// The subgraph records of a program (none without an NPU context).
std::vector<const SubgraphRecord*> SubgraphRecordsOf(const KernelContext& ctx);

}  // namespace npu
}  // namespace kernels
}  // namespace lite
