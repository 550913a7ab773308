// conv_scale_fuse_pass: a conv (conv2d / depthwise_conv2d /
// conv2d_transpose, no activation of its own) whose output only a `scale`
// op reads becomes the conv alone, the scale folded into its weights as a
// batch norm is (FoldChannelAffine):
//   bias_after_scale:  W' = a W, b' = a b + c      (out = a x + c)
//   otherwise:         W' = a W, b' = a (b + c)    (out = a (x + c))
// and the scale's fused activation moving to the conv. PP-LCNetV3's
// learnable affine blocks (PP-OCRv4 / v5: conv, batch norm, then x * a + b
// and hard_swish, which scalar_affine_fuse_pass makes one scale op) then cost
// no pass over memory of their own. An int8 conv keeps its levels: a
// multiplies its Filter_scales. Like the batch norm fold this changes the
// float rounding, not the function. Declined, counted: "declined_scale" (a
// ScaleTensor input), "bad_weights" (filter or bias not constants of the
// conv's channel count), "unsafe_rename". Runs after
// scalar_affine_fuse_pass (which makes these scale ops).
#include <vector>

#include "lite/core/base/fused_activation.h"

#include "lite/core/mir/fusion/fusion_pass.h"
#include "lite/core/mir/fusion/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvScaleFusePass : public FusionPass {
 public:
  std::string name() const override { return "conv_scale_fuse_pass"; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* conv = BiasFoldableConv(&p)->If(
        [](const cpp::OpDesc& d) { return !d.HasInput("ResidualData"); });
    PNode* conv_out = p.Intermediate("conv_out");
    PNode* scale = p.Op("scale", {"scale"});
    p.Reads(conv, "Filter", p.Input("filter")->Weight());
    p.Writes(conv, "Output", conv_out).Reads(scale, "X", conv_out);
    p.Writes(scale, "Out", p.Output("out"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    const cpp::OpDesc& sd = m.at("scale")->stmt().desc;
    if (sd.HasInput("ScaleTensor")) {
      Count("declined_scale");
      return false;
    }
    auto act = operators::FusedActivation::FromOpDesc(sd);
    if (!act.ok()) {
      Count("declined_scale");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {m.at("conv_out")})) {
      Count("unsafe_rename");
      return false;
    }
    Node* conv = m.at("conv");
    const Tensor* w = WeightTensor(*graph, m.at("filter"));
    const int64_t c_out = w ? ConvOutChannels(conv->stmt().desc, w->dims()) : -1;
    if (c_out <= 0) {
      Count("bad_weights");
      return false;
    }
    const float a = sd.GetAttr<float>("scale", 1.f);
    const float c = sd.GetAttr<float>("bias", 0.f);
    const bool after = sd.GetAttr<bool>("bias_after_scale", true);
    const std::vector<float> s(c_out, a);
    const auto bias = [&](int64_t, float b) { return after ? a * b + c : a * (b + c); };
    if (!FoldChannelAffine(graph, conv, s, bias, "_scale_fused", "_scale_bias")) {
      Count("bad_weights");
      return false;
    }
    act->ToOpDesc(&conv->stmt().desc);
    AbsorbIntoProducer(graph, conv, m.at("conv_out"), m.at("scale"), m.at("out"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_scale_fuse_pass, lite::mir::fusion::ConvScaleFusePass);
