#include "lite/operators/array_ops.h"

#include <cmath>

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types ArrayOp serves.
enum class ArrayOpKind { kCumsum, kFlip, kRoll, kRange };

class ArrayOp : public OpWithParam<ArrayParam> {
 public:
  ArrayOp(std::string type, ArrayOpKind kind)
      : OpWithParam<ArrayParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ArrayOpKind kind_;
};

}  // namespace

StatusOr<int64_t> RangeLength(double start, double end, double step, bool integral) {
  if (step == 0) return InvalidArgument("range: Step must not be 0");
  if ((end - start) * step <= 0) return int64_t{0};
  if (integral) {
    const int64_t span = static_cast<int64_t>(std::fabs(end - start));
    const int64_t s = static_cast<int64_t>(std::fabs(step));
    return (span + s - 1) / s;
  }
  return static_cast<int64_t>(std::ceil(std::fabs((end - start) / step)));
}

StatusOr<int64_t> RangeOf(const Tensor& start, const Tensor& end, const Tensor& step) {
  if (start.dtype() != end.dtype() || start.dtype() != step.dtype()) {
    return InvalidArgument("range: Start, End and Step must share one dtype");
  }
  double v[3];
  const Tensor* ts[3] = {&start, &end, &step};
  const bool integral = start.dtype() != DataType::kFloat32;
  for (int i = 0; i < 3; ++i) {
    if (integral) {
      ASSIGN_OR_RETURN(auto values, ReadIntTensor(*ts[i], "range input"));
      v[i] = static_cast<double>(values[0]);
    } else {
      ASSIGN_OR_RETURN(auto values, ReadFloatTensor(*ts[i], "range input"));
      v[i] = values[0];
    }
  }
  return RangeLength(v[0], v[1], v[2], integral);
}

Status ArrayOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  if (kind_ == ArrayOpKind::kRange) {
    ASSIGN_OR_RETURN(Tensor * start, Input("Start"));
    ASSIGN_OR_RETURN(Tensor * end, Input("End"));
    ASSIGN_OR_RETURN(Tensor * step, Input("Step"));
    param_.x = start;
    param_.end = end;
    param_.step = step;
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  if (kind_ == ArrayOpKind::kCumsum) {
    param_.axes = {desc.GetAttr<int32_t>("axis", -1)};
    param_.flatten = desc.GetAttr<bool>("flatten", false);
    param_.exclusive = desc.GetAttr<bool>("exclusive", false);
    param_.reverse = desc.GetAttr<bool>("reverse", false);
  } else if (kind_ == ArrayOpKind::kFlip) {
    param_.axes = desc.GetAttr<std::vector<int64_t>>("axis", {});
  } else {  // roll
    if (OptionalInput("ShiftsTensor")) {
      return Unimplemented("op " + DebugName() + ": input ShiftsTensor (run-time shifts) is "
                           "not supported; give attribute shifts");
    }
    param_.axes = desc.GetAttr<std::vector<int64_t>>("axis", {});
    param_.shifts = desc.GetAttr<std::vector<int64_t>>("shifts", {});
  }
  return Status::OK();
}

Status ArrayOp::CheckShape() const {
  if (kind_ == ArrayOpKind::kRoll && !param_.axes.empty() &&
      param_.axes.size() != param_.shifts.size()) {
    return OpError("shifts " + DimsToString(param_.shifts) + " and axis " +
                   DimsToString(param_.axes) + " must have the same length");
  }
  if (kind_ == ArrayOpKind::kRoll && param_.axes.empty() && param_.shifts.size() != 1) {
    return OpError("without axis, shifts must hold one value, got " +
                   DimsToString(param_.shifts));
  }
  return Status::OK();
}

Status ArrayOp::InferShape() {
  if (kind_ == ArrayOpKind::kRange) {
    const Tensor* ts[3] = {param_.x, param_.end, param_.step};
    for (int i = 0; i < 3; ++i) {
      if (ts[i]->numel() != 1) {
        return OpError("Start, End and Step must hold one element each");
      }
      if (!ts[i]->raw_data()) {  // computed by an earlier op at run time
        param_.out->Resize({-1});
        param_.out->set_dtype(param_.x->dtype());
        return Status::OK();
      }
    }
    auto n = RangeOf(*param_.x, *param_.end, *param_.step);
    if (!n.ok()) return OpError(n.status().message());
    param_.out->Resize({*n});
    param_.out->set_dtype(param_.x->dtype());
    return Status::OK();
  }
  const DDim& xd = param_.x->dims();
  const int64_t rank = static_cast<int64_t>(xd.size());
  const bool flat = kind_ == ArrayOpKind::kCumsum && param_.flatten;
  if (!flat) {
    for (int64_t& a : param_.axes) {
      ASSIGN_OR_RETURN(int axis, NormalizeAxis(a, rank, "op " + DebugName() + " axis"));
      a = axis;
    }
  }
  param_.out->Resize(flat ? DDim{param_.x->numel()} : xd);
  param_.out->set_dtype(param_.x->dtype());
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(cumsum, lite::operators::ArrayOp, lite::operators::ArrayOpKind::kCumsum);
REGISTER_LITE_OP_KIND(flip, lite::operators::ArrayOp, lite::operators::ArrayOpKind::kFlip);
REGISTER_LITE_OP_KIND(roll, lite::operators::ArrayOp, lite::operators::ArrayOpKind::kRoll);
REGISTER_LITE_OP_KIND(range, lite::operators::ArrayOp, lite::operators::ArrayOpKind::kRange);
