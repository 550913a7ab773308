// conv_residual_fuse_pass: elementwise_add(conv(x), r) (either operand
// order), where the conv (conv2d / depthwise_conv2d, no activation of its
// own) is read only by the add and r has the conv output's dims, becomes the
// conv with ResidualData = r: Output = act(conv(x) + Bias + r), the add's
// fused activation moving to the conv. A residual block's last conv
// (MobileNetV3's projection, ResNet's second conv) then writes the block's
// output once instead of writing its own and reading it back in the add; in
// int8 models the conv writes the next block's levels directly.
//
// The sum is the same float operations as before (the conv's float32
// result plus r, then the activation), so outputs do not change. Runs after
// npu_subgraph_pass (drivers map the plain ops) and after
// interp_residual_fuse_pass (a pyramid's upsample-add keeps its resize
// writing into the sum), before the fusions that skip convs with
// ResidualData. Only where a device kernel takes the fused conv (x86: oneDNN
// as a binary post-op, the own 1x1 kernels in their epilogue): the host
// kernel adds r in a second pass, as the add did. Declined, counted:
// "declined_shapes" (r's dims differ or are unknown), "declined_operand" (r
// is a weight or not float32, or is the conv's own output), "declined_versions"
// (r's name has other versions), "unsafe_rename", "declined_no_kernel".
#include "lite/base/fused_activation.h"
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {

bool ResidualFoldableConv(const cpp::OpDesc& d) {
  return IsNchw(d) && HasNoFusedActivation(d) && !d.HasInput("ResidualData");
}

// conv's output under `conv_param` of the add, r under `r_param`.
Pattern MakePattern(const char* conv_param, const char* r_param) {
  Pattern p;
  PNode* conv = p.Op("conv", {"conv2d", "depthwise_conv2d"})->If(ResidualFoldableConv);
  PNode* conv_out = p.Intermediate("conv_out");
  PNode* add = p.Op("add", {"elementwise_add"})->If(HasNoYActivation);
  p.Writes(conv, "Output", conv_out);
  p.Reads(add, conv_param, conv_out).Reads(add, r_param, p.Input("r"));
  p.Writes(add, "Out", p.Output("out"));
  return p;
}

}  // namespace

class ConvResidualFusePass : public FusionPass {
 public:

 protected:
  std::vector<Pattern> BuildPatterns() const override { return BothOperandOrders(MakePattern); }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* r = m.at("r");
    Node* conv_out = m.at("conv_out");
    const DDim dims = VarDims(*graph, *r);
    if (dims.size() != 4 || dims != VarDims(*graph, *conv_out)) {
      Count("declined_shapes");
      return false;
    }
    const cpp::VarDesc* rd = graph->FindVarDesc(r->arg().name);
    if (!rd || rd->dtype != DataType::kFloat32 || r->arg().is_weight || r == conv_out) {
      Count("declined_operand");
      return false;
    }
    if (Versions(*graph, r->arg().name) != 1) {
      Count("declined_versions");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {conv_out})) {
      Count("unsafe_rename");
      return false;
    }
    Node* conv = m.at("conv");
    auto act = operators::FusedActivation::FromOpDesc(m.at("add")->stmt().desc);
    if (!act.ok()) {
      Count("declined_activation");
      return false;
    }
    cpp::OpDesc fused = conv->stmt().desc;
    fused.SetInput("ResidualData", {r->arg().name});
    act->ToOpDesc(&fused);
    if (!DeviceKernelTakes(*graph, fused)) {
      Count("declined_no_kernel");
      return false;
    }
    conv->stmt().desc = fused;
    SSAGraph::Link(r, conv);
    AbsorbIntoProducer(graph, conv, conv_out, m.at("add"), m.at("out"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_residual_fuse_pass, lite::mir::fusion::ConvResidualFusePass);
