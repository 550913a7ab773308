#include "lite/operators/activation_ops.h"

#include "lite/operators/op_with_param.h"


namespace lite {
namespace operators {

namespace {

class ActivationOp : public OpWithParam<ActivationParam> {
 public:
  ActivationOp(std::string type, ActivationKind kind)
      : OpWithParam<ActivationParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ActivationKind kind_;  // the one it was registered with
};

class PReluOp : public OpWithParam<PReluParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status ActivationOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.act_type = Type();
  param_.kind = kind_;
  switch (param_.kind) {
    case ActivationKind::kRelu6:
      param_.threshold = desc.GetAttr<float>("threshold", 6.0f);
      break;
    case ActivationKind::kLeakyRelu:
      param_.alpha = desc.GetAttr<float>("alpha", 0.02f);
      break;
    case ActivationKind::kHardSwish:
      param_.threshold = desc.GetAttr<float>("threshold", 6.0f);
      param_.scale = desc.GetAttr<float>("scale", 6.0f);
      param_.offset = desc.GetAttr<float>("offset", 3.0f);
      break;
    case ActivationKind::kHardSigmoid:
      param_.slope = desc.GetAttr<float>("slope", 0.2f);
      param_.offset = desc.GetAttr<float>("offset", 0.5f);
      break;
    case ActivationKind::kSwish:
      param_.beta = desc.GetAttr<float>("beta", 1.0f);
      break;
    case ActivationKind::kGelu:
      param_.approximate = desc.GetAttr<bool>("approximate", false);
      break;
    default:
      break;
  }
  return Status::OK();
}

Status ActivationOp::CheckShape() const {
  if (!param_.x) return OpError("input X is not bound");
  if (param_.kind == ActivationKind::kHardSwish && param_.scale == 0.f) {
    return OpError("hard_swish attribute scale must be non-zero");
  }
  return Status::OK();
}

Status ActivationOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

Status PReluOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * alpha, Input("Alpha"));
  param_.x = x;
  param_.alpha = alpha;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.mode = desc.GetAttr<std::string>("mode", "all");
  if (param_.mode != "all" && param_.mode != "channel" && param_.mode != "element") {
    return OpError("attribute mode must be all, channel or element, got '" +
                   param_.mode + "'");
  }
  const std::string fmt = desc.GetAttr<std::string>("data_format", "NCHW");
  if (fmt == "NHWC" || fmt == "NLC" || fmt == "NDHWC") {
    param_.channel_last = true;
  } else if (fmt != "NCHW" && fmt != "NCL" && fmt != "NCDHW" && fmt != "AnyLayout") {
    return Unimplemented("op " + DebugName() + ": unsupported data_format '" + fmt + "'");
  }
  return Status::OK();
}

Status PReluOp::CheckShape() const { return Status::OK(); }

Status PReluOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int64_t alpha_n = param_.alpha->numel();
  int64_t expect = 1;
  if (param_.mode == "channel") {
    if (xd.size() < 2) return OpError("channel mode needs X of rank >= 2");
    expect = param_.channel_last ? xd.back() : xd[1];
  } else if (param_.mode == "element") {
    if (xd.empty()) return OpError("element mode needs X of rank >= 1");
    expect = 1;
    for (size_t i = 1; i < xd.size(); ++i) expect *= xd[i];
  }
  if (alpha_n != expect) {
    return OpError("Alpha has " + std::to_string(alpha_n) + " elements, mode " +
                   param_.mode + " with X " + DimsToString(xd) + " needs " +
                   std::to_string(expect));
  }
  param_.out->Resize(xd);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(relu, lite::operators::ActivationOp, lite::operators::ActivationKind::kRelu);
REGISTER_LITE_OP_KIND(tanh, lite::operators::ActivationOp, lite::operators::ActivationKind::kTanh);
REGISTER_LITE_OP_KIND(sigmoid, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kSigmoid);
REGISTER_LITE_OP_KIND(relu6, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kRelu6);
REGISTER_LITE_OP_KIND(leaky_relu, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kLeakyRelu);
REGISTER_LITE_OP_KIND(hard_swish, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kHardSwish);
REGISTER_LITE_OP_KIND(hard_sigmoid, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kHardSigmoid);
REGISTER_LITE_OP_KIND(swish, lite::operators::ActivationOp,
                      lite::operators::ActivationKind::kSwish);
REGISTER_LITE_OP_KIND(gelu, lite::operators::ActivationOp, lite::operators::ActivationKind::kGelu);
REGISTER_LITE_OP_KIND(exp, lite::operators::ActivationOp, lite::operators::ActivationKind::kExp);
REGISTER_LITE_OP_KIND(log, lite::operators::ActivationOp, lite::operators::ActivationKind::kLog);
REGISTER_LITE_OP_KIND(sqrt, lite::operators::ActivationOp, lite::operators::ActivationKind::kSqrt);
REGISTER_LITE_OP_KIND(abs, lite::operators::ActivationOp, lite::operators::ActivationKind::kAbs);
REGISTER_LITE_OP(prelu, lite::operators::PReluOp);
