// conv_bn_fuse_pass: conv2d / depthwise_conv2d / conv2d_transpose (+ an
// optional existing Bias input) followed by batch_norm becomes the conv alone
// with folded weights:
//   s_c = gamma_c / sqrt(var_c + eps)
//   W'[c, ...] = W[c, ...] * s_c            (per output channel c)
//   b'_c = (b_c - mean_c) * s_c + beta_c    (b = 0 without a Bias)
// For the transposed convs the filter is [C_in, C_out / groups, kh, kw]:
// output channel of element [i, j] is (i / (C_in / groups)) * (C_out /
// groups) + j. New weight vars are created for W' and b' (a filter may be
// shared); the old ones disappear from the graph when nothing else reads them.
// Needs NCHW, float32 weights and no activation already fused into the conv.
// An int8 conv (quant_dequant_fuse_pass) keeps its int8 levels: s_c
// multiplies its per-channel Filter_scales instead (s_c may be negative).
#include <cmath>

#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

namespace {
bool FloatWithNumel(const Tensor* t, int64_t n) {
  return t && t->dtype() == DataType::kFloat32 && t->numel() == n && t->IsInitialized();
}
}  // namespace

class ConvBnFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  // Pattern 0: float filter; 1: an int8 conv (quant_dequant_fuse_pass),
  // whose Filter_scales take s_c instead of the filter levels.
  std::vector<Pattern> BuildPatterns() const override {
    std::vector<Pattern> out;
    out.push_back(MakePattern(DataType::kFloat32));
    out.push_back(MakePattern(DataType::kInt8));
    return out;
  }

  static Pattern MakePattern(DataType filter_dtype) {
    Pattern p;
    PNode* conv = BiasFoldableConv(&p);
    PNode* filter = p.Input("filter")->Weight()->DTypeIs(filter_dtype);
    PNode* conv_out = p.Intermediate("conv_out");
    PNode* bn = p.Op("bn", {"batch_norm"})->If(IsNchw);
    p.Reads(conv, "Filter", filter).Writes(conv, "Output", conv_out).Reads(bn, "X", conv_out);
    for (const char* param : {"Scale", "Bias", "Mean", "Variance"}) {
      p.Reads(bn, param, p.Input(param)->Weight()->DTypeIs(DataType::kFloat32));
    }
    p.Writes(bn, "Y", p.Output("y"));
    return p;
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int which) override {
    Node* conv = m.at("conv");
    const Tensor* w = WeightTensor(*graph, m.at("filter"));
    const int64_t c_out = w ? ConvOutChannels(conv->stmt().desc, w->dims()) : -1;
    const Tensor* gamma = WeightTensor(*graph, m.at("Scale"));
    const Tensor* beta = WeightTensor(*graph, m.at("Bias"));
    const Tensor* mean = WeightTensor(*graph, m.at("Mean"));
    const Tensor* var = WeightTensor(*graph, m.at("Variance"));
    if (c_out <= 0 || !FloatWithNumel(gamma, c_out) || !FloatWithNumel(beta, c_out) ||
        !FloatWithNumel(mean, c_out) || !FloatWithNumel(var, c_out) ||
        (which == 1 && !IsInt8Op(conv->stmt().desc))) {
      Count("bad_weights");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("y"), {m.at("conv_out")})) {
      Count("unsafe_rename");
      return false;
    }
    const float eps = m.at("bn")->stmt().desc.GetAttr<float>("epsilon", 1e-5f);
    std::vector<float> s(c_out);
    for (int64_t c = 0; c < c_out; ++c) {
      s[c] = static_cast<float>(gamma->data<float>()[c] /
                                std::sqrt(static_cast<double>(var->data<float>()[c]) + eps));
    }
    const float* mu = mean->data<float>();
    const float* be = beta->data<float>();
    if (!FoldChannelAffine(
            graph, conv, s,
            [&](int64_t c, float b0) { return (b0 - mu[c]) * s[c] + be[c]; }, "_bn_fused",
            "_bn_bias")) {
      Count("bad_weights");
      return false;
    }
    if (which == 1) Count("int8_scales_folded");
    AbsorbIntoProducer(graph, conv, m.at("conv_out"), m.at("bn"), m.at("y"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_bn_fuse_pass, lite::mir::fusion::ConvBnFusePass);
