#include "lite/operators/p_norm_op.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class PNormOp : public OpWithParam<PNormParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace

Status PNormOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.porder = desc.GetAttr<float>("porder", 2.f);
  param_.axis = desc.GetAttr<int32_t>("axis", -1);
  param_.keepdim = desc.GetAttr<bool>("keepdim", false);
  param_.asvector = desc.GetAttr<bool>("asvector", false);
  return Status::OK();
}

Status PNormOp::CheckShape() const { return Status::OK(); }

Status PNormOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int64_t rank = static_cast<int64_t>(xd.size());
  DDim out;
  if (param_.asvector || rank == 0) {
    param_.outer = param_.inner = 1;
    param_.n = param_.x->numel();
    if (param_.keepdim) out.assign(rank, 1);
  } else {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(param_.axis, rank, "op " + DebugName() + " axis"));
    param_.outer = param_.inner = 1;
    for (int i = 0; i < axis; ++i) param_.outer *= xd[i];
    param_.n = xd[axis];
    for (int64_t i = axis + 1; i < rank; ++i) param_.inner *= xd[i];
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis) out.push_back(xd[i]);
      else if (param_.keepdim) out.push_back(1);
    }
  }
  if (out.empty()) out = {1};
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(p_norm, lite::operators::PNormOp);
