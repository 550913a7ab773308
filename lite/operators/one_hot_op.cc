#include "lite/operators/one_hot_op.h"

#include "lite/operators/shape_ops.h"

namespace lite {
namespace operators {

Status OneHotOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  if (OptionalInput("depth_tensor")) {
    return Unimplemented("op " + DebugName() + ": input depth_tensor (a run-time depth) is "
                         "not supported; give attribute depth");
  }
  param_.depth = desc.GetAttr<int32_t>("depth", 0);
  param_.allow_out_of_range = desc.GetAttr<bool>("allow_out_of_range", false);
  auto dtype = FillDtype(desc.GetAttr<int32_t>("dtype", 5));
  if (!dtype.ok()) {
    return Status(dtype.status().code(), "op " + DebugName() + ": " + dtype.status().message());
  }
  param_.dtype = *dtype;
  return Status::OK();
}

Status OneHotOp::CheckShape() const {
  if (param_.depth < 1) return OpError("attribute depth must be >= 1");
  return Status::OK();
}

Status OneHotOp::InferShape() {
  DDim out = param_.x->dims();
  out.push_back(param_.depth);
  param_.out->Resize(out);
  param_.out->set_dtype(param_.dtype);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(one_hot_v2, lite::operators::OneHotOp);
