#include "lite/operators/dot_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types DotOp serves.
enum class DotOpKind { kDot, kAddmm, kNorm };

class DotOp : public OpWithParam<DotParam> {
 public:
  DotOp(std::string type, DotOpKind kind)
      : OpWithParam<DotParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const DotOpKind kind_;
};

}  // namespace

Status DotOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  if (kind_ == DotOpKind::kNorm) {
    param_.norm = OptionalOutput("Norm");
    param_.axis = desc.GetAttr<int32_t>("axis", -1);
    param_.epsilon = desc.GetAttr<float>("epsilon", 1e-10f);
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
  param_.y = y;
  if (kind_ == DotOpKind::kAddmm) {
    ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
    param_.input = input;
    param_.alpha = desc.GetAttr<float>("Alpha", 1.f);
    param_.beta = desc.GetAttr<float>("Beta", 1.f);
  }
  return Status::OK();
}

Status DotOp::CheckShape() const {
  for (const Tensor* t : {param_.x, param_.y, param_.input}) {
    if (t && t->dtype() != DataType::kFloat32 && t->dtype() != DataType::kUnknown) {
      return OpError(std::string("only float32 is supported, got ") + DataTypeName(t->dtype()));
    }
  }
  return Status::OK();
}

Status DotOp::InferShape() {
  const DDim& xd = param_.x->dims();
  DDim out;
  if (kind_ == DotOpKind::kNorm) {
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(param_.axis, static_cast<int64_t>(xd.size()),
                                             "op " + DebugName() + " axis"));
    param_.axis = axis;
    out = xd;
    if (param_.norm) {
      DDim nd = xd;
      nd[axis] = 1;
      param_.norm->Resize(nd);
      param_.norm->set_dtype(DataType::kFloat32);
    }
  } else if (kind_ == DotOpKind::kDot) {
    if (param_.y->dims() != xd || xd.empty() || xd.size() > 2) {
      return OpError("X " + DimsToString(xd) + " and Y " + DimsToString(param_.y->dims()) +
                     " must have one 1-D or 2-D dims");
    }
    out.assign(xd.begin(), xd.end() - 1);
  } else {
    const DDim& yd = param_.y->dims();
    const DDim& id = param_.input->dims();
    if (xd.size() != 2 || yd.size() != 2 || xd[1] != yd[0]) {
      return OpError("X " + DimsToString(xd) + " and Y " + DimsToString(yd) +
                     " must be [M, K] and [K, N]");
    }
    out = {xd[0], yd[1]};
    const bool fits = (id.size() == 1 && (id[0] == out[1] || id[0] == 1)) ||
                      (id.size() == 2 && (id[0] == out[0] || id[0] == 1) &&
                       (id[1] == out[1] || id[1] == 1));
    if (!fits) {
      return OpError("Input " + DimsToString(id) + " does not broadcast to " + DimsToString(out));
    }
  }
  param_.out->Resize(out);
  param_.out->set_dtype(DataType::kFloat32);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(dot, lite::operators::DotOp, lite::operators::DotOpKind::kDot);
REGISTER_LITE_OP_KIND(addmm, lite::operators::DotOp, lite::operators::DotOpKind::kAddmm);
REGISTER_LITE_OP_KIND(norm, lite::operators::DotOp, lite::operators::DotOpKind::kNorm);
