// conv_scale_fuse_pass: a conv (conv2d / depthwise_conv2d /
// conv2d_transpose, no activation of its own) whose output only a `scale`
// op reads becomes the conv alone, the scale folded into its weights as a
// batch norm is (FoldChannelAffine):
//   bias_after_scale:  W' = a W, b' = a b + c      (out = a x + c)
//   otherwise:         W' = a W, b' = a (b + c)    (out = a (x + c))
// and the scale's fused activation moving to the conv. A conv with an
// activation (conv2d / depthwise_conv2d) instead takes a scale without one
// as its post-activation affine map (fuse_post_scale, fuse_post_bias:
// Output = a' act(...) + b', composed with one it already has); the
// learnable affine block after each hard_swish goes that way. PP-LCNetV3's
// learnable affine blocks (PP-OCRv4 / v5: conv, batch norm, then x * a + b
// and hard_swish, which scalar_affine_fuse_pass makes one scale op) then cost
// no pass over memory of their own. An int8 conv keeps its levels: a
// multiplies its Filter_scales. Like the batch norm fold this changes the
// float rounding, not the function. Declined, counted: "declined_scale" (a
// ScaleTensor input), "bad_weights" (filter or bias not constants of the
// conv's channel count), "unsafe_rename"; "post_affine" counts the second
// form. Runs after
// scalar_affine_fuse_pass (which makes these scale ops).
//
// conv_prescale_fuse_pass is the first form alone (no post-activation map,
// which the NPU bridges do not read) and runs before npu_subgraph_pass, so
// device subgraphs get the learnable affine block before each activation
// folded into the conv too: on the NPU drivers (XNNPACK lowers a scale to a
// multiply and an add node) each such block otherwise costs two passes over
// the conv's output.
#include <vector>

#include "lite/base/fused_activation.h"

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvScaleFusePass : public FusionPass {
 public:
  // weights_only: pattern 0 alone, and no following scale taken as a
  // post-activation map (conv_prescale_fuse_pass).
  explicit ConvScaleFusePass(bool weights_only = false) : weights_only_(weights_only) {}

 protected:
  // Pattern 0: a conv without activation (folded into the weights); 1: a
  // conv2d / depthwise_conv2d with one, and a scale without (the conv's
  // post-activation affine map).
  std::vector<Pattern> BuildPatterns() const override {
    std::vector<Pattern> out;
    for (int which = 0; which < (weights_only_ ? 1 : 2); ++which) {
      Pattern p;
      PNode* conv =
          which == 0
              ? BiasFoldableConv(&p)
              : p.Op("conv", {"conv2d", "depthwise_conv2d"})->If([](const cpp::OpDesc& d) {
                  return IsNchw(d) && !HasNoFusedActivation(d);
                });
      conv->If([](const cpp::OpDesc& d) { return !d.HasInput("ResidualData"); });
      PNode* conv_out = p.Intermediate("conv_out");
      PNode* scale = p.Op("scale", {"scale"});
      if (which == 1) scale->If(HasNoFusedActivation);
      p.Reads(conv, "Filter", p.Input("filter")->Weight());
      p.Writes(conv, "Output", conv_out).Reads(scale, "X", conv_out);
      p.Writes(scale, "Out", p.Output("out"));
      out.push_back(std::move(p));
    }
    return out;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override {
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
    const float a = sd.GetAttr<float>("scale", 1.f);
    const float c = sd.GetAttr<float>("bias", 0.f);
    const bool after = sd.GetAttr<bool>("bias_after_scale", true);
    if (which == 1) {
      TakePostAffine(graph, conv, m.at("conv_out"), m.at("scale"), m.at("out"));
      TakeFollowingScales(graph, conv, m.at("out"));
      return true;
    }
    const Tensor* w = WeightTensor(*graph, m.at("filter"));
    const int64_t c_out = w ? ConvOutChannels(conv->stmt().desc, w->dims()) : -1;
    if (c_out <= 0) {
      Count("bad_weights");
      return false;
    }
    const std::vector<float> s(c_out, a);
    const auto bias = [&](int64_t, float b) { return after ? a * b + c : a * (b + c); };
    if (!FoldChannelAffine(graph, conv, s, bias, "_scale_fused", "_scale_bias")) {
      Count("bad_weights");
      return false;
    }
    act->ToOpDesc(&conv->stmt().desc);
    AbsorbIntoProducer(graph, conv, m.at("conv_out"), m.at("scale"), m.at("out"));
    // The conv now has the scale's activation: scales after it (the next
    // affine block) become its post-activation map here, as pattern 1 would
    // on a later run (this match claimed the conv).
    if (act->enabled() && !weights_only_) TakeFollowingScales(graph, conv, m.at("out"));
    return true;
  }

 private:
  const bool weights_only_;

  // While `out` (written by `conv`, a conv2d / depthwise_conv2d with an
  // activation) is read only by a scale op that can be a post-activation
  // map, that scale goes into the conv.
  void TakeFollowingScales(SSAGraph* graph, Node* conv, Node* out) {
    const std::string type = conv->stmt().desc.Type();
    if (type != "conv2d" && type != "depthwise_conv2d") return;
    while (out->outlinks.size() == 1 && !IsFetched(out)) {
      Node* next = out->outlinks.front();
      Node* next_out = next->stmt().desc.Type() == "scale" ? OutputNode(next, "Out") : nullptr;
      if (!next_out || InputNode(next, "X") != out || !PostAffineFits(next->stmt().desc) ||
          !CanWriteEarlier(*graph, next_out, {out})) {
        return;
      }
      TakePostAffine(graph, conv, out, next, next_out);
      out = next_out;
    }
  }

  // A scale op without activation or ScaleTensor: a post-activation map.
  static bool PostAffineFits(const cpp::OpDesc& scale) {
    return !scale.HasInput("ScaleTensor") && HasNoFusedActivation(scale);
  }

  // `scale` (reading `mid`, written by `conv`, and writing `out`) becomes
  // conv's post-activation affine map, composed with one it has:
  // out = a (a0 y + b0) + c, or a (a0 y + b0 + c) without bias_after_scale.
  void TakePostAffine(SSAGraph* graph, Node* conv, Node* mid, Node* scale, Node* out) {
    const cpp::OpDesc& sd = scale->stmt().desc;
    const float a = sd.GetAttr<float>("scale", 1.f);
    const float c = sd.GetAttr<float>("bias", 0.f);
    const bool after = sd.GetAttr<bool>("bias_after_scale", true);
    cpp::OpDesc& d = conv->stmt().desc;
    const float a0 = d.GetAttr<float>("fuse_post_scale", 1.f);
    const float b0 = d.GetAttr<float>("fuse_post_bias", 0.f);
    d.SetAttr("fuse_post_scale", a * a0);
    d.SetAttr("fuse_post_bias", after ? a * b0 + c : a * (b0 + c));
    Count("post_affine");
    AbsorbIntoProducer(graph, conv, mid, scale, out);
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_scale_fuse_pass, lite::mir::fusion::ConvScaleFusePass);
REGISTER_MIR_PASS_WITH_OPTIONS(conv_prescale_fuse_pass, [](const lite::mir::PassOptions&) {
  return std::unique_ptr<lite::mir::Pass>(new lite::mir::fusion::ConvScaleFusePass(true));
});
