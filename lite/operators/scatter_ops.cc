#include "lite/operators/scatter_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

// The op types ScatterOp serves.
enum class ScatterOpKind { kScatter, kScatterNdAdd };

class ScatterOp : public OpWithParam<ScatterParam> {
 public:
  ScatterOp(std::string type, ScatterOpKind kind)
      : OpWithParam<ScatterParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const ScatterOpKind kind_;
};

}  // namespace

Status ScatterOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  ASSIGN_OR_RETURN(Tensor * index, Input(kind_ == ScatterOpKind::kScatter ? "Ids" : "Index"));
  ASSIGN_OR_RETURN(Tensor * updates, Input("Updates"));
  param_.x = x;
  param_.index = index;
  param_.updates = updates;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.overwrite = desc.GetAttr<bool>("overwrite", true);
  return Status::OK();
}

Status ScatterOp::CheckShape() const {
  const DataType it = param_.index->dtype();
  if (it != DataType::kInt32 && it != DataType::kInt64 && it != DataType::kUnknown) {
    return OpError(std::string("indices must be int32 or int64, got ") + DataTypeName(it));
  }
  return Status::OK();
}

Status ScatterOp::InferShape() {
  const DDim& xd = param_.x->dims();
  const DDim& id = param_.index->dims();
  const DDim& ud = param_.updates->dims();
  DDim want;
  if (kind_ == ScatterOpKind::kScatter) {
    if (id.size() > 2 || (id.size() == 2 && id[1] != 1)) {
      return OpError("Ids must be 1-D (or [N, 1]), got " + DimsToString(id));
    }
    if (xd.empty()) return OpError("X must have at least one dim");
    want = xd;
    want[0] = param_.index->numel();
  } else {
    const int64_t k = id.empty() ? -1 : id.back();
    if (k < 0 || k > static_cast<int64_t>(xd.size())) {
      return OpError("Index " + DimsToString(id) + " must end in a dim <= the rank of X " +
                     DimsToString(xd));
    }
    want.assign(id.begin(), id.end() - 1);
    want.insert(want.end(), xd.begin() + k, xd.end());
  }
  if (ud != want) {
    return OpError("Updates " + DimsToString(ud) + " must be " + DimsToString(want) +
                   " for X " + DimsToString(xd) + " and indices " + DimsToString(id));
  }
  param_.out->Resize(xd);
  param_.out->set_dtype(param_.x->dtype());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(scatter, lite::operators::ScatterOp,
                      lite::operators::ScatterOpKind::kScatter);
REGISTER_LITE_OP_KIND(scatter_nd_add, lite::operators::ScatterOp,
                      lite::operators::ScatterOpKind::kScatterNdAdd);
