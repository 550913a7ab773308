// scale_conv_fuse_pass: a `scale` op (a * x + b, no activation, no
// ScaleTensor) whose output only an unpadded float conv (conv2d /
// depthwise_conv2d, any groups, kernel and stride, NCHW) reads folds into
// that conv's weights, on the input side:
//   conv(a x + b) = (a W) x + (bias + b * sum of W over each output
//   channel's inputs and taps)       (bias before the scale: b -> a b)
// which holds only where every tap reads the input (a padded border would
// read 0, not b). PP-LCNetV3's learnable affine block after a depthwise
// conv's hard_swish (PP-OCRv4 / v5) feeds the next pointwise conv this way.
// Runs before npu_subgraph_pass: XNNPACK lowers a scale to a multiply and
// an add node, two passes over the tensor, while the x86 kernels would take
// it as the producer's post-activation map for free (conv_scale_fuse_pass);
// folded here it costs neither. Like the batch norm fold this changes the
// float rounding, not the function. Declined, counted: "padded",
// "bad_weights" (filter or bias not float constants of the conv's shape),
// "unsafe_read" (reading x at the conv could see a later version).
#include <vector>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ScaleConvFusePass : public FusionPass {
 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* scale = p.Op("scale", {"scale"})->If([](const cpp::OpDesc& d) {
      return HasNoFusedActivation(d) && !d.HasInput("ScaleTensor");
    });
    PNode* conv = p.Op("conv", {"conv2d", "depthwise_conv2d"})->If([](const cpp::OpDesc& d) {
      return IsNchw(d) && !IsInt8Op(d);
    });
    PNode* mid = p.Intermediate("mid");
    p.Reads(scale, "X", p.Input("x"));
    p.Writes(scale, "Out", mid).Reads(conv, "Input", mid);
    p.Reads(conv, "Filter", p.Input("filter")->Weight());
    p.Writes(conv, "Output", p.Output("out"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* conv = m.at("conv");
    const cpp::OpDesc& cd = conv->stmt().desc;
    for (int v : cd.GetAttr<std::vector<int32_t>>("paddings", {})) {
      if (v != 0) {
        Count("padded");
        return false;
      }
    }
    const std::string algorithm = cd.GetAttr<std::string>("padding_algorithm", "EXPLICIT");
    if (algorithm == "SAME") {
      Count("padded");
      return false;
    }
    const Tensor* w = WeightTensor(*graph, m.at("filter"));
    const int64_t c_out = w ? ConvOutChannels(cd, w->dims()) : -1;
    Node* old_bias = InputNode(conv, "Bias");
    const Tensor* b0 = old_bias ? WeightTensor(*graph, old_bias) : nullptr;
    if (c_out <= 0 || w->dtype() != DataType::kFloat32 || w->dims()[0] != c_out ||
        (cd.HasInput("Bias") &&
         (!b0 || b0->dtype() != DataType::kFloat32 || b0->numel() != c_out))) {
      Count("bad_weights");
      return false;
    }
    if (!CanReadLater(*graph, m.at("x"))) {
      Count("unsafe_read");
      return false;
    }
    const cpp::OpDesc& sd = m.at("scale")->stmt().desc;
    const float a = sd.GetAttr<float>("scale", 1.f);
    const float c = sd.GetAttr<float>("bias", 0.f);
    const float shift = sd.GetAttr<bool>("bias_after_scale", true) ? c : a * c;
    const int64_t per = w->numel() / c_out;  // inputs x taps of one output channel
    Tensor scaled, bias;
    scaled.Resize(w->dims());
    bias.Resize({c_out});
    const float* src = w->data<float>();
    float* dst = scaled.mutable_data<float>();
    float* bo = bias.mutable_data<float>();
    for (int64_t o = 0; o < c_out; ++o) {
      // The shift's contribution summed in double: one rounding per channel.
      double sum = 0;
      for (int64_t i = 0; i < per; ++i) {
        sum += src[o * per + i];
        dst[o * per + i] = a * src[o * per + i];
      }
      bo[o] = static_cast<float>((b0 ? b0->data<float>()[o] : 0.0) + shift * sum);
    }
    SetInput(graph, conv, "Filter",
             AddWeight(graph, m.at("filter")->arg().name + "_input_scaled", scaled));
    SetInput(graph, conv, "Bias",
             AddWeight(graph, (old_bias ? old_bias : m.at("filter"))->arg().name + "_input_shift",
                       bias));
    ReplaceInput(conv, m.at("mid"), m.at("x"));
    RemoveOp(graph, m.at("scale"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(scale_conv_fuse_pass, lite::mir::fusion::ScaleConvFusePass);
