// GenerateProgram: lowers an optimized SSAGraph to the program the
// predictors run; the step between the graph passes and the program steps.
//
// The graph's block is replaced by its statements in deterministic
// topological order, each op carrying the key of its picked kernel in the
// attribute kKernelKeyAttr, and the block's vars by the descs of every var
// the graph still uses. Other blocks of the source program are kept and
// blocks passes added (subgraph bodies) are appended. The graph is only read;
// the caller owns the returned program.
#pragma once

#include "lite/base/program_desc.h"
#include "lite/optimizer/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {

// Error (naming the op) when a statement has no picked kernel.
StatusOr<cpp::ProgramDesc> GenerateProgram(const SSAGraph& graph);

}  // namespace mir
}  // namespace lite
