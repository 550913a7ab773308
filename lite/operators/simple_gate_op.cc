#include "lite/operators/simple_gate_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class SimpleGateOp : public OpWithParam<SimpleGateParam> {
 public:
  using OpWithParam<SimpleGateParam>::OpWithParam;
  Status CheckShape() const override { return Status::OK(); }
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  int raw_axis_ = 1;
};

Status SimpleGateOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  raw_axis_ = desc.GetAttr<int32_t>("axis", 1);
  return Status::OK();
}

Status SimpleGateOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const int rank = static_cast<int>(xd.size());
  const int axis = raw_axis_ < 0 ? raw_axis_ + rank : raw_axis_;
  if (axis < 0 || axis >= rank) {
    return OpError("axis " + std::to_string(raw_axis_) + " out of range for X " +
                   DimsToString(xd));
  }
  if (xd[axis] >= 0 && xd[axis] % 2 != 0) {
    return OpError("X " + DimsToString(xd) + ": dim " + std::to_string(axis) +
                   " must be even to split in halves");
  }
  param_.axis = axis;
  DDim out = xd;
  if (out[axis] > 0) out[axis] /= 2;
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace
}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(simple_gate, lite::operators::SimpleGateOp);
