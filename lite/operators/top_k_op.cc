#include "lite/operators/top_k_op.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types TopKOp serves.
enum class TopKOpKind { kTopK, kTopKV2 };

class TopKOp : public OpWithParam<TopKParam> {
 public:
  TopKOp(std::string type, TopKOpKind kind)
      : OpWithParam<TopKParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const TopKOpKind kind_;
};

}  // namespace

Status TopKOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  ASSIGN_OR_RETURN(param_.indices, Output("Indices"));
  if (OptionalInput("K")) {
    return Unimplemented("op " + DebugName() + ": input K (a run-time k) is not supported; "
                         "give attribute k");
  }
  param_.k = desc.GetAttr<int32_t>("k", 1);
  if (kind_ == TopKOpKind::kTopKV2) {
    param_.axis = desc.GetAttr<int32_t>("axis", -1);
    param_.largest = desc.GetAttr<bool>("largest", true);
  }
  return Status::OK();
}

Status TopKOp::CheckShape() const {
  if (param_.k < 1) return OpError("attribute k must be >= 1, got " + std::to_string(param_.k));
  return Status::OK();
}

Status TopKOp::InferShape() {
  DDim out = param_.x->dims();
  if (out.empty()) return OpError("X must have rank >= 1");
  ASSIGN_OR_RETURN(int axis, NormalizeAxis(param_.axis, static_cast<int64_t>(out.size()),
                                           "op " + DebugName() + " axis"));
  param_.axis = axis;
  if (out[axis] >= 0 && param_.k > out[axis]) {
    return OpError("k = " + std::to_string(param_.k) + " exceeds the extent " +
                   std::to_string(out[axis]) + " of axis " + std::to_string(axis) + " of X " +
                   DimsToString(param_.x->dims()));
  }
  out[axis] = param_.k;
  param_.out->Resize(out);
  param_.out->set_dtype(param_.x->dtype());
  param_.indices->Resize(out);
  param_.indices->set_dtype(DataType::kInt64);
  // Both keep X's rows and so its LoD (a beam search step reads it).
  param_.out->set_lod(param_.x->lod());
  param_.indices->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(top_k, lite::operators::TopKOp, lite::operators::TopKOpKind::kTopK);
REGISTER_LITE_OP_KIND(top_k_v2, lite::operators::TopKOp, lite::operators::TopKOpKind::kTopKV2);
