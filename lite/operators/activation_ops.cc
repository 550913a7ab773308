#include "lite/operators/activation_ops.h"

#include "lite/operators/op_with_param.h"

#include <map>

namespace lite {
namespace operators {

namespace {

class ActivationOp : public OpWithParam<ActivationParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
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
  static const std::map<std::string, ActivationKind> kinds = {
      {"relu", ActivationKind::kRelu},
      {"tanh", ActivationKind::kTanh},
      {"sigmoid", ActivationKind::kSigmoid},
      {"relu6", ActivationKind::kRelu6},
      {"leaky_relu", ActivationKind::kLeakyRelu},
      {"hard_swish", ActivationKind::kHardSwish},
      {"hard_sigmoid", ActivationKind::kHardSigmoid},
      {"swish", ActivationKind::kSwish},
      {"gelu", ActivationKind::kGelu},
      {"exp", ActivationKind::kExp},
      {"log", ActivationKind::kLog},
      {"sqrt", ActivationKind::kSqrt},
      {"abs", ActivationKind::kAbs},
  };
  auto it = kinds.find(Type());
  if (it == kinds.end()) return OpError("not an activation op type");
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.act_type = Type();
  param_.kind = it->second;
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

REGISTER_LITE_OP(relu, lite::operators::ActivationOp);
REGISTER_LITE_OP(tanh, lite::operators::ActivationOp);
REGISTER_LITE_OP(sigmoid, lite::operators::ActivationOp);
REGISTER_LITE_OP(relu6, lite::operators::ActivationOp);
REGISTER_LITE_OP(leaky_relu, lite::operators::ActivationOp);
REGISTER_LITE_OP(hard_swish, lite::operators::ActivationOp);
REGISTER_LITE_OP(hard_sigmoid, lite::operators::ActivationOp);
REGISTER_LITE_OP(swish, lite::operators::ActivationOp);
REGISTER_LITE_OP(gelu, lite::operators::ActivationOp);
REGISTER_LITE_OP(exp, lite::operators::ActivationOp);
REGISTER_LITE_OP(log, lite::operators::ActivationOp);
REGISTER_LITE_OP(sqrt, lite::operators::ActivationOp);
REGISTER_LITE_OP(abs, lite::operators::ActivationOp);
REGISTER_LITE_OP(prelu, lite::operators::PReluOp);
