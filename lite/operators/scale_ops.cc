#include "lite/operators/scale_ops.h"

#include "lite/operators/op_with_param.h"

#include <limits>

namespace lite {
namespace operators {

namespace {

class ScaleOp : public OpWithParam<ScaleParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class DropoutOp : public OpWithParam<DropoutParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class CastOp : public OpWithParam<CastParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

class ClipOp : public OpWithParam<ClipParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

namespace {
Status SameShapeAsX(const Tensor* x, Tensor* out) {
  out->Resize(x->dims());
  out->set_lod(x->lod());
  return Status::OK();
}
}  // namespace

// ---- scale ----

Status ScaleOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.scale_tensor = OptionalInput("ScaleTensor");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.scale = desc.GetAttr<float>("scale", 1.f);
  param_.bias = desc.GetAttr<float>("bias", 0.f);
  param_.bias_after_scale = desc.GetAttr<bool>("bias_after_scale", true);
  auto act = FusedActivation::FromOpDesc(desc);
  if (!act.ok()) return act.status();
  param_.act = act.value();
  const std::string lite_act = desc.GetAttr<std::string>("activation_type", "");
  if (!param_.act.enabled() && !lite_act.empty()) {
    if (lite_act == "relu") {
      param_.act.kind = FusedActivation::kRelu;
    } else if (lite_act == "relu6") {
      param_.act.kind = FusedActivation::kRelu6;
      param_.act.alpha = desc.GetAttr<float>("alpha", 6.f);
    } else if (lite_act == "leaky_relu") {
      param_.act.kind = FusedActivation::kLeakyRelu;
      param_.act.alpha = desc.GetAttr<float>("alpha", 0.02f);
    } else {
      return Unimplemented("op " + DebugName() + ": unsupported activation_type '" +
                           lite_act + "'");
    }
  }
  return Status::OK();
}

Status ScaleOp::CheckShape() const {
  if (param_.scale_tensor && param_.scale_tensor->numel() != 1) {
    return OpError("ScaleTensor must hold one element, has dims " +
                   DimsToString(param_.scale_tensor->dims()));
  }
  return Status::OK();
}

Status ScaleOp::InferShape() {
  param_.out->set_dtype(param_.x->dtype());
  return SameShapeAsX(param_.x, param_.out);
}

// ---- dropout ----

Status DropoutOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.dropout_prob = desc.GetAttr<float>("dropout_prob", 0.5f);
  const std::string impl =
      desc.GetAttr<std::string>("dropout_implementation", "downgrade_in_infer");
  if (impl == "upscale_in_train") {
    param_.upscale_in_train = true;
  } else if (impl != "downgrade_in_infer") {
    return Unimplemented("op " + DebugName() + ": unsupported dropout_implementation '" +
                         impl + "'");
  }
  return Status::OK();
}

Status DropoutOp::CheckShape() const {
  if (!(param_.dropout_prob >= 0.f && param_.dropout_prob <= 1.f)) {
    return OpError("attribute dropout_prob must be in [0, 1], got " +
                   std::to_string(param_.dropout_prob));
  }
  return Status::OK();
}

Status DropoutOp::InferShape() { return SameShapeAsX(param_.x, param_.out); }

// ---- cast ----

DataType CastCodeToDataType(int code) {
  switch (code) {
    case 0: return DataType::kBool;
    case 1: return DataType::kInt16;
    case 2: return DataType::kInt32;
    case 3: return DataType::kInt64;
    case 4: return DataType::kFloat16;
    case 5: return DataType::kFloat32;
    case 6: return DataType::kFloat64;
    case 20: return DataType::kUInt8;
    case 21: return DataType::kInt8;
    default: return DataType::kUnknown;
  }
}

Status CastOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.in_code = desc.GetAttr<int32_t>("in_dtype", 5);
  param_.out_code = desc.GetAttr<int32_t>("out_dtype", 5);
  for (int code : {param_.in_code, param_.out_code}) {
    const DataType t = CastCodeToDataType(code);
    if (t == DataType::kFloat16) {
      return Unimplemented("op " + DebugName() + ": FP16 (code 4) is not supported");
    }
    if (t == DataType::kUnknown) {
      return Unimplemented("op " + DebugName() + ": unsupported dtype code " +
                           std::to_string(code));
    }
  }
  param_.out_dtype = CastCodeToDataType(param_.out_code);
  return Status::OK();
}

Status CastOp::CheckShape() const { return Status::OK(); }

Status CastOp::InferShape() {
  param_.out->set_dtype(param_.out_dtype);
  return SameShapeAsX(param_.x, param_.out);
}

// ---- clip ----

Status ClipOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.min_tensor = OptionalInput("Min");
  param_.max_tensor = OptionalInput("Max");
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.min = desc.GetAttr<float>("min", std::numeric_limits<float>::lowest());
  param_.max = desc.GetAttr<float>("max", std::numeric_limits<float>::max());
  return Status::OK();
}

Status ClipOp::CheckShape() const {
  for (const Tensor* t : {param_.min_tensor, param_.max_tensor}) {
    if (t && t->numel() != 1) {
      return OpError("Min/Max tensors must hold one element, got dims " +
                     DimsToString(t->dims()));
    }
  }
  if (!param_.min_tensor && !param_.max_tensor && param_.min > param_.max) {
    return OpError("attribute max (" + std::to_string(param_.max) +
                   ") must be >= min (" + std::to_string(param_.min) + ")");
  }
  return Status::OK();
}

Status ClipOp::InferShape() {
  param_.out->set_dtype(param_.x->dtype());
  return SameShapeAsX(param_.x, param_.out);
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(scale, lite::operators::ScaleOp);
REGISTER_LITE_OP(dropout, lite::operators::DropoutOp);
REGISTER_LITE_OP(cast, lite::operators::CastOp);
REGISTER_LITE_OP(clip, lite::operators::ClipOp);
