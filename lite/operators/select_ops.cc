#include "lite/operators/select_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types SelectOp serves.
enum class SelectOpKind { kMaskedSelect, kWhereIndex };

class SelectOp : public OpWithParam<SelectParam> {
 public:
  SelectOp(std::string type, SelectOpKind kind)
      : OpWithParam<SelectParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const SelectOpKind kind_;
};

}  // namespace

Status SelectOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  const bool masked = kind_ == SelectOpKind::kMaskedSelect;
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
  if (kind_ == SelectOpKind::kMaskedSelect) {
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

REGISTER_LITE_OP_KIND(masked_select, lite::operators::SelectOp,
                      lite::operators::SelectOpKind::kMaskedSelect);
REGISTER_LITE_OP_KIND(where_index, lite::operators::SelectOp,
                      lite::operators::SelectOpKind::kWhereIndex);
