#include "lite/operators/select_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class SelectOp : public OpWithParam<SelectParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status SelectOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const bool masked = Type() == "masked_select";
  ASSIGN_OR_RETURN(Tensor * x, Input(masked ? "X" : "Condition"));
  param_.x = x;
  if (masked) {
    ASSIGN_OR_RETURN(Tensor * mask, Input("Mask"));
    param_.mask = mask;
  }
  ASSIGN_OR_RETURN(param_.out, Output(masked ? "Y" : "Out"));
  return Status::OK();
}

Status SelectOp::CheckShape() const {
  const DataType m = param_.mask ? param_.mask->dtype() : DataType::kUnknown;
  if (m != DataType::kBool && m != DataType::kUnknown) {
    return OpError(std::string("Mask must be bool, got ") + DataTypeName(m));
  }
  return Status::OK();
}

Status SelectOp::InferShape() {
  if (Type() == "masked_select") {
    if (param_.mask->dims() != param_.x->dims()) {
      return OpError("Mask " + DimsToString(param_.mask->dims()) + " must have the dims of X " +
                     DimsToString(param_.x->dims()));
    }
    param_.out->Resize({0});
    param_.out->set_dtype(param_.x->dtype());
    return Status::OK();
  }
  param_.out->Resize({0, static_cast<int64_t>(param_.x->dims().size())});
  param_.out->set_dtype(DataType::kInt64);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(masked_select, lite::operators::SelectOp);
REGISTER_LITE_OP(where_index, lite::operators::SelectOp);
