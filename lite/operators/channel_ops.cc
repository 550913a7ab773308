#include "lite/operators/channel_ops.h"

#include "lite/operators/channel_last.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types ChannelOp serves.
enum class ChannelOpKind { kGroupNorm, kAffineChannel };

class ChannelOp : public OpWithParam<ChannelParam> {
 public:
  ChannelOp(std::string type, ChannelOpKind kind)
      : OpWithParam<ChannelParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ChannelOpKind kind_;
};

}  // namespace

Status ChannelOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  if (kind_ == ChannelOpKind::kGroupNorm) {
    param_.scale = OptionalInput("Scale");
    param_.bias = OptionalInput("Bias");
    ASSIGN_OR_RETURN(param_.out, Output("Y"));
    param_.mean = OptionalOutput("Mean");
    param_.variance = OptionalOutput("Variance");
    param_.groups = desc.GetAttr<int32_t>("groups", 1);
    param_.epsilon = desc.GetAttr<float>("epsilon", 1e-5f);
    const std::string layout = desc.GetAttr<std::string>("data_layout", "NCHW");
    if (layout != "NCHW") return ChannelLastUnsupported(DebugName(), "data_layout", layout);
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * scale, Input("Scale"));
  ASSIGN_OR_RETURN(Tensor * bias, Input("Bias"));
  param_.scale = scale;
  param_.bias = bias;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const std::string layout = desc.GetAttr<std::string>("data_layout", "AnyLayout");
  if (layout != "NCHW" && layout != "NHWC" && layout != "AnyLayout") {
    return OpError("data_layout '" + layout + "' is not supported");
  }
  param_.channel_last = layout == "NHWC";
  return Status::OK();
}

Status ChannelOp::CheckShape() const {
  if (param_.x->dtype() != DataType::kFloat32 && param_.x->dtype() != DataType::kUnknown) {
    return OpError(std::string("X must be float32, got ") + DataTypeName(param_.x->dtype()));
  }
  if (kind_ == ChannelOpKind::kGroupNorm && param_.groups <= 0) {
    return OpError("groups must be > 0, got " + std::to_string(param_.groups));
  }
  return Status::OK();
}

Status ChannelOp::InferShape() {
  const DDim& xd = param_.x->dims();
  if (xd.size() < 2) return OpError("X must have at least 2 dims, got " + DimsToString(xd));
  const int64_t c = param_.channel_last ? xd.back() : xd[1];
  for (const Tensor* t : {param_.scale, param_.bias}) {
    if (t && t->numel() != c) {
      return OpError("Scale and Bias must hold C = " + std::to_string(c) + " values, got " +
                     DimsToString(t->dims()));
    }
  }
  if (kind_ == ChannelOpKind::kGroupNorm) {
    if (c % param_.groups != 0) {
      return OpError("channels " + std::to_string(c) + " are not divisible by groups " +
                     std::to_string(param_.groups));
    }
    for (Tensor* t : {param_.mean, param_.variance}) {
      if (!t) continue;
      t->Resize({xd[0], param_.groups});
      t->set_dtype(DataType::kFloat32);
    }
  }
  param_.out->Resize(xd);
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(group_norm, lite::operators::ChannelOp,
                      lite::operators::ChannelOpKind::kGroupNorm);
REGISTER_LITE_OP_KIND(affine_channel, lite::operators::ChannelOp,
                      lite::operators::ChannelOpKind::kAffineChannel);
