#include "lite/operators/logic_ops.h"

#include "lite/operators/elementwise_ops.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class LogicOp : public OpWithParam<LogicParam> {
 public:
  LogicOp(std::string type, LogicKind kind)
      : OpWithParam<LogicParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const LogicKind kind_;  // the one it was registered with
};

}  // namespace

Status LogicOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  param_.kind = kind_;
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  if (param_.kind != LogicKind::kNot) {
    ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
    param_.y = y;
  }
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  const bool logical = param_.kind >= LogicKind::kAnd;
  param_.axis = logical ? -1 : desc.GetAttr<int32_t>("axis", -1);
  return Status::OK();
}

Status LogicOp::CheckShape() const {
  if (param_.axis < -1) {
    return OpError("attribute axis must be >= -1, got " + std::to_string(param_.axis));
  }
  return Status::OK();
}

Status LogicOp::InferShape() {
  if (!param_.y) {
    param_.out_dims = param_.x_dims = param_.x->dims();
  } else {
    Status s = ElementwiseBroadcastDims(param_.x->dims(), param_.y->dims(), param_.axis,
                                        &param_.x_dims, &param_.y_dims, &param_.out_dims);
    if (!s.ok()) return OpError(s.message());
  }
  param_.out->Resize(param_.out_dims);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(equal, lite::operators::LogicOp, lite::operators::LogicKind::kEqual);
REGISTER_LITE_OP_KIND(not_equal, lite::operators::LogicOp, lite::operators::LogicKind::kNotEqual);
REGISTER_LITE_OP_KIND(less_than, lite::operators::LogicOp, lite::operators::LogicKind::kLessThan);
REGISTER_LITE_OP_KIND(less_equal, lite::operators::LogicOp, lite::operators::LogicKind::kLessEqual);
REGISTER_LITE_OP_KIND(greater_than, lite::operators::LogicOp,
                      lite::operators::LogicKind::kGreaterThan);
REGISTER_LITE_OP_KIND(greater_equal, lite::operators::LogicOp,
                      lite::operators::LogicKind::kGreaterEqual);
REGISTER_LITE_OP_KIND(logical_and, lite::operators::LogicOp, lite::operators::LogicKind::kAnd);
REGISTER_LITE_OP_KIND(logical_or, lite::operators::LogicOp, lite::operators::LogicKind::kOr);
REGISTER_LITE_OP_KIND(logical_xor, lite::operators::LogicOp, lite::operators::LogicKind::kXor);
REGISTER_LITE_OP_KIND(logical_not, lite::operators::LogicOp, lite::operators::LogicKind::kNot);
