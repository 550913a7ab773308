#include "lite/operators/transpose_op.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

class TransposeOp : public OpWithParam<TransposeParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  std::vector<int> raw_axis_;
};

}  // namespace

Status TransposeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.xshape = OptionalOutput("XShape");
  raw_axis_ = desc.GetAttr<std::vector<int32_t>>("axis", {});
  // data_format only selects an MKLDNN layout in Paddle; it does not change
  // the result, so it is ignored here.
  return Status::OK();
}

Status TransposeOp::CheckShape() const {
  if (!param_.x || !param_.out) return OpError("X and Out must be bound");
  return Status::OK();
}

Status TransposeOp::InferShape() {
  const DDim& in = param_.x->dims();
  const int rank = static_cast<int>(in.size());
  if (static_cast<int>(raw_axis_.size()) != rank) {
    return OpError("axis has " + std::to_string(raw_axis_.size()) +
                   " entries but input " + DimsToString(in) + " has rank " +
                   std::to_string(rank));
  }
  std::vector<int> axis(rank);
  std::vector<bool> seen(rank, false);
  for (int i = 0; i < rank; ++i) {
    int a = raw_axis_[i];
    if (a < -rank || a >= rank) {
      return OpError("axis[" + std::to_string(i) + "] = " + std::to_string(a) +
                     " is out of range for rank " + std::to_string(rank));
    }
    if (a < 0) a += rank;
    if (seen[a]) return OpError("axis entries must be unique");
    seen[a] = true;
    axis[i] = a;
  }
  param_.axis = axis;
  DDim out(rank);
  for (int i = 0; i < rank; ++i) out[i] = in[axis[i]];
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  SetXShape(*param_.x, param_.xshape);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(transpose, lite::operators::TransposeOp);
REGISTER_LITE_OP(transpose2, lite::operators::TransposeOp);
