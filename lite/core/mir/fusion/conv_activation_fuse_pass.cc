// conv_activation_fuse_pass: a conv (conv2d / depthwise_conv2d /
// conv2d_transpose, with or without Bias) followed by relu, relu6,
// leaky_relu, hard_swish, hard_sigmoid, sigmoid or swish becomes the conv
// with the fuse_* attributes (FusedActivation, applied after the bias).
// Skipped when the conv already has a fused activation.
#include "lite/core/mir/fusion/fusion_pass.h"
#include "lite/core/mir/fusion/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvActivationFusePass : public FusionPass {
 public:
  std::string name() const override { return "conv_activation_fuse_pass"; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* conv = p.Op("conv", ConvTypes())->If(HasNoFusedActivation);
    PNode* mid = p.Intermediate("conv_out");
    PNode* act = p.Op("act", FusableActivations());
    p.Writes(conv, "Output", mid).Reads(act, "X", mid).Writes(act, "Out", p.Output("out"));
    std::vector<Pattern> out;
    out.push_back(std::move(p));
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    if (FoldActivation(graph, m.at("conv"), m.at("conv_out"), m.at("act"), m.at("out"))) {
      return true;
    }
    Count("unfusable");
    return false;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_activation_fuse_pass, lite::mir::fusion::ConvActivationFusePass);
