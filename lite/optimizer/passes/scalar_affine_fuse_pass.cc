// scalar_affine_fuse_pass: x * a + b with a and b one-value float weights
// (elementwise_mul of x and a, under either input name, then
// elementwise_add(X = product, Y = b)) becomes one `scale` op (scale a,
// bias b, bias after scale): one pass over x instead of two. PP-LCNetV3's
// learnable affine blocks (PP-OCRv4 / v5 det and rec) compute exactly this
// after most of their activations: 57 such pairs in PP-OCRv5 mobile det.
//
// An activation fused into the add (PP-LCNetV3's hard_swish after the
// block, folded in by elementwise_activation_fuse_pass) moves to the scale
// op. Declined (counted) when a or b holds more than one value or has more
// than one dim (a [1, 1, 1, 1] weight could raise x's rank), when the mul
// has a fused activation or either op a Y activation, or when renaming the
// add's output to the new op is unsafe. Rounding: scale computes a * x + b, as the two ops do, but
// may round once where they round twice. Runs before npu_subgraph_pass (for
// conv_prescale_fuse_pass) and again after it.
#include "lite/base/fused_activation.h"
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

// mul(x, a) with a under `weight_param` and x under `x_param`, then + b.
Pattern MakePattern(const char* weight_param, const char* x_param) {
  Pattern p;
  PNode* mul = p.Op("mul", {"elementwise_mul"})->If(HasNoActivations);
  PNode* product = p.Intermediate("product");
  PNode* add = p.Op("add", {"elementwise_add"})->If(HasNoYActivation);
  p.Reads(mul, weight_param, p.Input("a")->Weight()->DTypeIs(DataType::kFloat32));
  p.Reads(mul, x_param, p.Input("x"));
  p.Writes(mul, "Out", product).Reads(add, "X", product);
  p.Reads(add, "Y", p.Input("b")->Weight()->DTypeIs(DataType::kFloat32));
  p.Writes(add, "Out", p.Output("out"));
  return p;
}

// The value of a one-value weight of at most one dim.
bool ScalarWeight(const Tensor* t, float* value) {
  if (!t || !t->IsInitialized() || t->numel() != 1 || t->dims().size() > 1) return false;
  *value = t->data<float>()[0];
  return true;
}

}  // namespace

class ScalarAffineFusePass : public FusionPass {
 public:

 protected:
  std::vector<Pattern> BuildPatterns() const override { return BothOperandOrders(MakePattern); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* mul = m.at("mul");
    Node* add = m.at("add");
    Node* x = m.at("x");
    Node* out = m.at("out");
    float a = 0.f, b = 0.f;
    if (!ScalarWeight(WeightTensor(*graph, m.at("a")), &a) ||
        !ScalarWeight(WeightTensor(*graph, m.at("b")), &b) || x == m.at("a")) {
      Count("declined_not_scalar");
      return false;
    }
    if (!CanWriteEarlier(*graph, out, {m.at("product")})) {
      Count("unsafe_rename");
      return false;
    }
    // An activation fused into the add (elementwise_activation_fuse_pass:
    // PP-LCNetV3's hard_swish after the block) moves to the scale op.
    auto act = operators::FusedActivation::FromOpDesc(add->stmt().desc);
    if (!act.ok()) {
      Count("declined_activation");
      return false;
    }
    cpp::OpDesc scale("scale");
    act->ToOpDesc(&scale);
    scale.SetInput("X", {x->arg().name});
    scale.SetOutput("Out", {out->arg().name});
    scale.SetAttr("scale", a);
    scale.SetAttr("bias", b);
    scale.SetAttr("bias_after_scale", true);
    Node* op = graph->NewStmtNode(scale, mul->stmt().order);
    SSAGraph::Link(x, op);
    SSAGraph::Unlink(add, out);
    SSAGraph::Link(op, out);
    RemoveOp(graph, add);
    RemoveOp(graph, mul);
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(scalar_affine_fuse_pass, lite::mir::fusion::ScalarAffineFusePass);
