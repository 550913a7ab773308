// type_target_cast_pass: inserts an io_copy op wherever a var's place cannot
// be read by a consumer's kernel (TargetCompatible is false). One copy per
// (source var, destination target) is shared by all consumers that need it.
// Requires variable_place_inference_pass.
#include <map>
#include <utility>

#include "lite/optimizer/pass.h"

namespace lite {
namespace mir {

class TypeTargetCastPass : public Pass {
 public:

  StatusOr<bool> Run(SSAGraph* graph) override {
    const KernelDef* copy_kernel = nullptr;
    for (const KernelDef* d : KernelRegistry::Global().Find("io_copy")) copy_kernel = d;
    std::map<std::pair<int, TargetType>, Node*> copies;  // (src id, target)
    bool changed = false;
    for (Node* stmt : graph->StmtNodes()) {
      const KernelDef* picked = stmt->stmt().picked;
      if (!picked) continue;
      for (Node* in : std::vector<Node*>(stmt->inlinks)) {
        const std::string param = InputParamOf(stmt, in->arg().name);
        Place want = picked->InputPlace(param);
        if (TargetCompatible(in->arg().place.target, want.target)) continue;
        if (!copy_kernel) {
          return NotFound("op " + stmt->label() + " needs var '" + in->arg().name +
                          "' copied to " + TargetName(want.target) +
                          " but no io_copy kernel is registered");
        }
        auto key = std::make_pair(in->id(), want.target);
        Node* copied = copies[key];
        if (!copied) {
          copied = InsertCopy(graph, in, want, stmt->stmt().order, copy_kernel);
          copies[key] = copied;
          Count("inserted");
        }
        SSAGraph::Unlink(in, stmt);
        SSAGraph::Link(copied, stmt);
        stmt->stmt().desc.RenameInput(in->arg().name, copied->arg().name);
        changed = true;
      }
    }
    return changed;
  }

 private:
  static Node* InsertCopy(SSAGraph* graph, Node* src, const Place& want,
                          int64_t order, const KernelDef* kernel) {
    std::string name = graph->UniqueVarName(src->arg().name + "/to_" + TargetName(want.target));
    cpp::VarDesc vd;
    if (const cpp::VarDesc* base = graph->FindVarDesc(src->arg().name)) vd = *base;
    vd.name = name;
    vd.persistable = false;
    graph->SetVarDesc(vd);
    cpp::OpDesc desc("io_copy");
    desc.SetInput("Input", {src->arg().name});
    desc.SetOutput("Out", {name});
    Node* op = graph->NewStmtNode(desc, order);
    op->stmt().picked = kernel;
    Node* out = graph->NewArgNode(name);
    out->arg().place = want;
    out->arg().place_known = true;
    SSAGraph::Link(src, op);
    SSAGraph::Link(op, out);
    return out;
  }
};

}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(type_target_cast_pass, lite::mir::TypeTargetCastPass);
