#include "lite/operators/activation_ops.h"

namespace lite {
namespace operators {

Status ActivationOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.act_type = Type();
  param_.alpha = desc.GetAttr<float>("alpha", 0.02f);
  param_.threshold = desc.GetAttr<float>("threshold", 6.0f);
  param_.scale = desc.GetAttr<float>("scale", 6.0f);
  param_.offset = desc.GetAttr<float>("offset", 3.0f);
  if (Type() == "hard_sigmoid") {
    param_.slope = desc.GetAttr<float>("slope", 0.2f);
    param_.hs_offset = desc.GetAttr<float>("offset", 0.5f);
  }
  param_.beta = desc.GetAttr<float>("beta", 1.0f);
  param_.approximate = desc.GetAttr<bool>("approximate", false);
  return Status::OK();
}

Status ActivationOp::CheckShape() const {
  if (!param_.x) return OpError("input X is not bound");
  return Status::OK();
}

Status ActivationOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(relu, lite::operators::ActivationOp);
REGISTER_LITE_OP(tanh, lite::operators::ActivationOp);
REGISTER_LITE_OP(sigmoid, lite::operators::ActivationOp);
