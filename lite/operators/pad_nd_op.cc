#include "lite/operators/pad_nd_op.h"

#include "lite/operators/conv_util.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class PadNdOp : public OpWithParam<PadNdParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status PadNdOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.paddings = desc.GetAttr<std::vector<int>>("paddings", {});
  param_.pad_value = desc.GetAttr<float>("pad_value", 0.f);
  return Status::OK();
}

Status PadNdOp::CheckShape() const {
  const size_t rank = param_.x->dims().size();
  if (param_.paddings.size() != 2 * rank) {
    return OpError("attribute paddings must hold 2 * rank(X) = " + std::to_string(2 * rank) +
                   " values for X " + DimsToString(param_.x->dims()) + ", got " +
                   IntsToString(param_.paddings));
  }
  for (int v : param_.paddings) {
    if (v < 0) return OpError("attribute paddings must be >= 0, got " + IntsToString(param_.paddings));
  }
  return Status::OK();
}

Status PadNdOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  DDim out = param_.x->dims();
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] >= 0) out[i] += param_.paddings[2 * i] + param_.paddings[2 * i + 1];
  }
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(pad, lite::operators::PadNdOp);
