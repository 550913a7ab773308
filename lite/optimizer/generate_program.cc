#include "lite/optimizer/generate_program.h"

#include <set>

#include "lite/core/program.h"

namespace lite {
namespace mir {

StatusOr<cpp::ProgramDesc> GenerateProgram(const SSAGraph& graph) {
  ASSIGN_OR_RETURN(std::vector<Node*> order, graph.StmtTopologicalOrder());
  cpp::ProgramDesc out = graph.source_program();
  cpp::BlockDesc& block = out.blocks[graph.block_idx()];
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
  }
  // Weights read only inside added blocks or control-flow sub-blocks keep
  // their descs here (the params files list block 0's persistable vars).
  auto keep_weights_of = [&](const cpp::BlockDesc& other) {
    for (const cpp::OpDesc& op : other.ops) {
      for (const auto& v : op.InputArgumentNames()) {
        const cpp::VarDesc* vd = graph.FindVarDesc(v);
        if (vd && vd->persistable) used.insert(v);
      }
    }
  };
  for (const cpp::BlockDesc& added : graph.added_blocks()) keep_weights_of(added);
  for (size_t b = 0; b < out.blocks.size(); ++b) {
    if (static_cast<int>(b) != graph.block_idx()) keep_weights_of(out.blocks[b]);
  }
  block.vars.clear();
  for (const auto& kv : graph.var_descs()) {
    if (used.count(kv.first)) block.vars.push_back(kv.second);
  }
  for (const cpp::BlockDesc& added : graph.added_blocks()) out.blocks.push_back(added);
  return out;
}

}  // namespace mir
}  // namespace lite
