#include "lite/operators/one_hot_op.h"

#include "lite/operators/op_with_param.h"
#include "lite/operators/shape_ops.h"
#include "lite/operators/tensor_util.h"

namespace lite {
namespace operators {

namespace {

// The op types OneHotOp serves.
enum class OneHotOpKind { kOneHot, kOneHotV2 };

class OneHotOp : public OpWithParam<OneHotParam> {
 public:
  OneHotOp(std::string type, OneHotOpKind kind)
      : OpWithParam<OneHotParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const OneHotOpKind kind_;
};

}  // namespace

StatusOr<int64_t> ResolveOneHotDepth(const OneHotParam& p, const std::string& op_name) {
  int64_t depth = p.depth;
  if (p.depth_tensor) {
    if (p.depth_tensor->numel() != 1) {
      return InvalidArgument("op " + op_name + ": input depth_tensor must hold one value, got dims " +
                             DimsToString(p.depth_tensor->dims()));
    }
    auto v = ReadIntTensor(*p.depth_tensor, "op " + op_name + " input depth_tensor");
    if (!v.ok()) return v.status();
    depth = (*v)[0];
  }
  if (depth < 1) {
    return InvalidArgument("op " + op_name + ": depth must be >= 1, got " + std::to_string(depth));
  }
  return depth;
}

DDim OneHotDims(const OneHotParam& p, int64_t depth) {
  DDim out = p.x->dims();
  if (p.v1) {
    out.back() = depth;
  } else {
    out.push_back(depth);
  }
  return out;
}

Status OneHotOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  param_.depth_tensor = OptionalInput("depth_tensor");
  param_.v1 = kind_ == OneHotOpKind::kOneHot;
  param_.depth = desc.GetAttr<int32_t>("depth", 0);
  param_.allow_out_of_range = desc.GetAttr<bool>("allow_out_of_range", false);
  auto dtype = FillDtype(desc.GetAttr<int32_t>("dtype", 5));
  if (!dtype.ok()) {
    return Status(dtype.status().code(), "op " + DebugName() + ": " + dtype.status().message());
  }
  param_.dtype = *dtype;
  return Status::OK();
}

Status OneHotOp::CheckShape() const {
  if (!param_.depth_tensor && param_.depth < 1) return OpError("attribute depth must be >= 1");
  const DDim& xd = param_.x->dims();
  if (param_.v1 && (xd.size() < 2 || xd.back() != 1)) {
    return OpError("input X must be [..., 1] with rank >= 2, got " + DimsToString(xd));
  }
  return Status::OK();
}

Status OneHotOp::InferShape() {
  RETURN_IF_ERROR(CheckShape());
  ASSIGN_OR_RETURN(int64_t depth, ResolveOneHotDepth(param_, DebugName()));
  param_.out->Resize(OneHotDims(param_, depth));
  param_.out->set_dtype(param_.dtype);
  param_.out->set_lod(param_.x->lod());
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP_KIND(one_hot, lite::operators::OneHotOp, lite::operators::OneHotOpKind::kOneHot);
REGISTER_LITE_OP_KIND(one_hot_v2, lite::operators::OneHotOp,
                      lite::operators::OneHotOpKind::kOneHotV2);
