// identity_scale_eliminate_pass: removes `scale` ops that compute Out = X
// (scale 1, bias 0, no ScaleTensor, no fused activation), e.g. the
// "save_infer_model/scale_0" op Paddle appends before a fetch. The fetched
// name is kept: the op before the scale writes it directly (see
// RemoveIdentityOp). A scale whose removal would rename a fetched var is
// kept and counted as "kept".
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class IdentityScaleEliminatePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* scale = p.Op("scale", {"scale"})->If([](const cpp::OpDesc& d) {
      return d.GetAttr<float>("scale", 1.f) == 1.f && d.GetAttr<float>("bias", 0.f) == 0.f &&
             !d.HasInput("ScaleTensor") && HasNoFusedActivation(d);
    });
    p.Reads(scale, "X", p.Input("x"));
    p.Writes(scale, "Out", p.Output("y"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    if (RemoveIdentityOp(graph, m.at("scale"), m.at("x"), m.at("y"))) return true;
    Count("kept");
    return false;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(identity_scale_eliminate_pass,
                  lite::mir::fusion::IdentityScaleEliminatePass);
