#include "lite/operators/argsort_op.h"

#include <algorithm>

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class ArgsortOp : public OpWithParam<ArgsortParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status ArgsortOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  ASSIGN_OR_RETURN(param_.indices, Output("Indices"));
  param_.axis = desc.GetAttr<int32_t>("axis", -1);
  param_.descending = desc.GetAttr<bool>("descending", false);
  return Status::OK();
}

Status ArgsortOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int64_t rank = std::max<int64_t>(static_cast<int64_t>(xd.size()), 1);
  ASSIGN_OR_RETURN(int axis, NormalizeAxis(param_.axis, rank, "op " + DebugName() + " axis"));
  param_.axis = axis;
  param_.out->Resize(xd);
  param_.out->set_dtype(param_.x->dtype());
  param_.indices->Resize(xd);
  param_.indices->set_dtype(DataType::kInt64);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(argsort, lite::operators::ArgsortOp);
