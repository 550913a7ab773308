// constant_folding_pass: an op whose inputs are all weights is run once at
// optimization time and its used outputs become weights (e.g. the
// reshape2(conv bias) -> [1, C, 1, 1] of PaddleClas MobileNetV3, which then
// lets conv_elementwise_add_fuse_pass fold the add).
//
// The op is executed exactly as at run time: a one-op program goes through
// static_kernel_pick_pass and GenerateProgram and runs on the host
// kernels in a temporary scope (inputs share the weights' buffers, which
// kernels only read). Skipped: ops without inputs, feed/fetch/io_copy,
// control flow, random ops, ops whose outputs are fetched, written more than
// once, or already named in the scope. An op that fails to run is left
// alone (counted as "failed"); folded ops count as "matched". The new
// weights keep the output var names.
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/optimizer/generate_program.h"
#include "lite/optimizer/pass.h"
#include "lite/optimizer/pass_manager.h"
#include "lite/core/program.h"

namespace lite {
namespace mir {
namespace fusion {

class ConstantFoldingPass : public Pass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

  StatusOr<bool> Run(SSAGraph* graph) override {
    if (!graph->scope()) return false;
    ASSIGN_OR_RETURN(std::vector<Node*> order, graph->StmtTopologicalOrder());
    bool changed = false;
    for (Node* op : order) {  // folding removes only `op`, never a later stmt
      if (!Foldable(*graph, op)) continue;
      Status s = Fold(graph, op);
      if (!s.ok()) {
        Count("failed");
        continue;
      }
      Count("matched");
      changed = true;
    }
    return changed;
  }

 private:
  static bool Foldable(const SSAGraph& graph, const Node* op) {
    const std::string& type = op->stmt().desc.Type();
    for (const char* no : {"feed", "fetch", "io_copy", "subgraph", "while",
                           "conditional_block", "print", "assert"}) {
      if (type == no) return false;
    }
    if (type.find("random") != std::string::npos || op->inlinks.empty()) return false;
    for (const Node* in : op->inlinks) {
      if (!in->arg().is_weight) return false;
    }
    bool used = false;
    for (const Node* out : op->outlinks) {
      if (out->outlinks.empty()) continue;
      used = true;
      if (IsFetched(out) || Versions(graph, out->arg().name) != 1 ||
          graph.scope()->FindVar(out->arg().name)) {
        return false;
      }
    }
    return used;
  }

  // Runs `op` on its weights and turns its used outputs into weights.
  static Status Fold(SSAGraph* graph, Node* op) {
    cpp::ProgramDesc mini;
    mini.blocks.emplace_back();
    cpp::BlockDesc& block = mini.blocks[0];
    cpp::OpDesc desc = op->stmt().desc;
    desc.RemoveAttr(kKernelKeyAttr);
    block.ops.push_back(desc);
    Scope tmp;
    for (const Node* n : op->inlinks) {
      block.vars.push_back(DescOf(*graph, n->arg().name));
      tmp.Var(n->arg().name)->GetMutableTensor()->ShareDataWith(*WeightTensor(*graph, n));
    }
    for (const Node* n : op->outlinks) {
      cpp::VarDesc vd = DescOf(*graph, n->arg().name);
      vd.persistable = false;
      block.vars.push_back(vd);
    }
    SSAGraph g;
    RETURN_IF_ERROR(g.Build(mini, 0, &tmp, {Place(TargetType::kHost)}));
    RETURN_IF_ERROR(PassManager().Run(&g, {"static_kernel_pick_pass"}).status());
    ASSIGN_OR_RETURN(cpp::ProgramDesc lowered, GenerateProgram(g));
    ASSIGN_OR_RETURN(auto program, BuildRuntimeProgram(lowered, &tmp, 1));
    RETURN_IF_ERROR(program->Run());
    for (Node* out : std::vector<Node*>(op->outlinks)) {
      if (out->outlinks.empty()) continue;
      const Tensor* t = tmp.FindMutableTensor(out->arg().name);
      if (!t || !t->IsInitialized()) return Internal("no value for " + out->arg().name);
    }
    for (Node* out : std::vector<Node*>(op->outlinks)) {  // commit
      if (out->outlinks.empty()) continue;
      const Tensor& t = *tmp.FindMutableTensor(out->arg().name);
      Tensor* w = graph->scope()->Var(out->arg().name)->GetMutableTensor();
      w->CopyDataFrom(t);
      w->set_persistable(true);
      cpp::VarDesc vd = DescOf(*graph, out->arg().name);
      vd.persistable = true;
      vd.dims = t.dims();
      vd.dtype = t.dtype();
      graph->SetVarDesc(vd);
      out->arg().is_weight = true;
      SSAGraph::Unlink(op, out);
    }
    RemoveOp(graph, op);
    return Status::OK();
  }

  static cpp::VarDesc DescOf(const SSAGraph& graph, const std::string& name) {
    if (const cpp::VarDesc* d = graph.FindVarDesc(name)) return *d;
    cpp::VarDesc vd;
    vd.name = name;
    return vd;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(constant_folding_pass, lite::mir::fusion::ConstantFoldingPass);
