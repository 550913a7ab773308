#include "lite/operators/softmax_op.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types SoftmaxOp serves.
enum class SoftmaxOpKind { kSoftmax, kLogSoftmax };

class SoftmaxOp : public OpWithParam<SoftmaxParam> {
 public:
  SoftmaxOp(std::string type, SoftmaxOpKind kind)
      : OpWithParam<SoftmaxParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const SoftmaxOpKind kind_;
};

}  // namespace

Status SoftmaxOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.axis = desc.GetAttr<int32_t>("axis", -1);
  param_.log = kind_ == SoftmaxOpKind::kLogSoftmax;
  return Status::OK();
}

Status SoftmaxOp::CheckShape() const { return Status::OK(); }

Status SoftmaxOp::InferShape() {
  const DDim& d = param_.x->dims();
  // A 0-D tensor behaves as one element along axis 0 (or -1).
  const int rank = d.empty() ? 1 : static_cast<int>(d.size());
  int axis = param_.axis;
  if (axis < -rank || axis >= rank) {
    return OpError("attribute axis " + std::to_string(axis) +
                   " out of range for X " + DimsToString(d));
  }
  if (axis < 0) axis += rank;
  param_.outer = param_.n = param_.inner = 1;
  if (!d.empty()) {
    for (int i = 0; i < axis; ++i) param_.outer *= d[i];
    param_.n = d[axis];
    for (int i = axis + 1; i < rank; ++i) param_.inner *= d[i];
  }
  param_.out->Resize(d);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(softmax, lite::operators::SoftmaxOp,
                      lite::operators::SoftmaxOpKind::kSoftmax);
REGISTER_LITE_OP_KIND(log_softmax, lite::operators::SoftmaxOp,
                      lite::operators::SoftmaxOpKind::kLogSoftmax);
