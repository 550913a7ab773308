// se_gate_fuse_pass: the squeeze-excitation gate. A hard_sigmoid or sigmoid
// whose output is read only as the Y input of an elementwise_mul becomes the
// mul's "y_activation" (y_alpha = slope, y_beta = offset for hard_sigmoid):
// Out = X * act(Y). MobileNetV3 blocks are elementwise_mul(X = feature,
// Y = hard_sigmoid(conv(pool(feature)))). When the gate feeds X instead, X
// and Y are swapped, but only for equal-rank operands with axis -1, where
// broadcasting is symmetric. Skipped when the mul already has a y_activation
// or reads the gate under both inputs.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"
#include "lite/operators/elementwise_ops.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {
Pattern MakePattern(const char* gate_param) {
  Pattern p;
  PNode* gate = p.Op("gate", {"hard_sigmoid", "sigmoid"});
  PNode* mid = p.Intermediate("gate_out");
  PNode* mul = p.Op("mul", {"elementwise_mul"})->If(HasNoYActivation);
  p.Reads(gate, "X", p.Input("gate_in")).Writes(gate, "Out", mid);
  p.Reads(mul, gate_param, mid).Writes(mul, "Out", p.Output("out"));
  return p;
}
}  // namespace

class SeGateFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    std::vector<Pattern> out;
    out.push_back(MakePattern("Y"));
    out.push_back(MakePattern("X"));
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override {
    Node* mul = m.at("mul");
    cpp::OpDesc& d = mul->stmt().desc;
    const std::string& gate_out = m.at("gate_out")->arg().name;
    if (d.Input("X").size() != 1 || d.Input("Y").size() != 1 ||
        d.Input("X")[0] == d.Input("Y")[0]) {
      Count("declined_inputs");
      return false;
    }
    if (which == 1) {  // the gate is X: swap only when broadcasting is symmetric
      Node* y = InputNode(mul, "Y");
      const size_t rx = VarDims(*graph, *m.at("gate_out")).size();
      const size_t ry = y ? VarDims(*graph, *y).size() : 0;
      if (rx == 0 || rx != ry || d.GetAttr<int32_t>("axis", -1) != -1) {
        Count("declined_gate_on_x");
        return false;
      }
    }
    auto act = operators::FusedActivation::FromActivationOp(m.at("gate")->stmt().desc);
    if (!act.ok() || !CanReadLater(*graph, m.at("gate_in"))) {
      Count("unsafe");
      return false;
    }
    if (which == 1) {
      const std::string other = d.Input("Y")[0];
      d.SetInput("Y", {gate_out});
      d.SetInput("X", {other});
      Count("swapped");
    }
    operators::YActivationToOpDesc(*act, &d);
    ReplaceInput(mul, m.at("gate_out"), m.at("gate_in"));
    RemoveOp(graph, m.at("gate"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(se_gate_fuse_pass, lite::mir::fusion::SeGateFusePass);
