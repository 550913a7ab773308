#include "lite/operators/elementwise_ops.h"

#include "lite/operators/lod_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class ElementwiseOp : public OpWithParam<ElementwiseParam> {
 public:
  ElementwiseOp(std::string type, ElementwiseKind kind)
      : OpWithParam<ElementwiseParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ElementwiseKind kind_;  // the one it was registered with
};

}  // namespace

Status ElementwiseBroadcastDims(const DDim& x, const DDim& y, int axis,
                                DDim* x_aligned, DDim* y_aligned, DDim* out) {
  if (x == y) {
    *x_aligned = *y_aligned = *out = x;
    return Status::OK();
  }
  const bool x_larger = x.size() >= y.size();
  const DDim& big = x_larger ? x : y;
  DDim small = x_larger ? y : x;
  const int big_rank = static_cast<int>(big.size());
  int start = 0;
  // Equal ranks broadcast numpy-style unless an explicit positive axis asks
  // for the legacy fluid rule (Y trimmed and aligned at axis).
  if (x.size() != y.size() || axis > 0) {
    if (axis < -1 || axis >= big_rank) {
      return InvalidArgument("axis " + std::to_string(axis) +
                             " out of range for X " + DimsToString(x) +
                             " and Y " + DimsToString(y));
    }
    start = axis == -1 ? big_rank - static_cast<int>(small.size()) : axis;
    // Trailing 1s of the smaller operand never matter; Paddle trims them.
    while (!small.empty() && small.back() == 1) small.pop_back();
    if (start + static_cast<int>(small.size()) > big_rank) {
      return InvalidArgument("cannot align " + DimsToString(x_larger ? y : x) +
                             " at axis " + std::to_string(start) + " of " +
                             DimsToString(big));
    }
  }
  DDim padded(big_rank, 1);
  for (size_t i = 0; i < small.size(); ++i) padded[start + i] = small[i];
  *x_aligned = x_larger ? big : padded;
  *y_aligned = x_larger ? padded : big;
  out->assign(big_rank, 1);
  for (int i = 0; i < big_rank; ++i) {
    const int64_t a = (*x_aligned)[i];
    const int64_t b = (*y_aligned)[i];
    if (a == b || b == 1) {
      (*out)[i] = a;
    } else if (a == 1) {
      (*out)[i] = b;
    } else {
      return InvalidArgument("incompatible broadcast shapes X " + DimsToString(x) +
                             " and Y " + DimsToString(y) + " (axis " +
                             std::to_string(axis) + ") at dim " + std::to_string(i));
    }
  }
  return Status::OK();
}

StatusOr<FusedActivation> YActivationFromOpDesc(const cpp::OpDesc& desc) {
  const std::string name = desc.GetAttr<std::string>("y_activation", "");
  if (name.empty()) return FusedActivation();
  // The activation op of that name gives Paddle's default parameters.
  cpp::OpDesc act_op(name);
  auto act = FusedActivation::FromActivationOp(act_op);
  if (!act.ok()) {
    return Unimplemented("op " + desc.Type() + ": unsupported y_activation '" +
                         name + "'");
  }
  FusedActivation a = act.value();
  a.alpha = desc.GetAttr<float>("y_alpha", a.alpha);
  a.beta = desc.GetAttr<float>("y_beta", a.beta);
  a.gamma = desc.GetAttr<float>("y_gamma", a.gamma);
  return a;
}

void YActivationToOpDesc(const FusedActivation& act, cpp::OpDesc* desc) {
  if (!act.enabled()) return;
  desc->SetAttr("y_activation", std::string(act.name()));
  desc->SetAttr("y_alpha", act.alpha);
  desc->SetAttr("y_beta", act.beta);
  desc->SetAttr("y_gamma", act.gamma);
}

Status ElementwiseOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.kind = kind_;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
  param_.x = x;
  param_.y = y;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.axis = desc.GetAttr<int32_t>("axis", -1);
  auto act = FusedActivation::FromOpDesc(desc);
  if (!act.ok()) return act.status();
  param_.act = act.value();
  auto y_act = YActivationFromOpDesc(desc);
  if (!y_act.ok()) return y_act.status();
  param_.y_act = y_act.value();
  auto levels = LevelsOutputFromOpDesc(desc);
  if (!levels.ok()) return OpError(levels.status().message());
  param_.levels = *levels;
  return Status::OK();
}

Status ElementwiseOp::CheckShape() const {
  if (param_.axis < -1) {
    return OpError("attribute axis must be >= -1, got " + std::to_string(param_.axis));
  }
  return Status::OK();
}

Status ElementwiseOp::InferShape() {
  Status s = ElementwiseBroadcastDims(param_.x->dims(), param_.y->dims(),
                                      param_.axis, &param_.x_dims,
                                      &param_.y_dims, &param_.out_dims);
  if (!s.ok()) return OpError(s.message());
  param_.out->Resize(param_.out_dims);
  param_.out->set_dtype(param_.levels.enabled ? DataType::kInt8 : param_.x->dtype());
  // Out keeps X's LoD; a row-aligned Y with another LoD is an error.
  const DDim& xd = param_.x->dims();
  const DDim& yd = param_.y->dims();
  if (!xd.empty() && !yd.empty() && xd[0] == yd[0]) {
    RETURN_IF_ERROR(AgreedLoD(*this, {param_.x, param_.y}).status());
  }
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(elementwise_add, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kAdd);
REGISTER_LITE_OP_KIND(elementwise_sub, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kSub);
REGISTER_LITE_OP_KIND(elementwise_mul, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kMul);
REGISTER_LITE_OP_KIND(elementwise_div, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kDiv);
REGISTER_LITE_OP_KIND(elementwise_max, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kMax);
REGISTER_LITE_OP_KIND(elementwise_min, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kMin);
REGISTER_LITE_OP_KIND(elementwise_pow, lite::operators::ElementwiseOp,
                      lite::operators::ElementwiseKind::kPow);
