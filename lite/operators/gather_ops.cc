#include "lite/operators/gather_ops.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types GatherOp serves.
enum class GatherOpKind { kGather, kIndexSelect, kGatherNd, kWhere };

class GatherOp : public OpWithParam<GatherParam> {
 public:
  GatherOp(std::string type, GatherOpKind kind)
      : OpWithParam<GatherParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const GatherOpKind kind_;
};

}  // namespace

Status GatherOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  if (kind_ == GatherOpKind::kWhere) {
    ASSIGN_OR_RETURN(Tensor * c, Input("Condition"));
    ASSIGN_OR_RETURN(Tensor * y, Input("Y"));
    param_.condition = c;
    param_.y = y;
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Tensor * index, Input("Index"));
  param_.index = index;
  if (OptionalInput("Axis")) {
    return Unimplemented("op " + DebugName() + ": input Axis (a run-time axis) is not "
                         "supported; give attribute axis");
  }
  if (kind_ == GatherOpKind::kGather) param_.axis = desc.GetAttr<int32_t>("axis", 0);
  if (kind_ == GatherOpKind::kIndexSelect) param_.axis = desc.GetAttr<int32_t>("dim", 0);
  return Status::OK();
}

Status GatherOp::CheckShape() const {
  if (param_.index && param_.index->dtype() != DataType::kInt32 &&
      param_.index->dtype() != DataType::kInt64 && param_.index->dtype() != DataType::kUnknown) {
    return OpError(std::string("Index must be int32 or int64, got ") +
                   DataTypeName(param_.index->dtype()));
  }
  return Status::OK();
}

Status GatherOp::InferShape() {
  const DDim& xd = param_.x->dims();
  DDim out;
  if (kind_ == GatherOpKind::kWhere) {
    if (param_.condition->dims() != xd || param_.y->dims() != xd) {
      return OpError("Condition " + DimsToString(param_.condition->dims()) + ", X " +
                     DimsToString(xd) + " and Y " + DimsToString(param_.y->dims()) +
                     " must have the same dims");
    }
    out = xd;
  } else if (kind_ == GatherOpKind::kGatherNd) {
    const DDim& id = param_.index->dims();
    const int64_t k = id.empty() ? 0 : id.back();
    if (id.empty() || k < 0 || k > static_cast<int64_t>(xd.size())) {
      return OpError("Index " + DimsToString(id) + " must end in a dim <= the rank of X " +
                     DimsToString(xd));
    }
    out.assign(id.begin(), id.end() - 1);
    out.insert(out.end(), xd.begin() + k, xd.end());
  } else {
    const DDim& id = param_.index->dims();
    if (id.size() > 2 || (id.size() == 2 && id[1] != 1)) {
      return OpError("Index must be 1-D (or [N, 1]), got " + DimsToString(id));
    }
    ASSIGN_OR_RETURN(int axis, NormalizeAxis(param_.axis, static_cast<int64_t>(xd.size()),
                                             "op " + DebugName() + " axis"));
    param_.axis = axis;
    out = xd;
    out[axis] = param_.index->numel();
  }
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(gather, lite::operators::GatherOp, lite::operators::GatherOpKind::kGather);
REGISTER_LITE_OP_KIND(index_select, lite::operators::GatherOp,
                      lite::operators::GatherOpKind::kIndexSelect);
REGISTER_LITE_OP_KIND(gather_nd, lite::operators::GatherOp,
                      lite::operators::GatherOpKind::kGatherNd);
REGISTER_LITE_OP_KIND(where, lite::operators::GatherOp, lite::operators::GatherOpKind::kWhere);
