// elementwise_activation_fuse_pass: elementwise_add / sub / mul / div
// followed by relu, relu6, leaky_relu, hard_swish, hard_sigmoid, sigmoid or
// swish becomes the elementwise op with the fuse_* attributes (applied to
// its output, after any y_activation on Y). Skipped when the elementwise op
// already has a fused activation.
#include "lite/core/mir/fusion/fusion_pass.h"
#include "lite/core/mir/fusion/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ElementwiseActivationFusePass : public FusionPass {
 public:
  std::string name() const override { return "elementwise_activation_fuse_pass"; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* ew = p.Op("ew", {"elementwise_add", "elementwise_sub", "elementwise_mul",
                            "elementwise_div"})
                    ->If(HasNoFusedActivation);
    PNode* mid = p.Intermediate("ew_out");
    PNode* act = p.Op("act", FusableActivations());
    p.Writes(ew, "Out", mid).Reads(act, "X", mid).Writes(act, "Out", p.Output("out"));
    std::vector<Pattern> out;
    out.push_back(std::move(p));
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    if (FoldActivation(graph, m.at("ew"), m.at("ew_out"), m.at("act"), m.at("out"))) {
      return true;
    }
    Count("unfusable");
    return false;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(elementwise_activation_fuse_pass,
                  lite::mir::fusion::ElementwiseActivationFusePass);
