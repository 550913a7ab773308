// identity_dropout_eliminate_pass: dropout at inference.
//   "upscale_in_train" (Out = X), or any mode with dropout_prob 0: removed
//     like an identity (see RemoveIdentityOp; counted as "removed");
//   "downgrade_in_infer" (the default; Out = X * (1 - p)): rewritten in place
//     into scale(scale = 1 - p, bias = 0) (counted as "to_scale").
// The Mask output must be unused (the matcher checks it) and is dropped.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class IdentityDropoutEliminatePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* drop = p.Op("dropout", {"dropout"});
    p.Reads(drop, "X", p.Input("x"));
    p.Writes(drop, "Out", p.Output("y"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* op = m.at("dropout");
    const cpp::OpDesc& d = op->stmt().desc;
    const std::string mode = d.GetAttr<std::string>("dropout_implementation",
                                                    "downgrade_in_infer");
    const float p = d.GetAttr<float>("dropout_prob", 0.5f);
    if (mode != "upscale_in_train" && mode != "downgrade_in_infer") {
      return Unimplemented("dropout (output " + m.at("y")->arg().name +
                           "): unknown dropout_implementation '" + mode + "'");
    }
    if (mode == "upscale_in_train" || p == 0.f) {
      if (RemoveIdentityOp(graph, op, m.at("x"), m.at("y"))) {
        Count("removed");
        return true;
      }
      Count("kept");
      return false;
    }
    cpp::OpDesc scale("scale");
    scale.SetInput("X", {m.at("x")->arg().name});
    scale.SetOutput("Out", {m.at("y")->arg().name});
    scale.SetAttr("scale", 1.f - p);
    scale.SetAttr("bias", 0.f);
    scale.SetAttr("bias_after_scale", true);
    for (Node* out : std::vector<Node*>(op->outlinks)) {  // the unused Mask
      if (out == m.at("y")) continue;
      SSAGraph::Unlink(op, out);
      RemoveIfOrphan(graph, out);
    }
    op->stmt().desc = scale;
    Count("to_scale");
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(identity_dropout_eliminate_pass,
                  lite::mir::fusion::IdentityDropoutEliminatePass);
