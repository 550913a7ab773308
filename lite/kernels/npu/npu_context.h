// NpuContext: the NPU library's slot in a program's KernelContext.
//
// It holds the run-time NPU settings (NpuOptions: driver override, strict,
// cross-check) the predictor built the program with, and the records of the
// program's subgraph kernels in creation order (each kernel owns its record
// and pushes a pointer here in Init). Predictors read the records for the
// placement report. The KernelContext owns the NpuContext.
#pragma once

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
};

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
