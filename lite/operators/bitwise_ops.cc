#include "lite/operators/bitwise_ops.h"

#include "lite/operators/elementwise_ops.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class BitwiseOp : public OpWithParam<BitwiseParam> {
 public:
  BitwiseOp(std::string type, BitwiseKind kind)
      : OpWithParam<BitwiseParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const BitwiseKind kind_;  // the one it was registered with
};

}  // namespace

Status BitwiseOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.kind = kind_;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  param_.y = nullptr;
  if (param_.kind != BitwiseKind::kNot) {
    ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
    param_.y = y;
  }
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  return Status::OK();
}

Status BitwiseOp::CheckShape() const {
  switch (param_.x->dtype()) {
    case DataType::kBool:
    case DataType::kInt8:
    case DataType::kUInt8:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
      break;
    default:
      return OpError(std::string("X must be bool or an integer type, got ") +
                     DataTypeName(param_.x->dtype()));
  }
  if (param_.y && param_.y->dtype() != param_.x->dtype()) {
    return OpError(std::string("X is ") + DataTypeName(param_.x->dtype()) + " but Y is " +
                   DataTypeName(param_.y->dtype()));
  }
  return Status::OK();
}

Status BitwiseOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  if (!param_.y) {
    param_.out_dims = param_.x_dims = param_.x->dims();
  } else {
    Status s = ElementwiseBroadcastDims(param_.x->dims(), param_.y->dims(), -1, &param_.x_dims,
                                        &param_.y_dims, &param_.out_dims);
    if (!s.ok()) return OpError(s.message());
  }
  param_.out->Resize(param_.out_dims);
  param_.out->set_dtype(param_.x->dtype());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(bitwise_and, lite::operators::BitwiseOp, lite::operators::BitwiseKind::kAnd);
REGISTER_LITE_OP_KIND(bitwise_or, lite::operators::BitwiseOp, lite::operators::BitwiseKind::kOr);
REGISTER_LITE_OP_KIND(bitwise_xor, lite::operators::BitwiseOp, lite::operators::BitwiseKind::kXor);
REGISTER_LITE_OP_KIND(bitwise_not, lite::operators::BitwiseOp, lite::operators::BitwiseKind::kNot);
