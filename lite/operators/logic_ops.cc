#include "lite/operators/logic_ops.h"

#include <map>

#include "lite/operators/elementwise_ops.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class LogicOp : public OpWithParam<LogicParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status LogicOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  static const std::map<std::string, LogicKind> kinds = {
      {"equal", LogicKind::kEqual},
      {"not_equal", LogicKind::kNotEqual},
      {"less_than", LogicKind::kLessThan},
      {"less_equal", LogicKind::kLessEqual},
      {"greater_than", LogicKind::kGreaterThan},
      {"greater_equal", LogicKind::kGreaterEqual},
      {"logical_and", LogicKind::kAnd},
      {"logical_or", LogicKind::kOr},
      {"logical_xor", LogicKind::kXor},
      {"logical_not", LogicKind::kNot},
  };
  auto it = kinds.find(Type());
  if (it == kinds.end()) return OpError("not a comparison or logical op type");
  param_.kind = it->second;
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

REGISTER_LITE_OP(equal, lite::operators::LogicOp);
REGISTER_LITE_OP(not_equal, lite::operators::LogicOp);
REGISTER_LITE_OP(less_than, lite::operators::LogicOp);
REGISTER_LITE_OP(less_equal, lite::operators::LogicOp);
REGISTER_LITE_OP(greater_than, lite::operators::LogicOp);
REGISTER_LITE_OP(greater_equal, lite::operators::LogicOp);
REGISTER_LITE_OP(logical_and, lite::operators::LogicOp);
REGISTER_LITE_OP(logical_or, lite::operators::LogicOp);
REGISTER_LITE_OP(logical_xor, lite::operators::LogicOp);
REGISTER_LITE_OP(logical_not, lite::operators::LogicOp);
