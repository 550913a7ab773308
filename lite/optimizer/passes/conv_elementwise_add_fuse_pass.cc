// conv_elementwise_add_fuse_pass: a conv (conv2d / depthwise_conv2d /
// conv2d_transpose) whose output is the X of an elementwise_add with a
// per-channel float32 weight Y becomes the conv with that Bias. Y may be
// [C_out] with axis 1, [1, C_out, 1, 1], [C_out, 1, 1] with axis -1, a single
// value, ... (IsPerChannel follows the ops' broadcast rule). With an
// existing Bias the sum goes into a new var; otherwise Y itself is used.
// Needs NCHW and no activation fused into either op.
#include "lite/optimizer/passes/fusion_pass.h"
#include "lite/optimizer/passes/graph_rewrite.h"

namespace lite {
namespace mir {
namespace fusion {

class ConvElementwiseAddFusePass : public FusionPass {
 public:
  bool runs_on_sub_blocks() const override { return true; }

 protected:
  std::vector<Pattern> BuildPatterns() const override {
    Pattern p;
    PNode* conv = BiasFoldableConv(&p);
    PNode* conv_out = p.Intermediate("conv_out");
    PNode* add = p.Op("add", {"elementwise_add"})->If([](const cpp::OpDesc& d) {
      return HasNoFusedActivation(d) && HasNoYActivation(d);
    });
    p.Reads(conv, "Filter", p.Input("filter")->Weight());
    p.Writes(conv, "Output", conv_out).Reads(add, "X", conv_out);
    p.Reads(add, "Y", p.Input("bias")->Weight()->DTypeIs(DataType::kFloat32));
    p.Writes(add, "Out", p.Output("out"));
    return SinglePattern(std::move(p));
  }

  StatusOr<bool> Rewrite(SSAGraph* graph, const Match& m, int) override {
    Node* conv = m.at("conv");
    const Tensor* w = WeightTensor(*graph, m.at("filter"));
    const Tensor* y = WeightTensor(*graph, m.at("bias"));
    const int64_t c_out = w ? ConvOutChannels(conv->stmt().desc, w->dims()) : -1;
    const int axis = m.at("add")->stmt().desc.GetAttr<int32_t>("axis", -1);
    if (!y || !y->IsInitialized() || !IsPerChannel(y->dims(), axis, c_out)) {
      Count("not_per_channel");
      return false;
    }
    Node* old_bias = InputNode(conv, "Bias");
    const Tensor* b = old_bias ? WeightTensor(*graph, old_bias) : nullptr;
    if (conv->stmt().desc.HasInput("Bias") &&
        (!b || b->dtype() != DataType::kFloat32 || b->numel() != c_out)) {
      Count("bad_weights");
      return false;
    }
    if (!CanWriteEarlier(*graph, m.at("out"), {m.at("conv_out")})) {
      Count("unsafe_rename");
      return false;
    }
    Node* bias = m.at("bias");
    if (b || y->numel() != c_out) {  // needs a new var: a sum or a broadcast
      Tensor sum;
      sum.Resize({c_out});
      float* s = sum.mutable_data<float>();
      for (int64_t c = 0; c < c_out; ++c) {
        s[c] = (b ? b->data<float>()[c] : 0.f) + y->data<float>()[y->numel() == 1 ? 0 : c];
      }
      bias = AddWeight(graph, (old_bias ? old_bias : bias)->arg().name + "_add_fused", sum);
    }
    SetInput(graph, conv, "Bias", bias);
    AbsorbIntoProducer(graph, conv, m.at("conv_out"), m.at("add"), m.at("out"));
    return true;
  }
};

}  // namespace fusion
}  // namespace mir
}  // namespace lite

REGISTER_MIR_PASS(conv_elementwise_add_fuse_pass,
                  lite::mir::fusion::ConvElementwiseAddFusePass);
