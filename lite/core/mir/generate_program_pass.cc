// generate_program_pass: writes the optimized program into graph->generated().
//
// The graph's block is replaced by its statements in deterministic
// topological order, each op carrying the key of its picked kernel in the
// attribute kKernelKeyAttr, and the block's vars by the descs of every var
// the graph still uses. Other blocks are kept and blocks passes added
// (subgraph bodies) are appended. Both
// predictors build their RuntimeProgram from this program.
#include <set>

#include "lite/core/mir/pass.h"
#include "lite/core/program.h"

namespace lite {
namespace mir {

class GenerateProgramPass : public Pass {
 public:
  std::string name() const override { return "generate_program_pass"; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    ASSIGN_OR_RETURN(std::vector<Node*> order, graph->StmtTopologicalOrder());
    cpp::ProgramDesc* out = graph->generated();
    *out = graph->source_program();
    cpp::BlockDesc& block = out->blocks[graph->block_idx()];
    block.ops.clear();
    std::set<std::string> used;
    for (Node* stmt : order) {
      if (!stmt->stmt().picked) {
        return FailedPrecondition("op " + stmt->label() + " has no picked kernel");
      }
      cpp::OpDesc desc = stmt->stmt().desc;
      desc.SetAttr(kKernelKeyAttr, stmt->stmt().picked->Key());
      for (const auto& v : desc.InputArgumentNames()) used.insert(v);
      for (const auto& v : desc.OutputArgumentNames()) used.insert(v);
      block.ops.push_back(std::move(desc));
      Count("emitted");
    }
    for (const cpp::BlockDesc& added : graph->added_blocks()) {
      for (const cpp::OpDesc& op : added.ops) {
        for (const auto& v : op.InputArgumentNames()) {
          const cpp::VarDesc* vd = graph->FindVarDesc(v);
          if (vd && vd->persistable) used.insert(v);
        }
      }
    }
    block.vars.clear();
    for (const auto& kv : graph->var_descs()) {
      if (used.count(kv.first)) block.vars.push_back(kv.second);
    }
    for (const cpp::BlockDesc& added : graph->added_blocks()) out->blocks.push_back(added);
    graph->set_has_generated(true);
    return false;  // the graph itself is unchanged
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(generate_program_pass, lite::mir::GenerateProgramPass);
