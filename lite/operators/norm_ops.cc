#include "lite/operators/norm_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class InstanceNormOp : public OpWithParam<InstanceNormParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class LayerNormOp : public OpWithParam<LayerNormParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class LrnOp : public OpWithParam<LrnParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {
// Optional per-channel / per-feature vector `t` must hold `want` values.
Status CheckVector(const OpLite& op, const char* name, const Tensor* t, int64_t want) {
  if (t && t->numel() != want) {
    return InvalidArgument("op " + op.DebugName() + ": input " + name + " must hold " +
                           std::to_string(want) + " values, got dims " +
                           DimsToString(t->dims()));
  }
  return Status::OK();
}

// The "epsilon" attribute (default 1e-5), which must be >= 0.
Status ParseEpsilon(const OpLite& op, const cpp::OpDesc& desc, float* epsilon) {
  *epsilon = desc.GetAttr<float>("epsilon", 1e-5f);
  if (*epsilon < 0.f) {
    return InvalidArgument("op " + op.DebugName() +
                           ": attribute epsilon must be >= 0, got " + std::to_string(*epsilon));
  }
  return Status::OK();
}
}  // namespace

// ---------------------------------------------------------------- instance_norm

Status InstanceNormOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.scale = OptionalInput("Scale");
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(param_.y, Output("Y"));
  param_.saved_mean = OptionalOutput("SavedMean");
  param_.saved_variance = OptionalOutput("SavedVariance");
  return ParseEpsilon(*this, desc, &param_.epsilon);
}

Status InstanceNormOp::CheckShape() const {
  const DDim& d = param_.x->dims();
  if (d.size() < 2 || d.size() > 5) {
    return OpError("input X must be 2-D to 5-D, got " + DimsToString(d));
  }
  RETURN_IF_ERROR(CheckVector(*this, "Scale", param_.scale, d[1]));
  return CheckVector(*this, "Bias", param_.bias, d[1]);
}

Status InstanceNormOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  const DDim& d = param_.x->dims();
  param_.y->Resize(d);
  param_.y->set_lod(param_.x->lod());
  for (Tensor* t : {param_.saved_mean, param_.saved_variance}) {
    if (t) t->Resize({d[0] * d[1]});
  }
  return Status::OK();
}

// ---------------------------------------------------------------- layer_norm

Status LayerNormOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.scale = OptionalInput("Scale");
  param_.bias = OptionalInput("Bias");
  ASSIGN_OR_RETURN(param_.y, Output("Y"));
  param_.mean = OptionalOutput("Mean");
  param_.variance = OptionalOutput("Variance");
  param_.begin_norm_axis = desc.GetAttr<int>("begin_norm_axis", 1);
  return ParseEpsilon(*this, desc, &param_.epsilon);
}

Status LayerNormOp::CheckShape() const {
  const DDim& d = param_.x->dims();
  const int axis = param_.begin_norm_axis;
  if (axis <= 0 || axis >= static_cast<int>(d.size())) {
    return OpError("attribute begin_norm_axis must be in [1, rank of X = " +
                   std::to_string(d.size()) + "), got " + std::to_string(axis));
  }
  int64_t right = 1;
  for (size_t i = axis; i < d.size(); ++i) right *= d[i];
  RETURN_IF_ERROR(CheckVector(*this, "Scale", param_.scale, right));
  return CheckVector(*this, "Bias", param_.bias, right);
}

Status LayerNormOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  const DDim& d = param_.x->dims();
  param_.y->Resize(d);
  param_.y->set_lod(param_.x->lod());
  const DDim left(d.begin(), d.begin() + param_.begin_norm_axis);
  for (Tensor* t : {param_.mean, param_.variance}) {
    if (t) t->Resize(left);
  }
  return Status::OK();
}

// ---------------------------------------------------------------- lrn

Status LrnOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.mid_out = OptionalOutput("MidOut");
  param_.n = desc.GetAttr<int>("n", 5);
  param_.k = desc.GetAttr<float>("k", 2.f);
  param_.alpha = desc.GetAttr<float>("alpha", 1e-4f);
  param_.beta = desc.GetAttr<float>("beta", 0.75f);
  const std::string layout = desc.GetAttr<std::string>("data_format", "AnyLayout");
  if (layout != "NCHW" && layout != "AnyLayout") {
    return Unimplemented("op " + DebugName() + ": data_format '" + layout +
                         "' is not supported (NCHW only)");
  }
  if (param_.n <= 0 || param_.n % 2 == 0) {
    return OpError("attribute n must be a positive odd number, got " +
                   std::to_string(param_.n));
  }
  return Status::OK();
}

Status LrnOp::CheckShape() const {
  if (param_.x->dims().size() != 4) {
    return OpError("input X must be 4-D NCHW, got " + DimsToString(param_.x->dims()));
  }
  return Status::OK();
}

Status LrnOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  if (param_.mid_out) param_.mid_out->Resize(param_.x->dims());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(instance_norm, lite::operators::InstanceNormOp);
REGISTER_LITE_OP(layer_norm, lite::operators::LayerNormOp);
REGISTER_LITE_OP(lrn, lite::operators::LrnOp);
