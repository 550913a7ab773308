// The graph passes inside control-flow sub-blocks (the bodies of while and
// conditional_block), run by the optimizer before the main block's
// pipeline.
//
// Each sub-block becomes its own SSAGraph (with its ancestors' var descs, so
// outer weights are weights) on the host place, since the sub-block's ops
// run host kernels. The sub-block's effects outside are what its outer
// activations (declared in an ancestor block) and its loop-carried vars (read before
// written in the block) hold at its end: each such name's last version is
// read by an observer stmt (a fetch op, which every pass already leaves
// alone) for the duration of the passes, so no pass renames, drops or moves
// it. Then the block is written back in the graph's order: its ops without
// the observers, its own vars plus those the passes created; new weights'
// descs go to block 0 (the params files list block 0's persistable vars;
// their tensors are in the root scope, as in the main block), each op
// carrying the host kernel static_kernel_pick_pass picked for it.
//
// There is one pipeline (DefaultPipeline()); a pass runs here when it says
// it may (Pass::runs_on_sub_blocks). Not here: the int8 rewrites (int8 ops
// only where an int8 kernel of a valid place takes them), the fusions only a
// non-host kernel takes, npu_subgraph_pass (no device subgraph inside a loop
// body or branch) and the placement and cast passes (host only).
#pragma once

#include <string>
#include <vector>

#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/optimizer/pass_manager.h"

namespace lite {
namespace mir {

// The passes of `pipeline` that run on sub-blocks, in its order.
std::vector<std::string> SubBlockPasses(const std::vector<std::string>& pipeline);

// Runs `passes` over every block a while or conditional_block op of
// `program` runs (not subgraph bodies), in block order,
// appending the records to `report` with the pass names suffixed
// " (block N)". Errors name the block.
Status RunSubBlockPasses(cpp::ProgramDesc* program, Scope* scope, PassManager* manager,
                         const std::vector<std::string>& passes, PassReport* report);

}  // namespace mir
}  // namespace lite
