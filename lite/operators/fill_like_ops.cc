#include "lite/operators/fill_like_ops.h"

#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

namespace {

class FillConstantBatchSizeLikeOp : public FillConstantOp {
 public:
  using FillConstantOp::FillConstantOp;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const Tensor* input_ = nullptr;
  int input_dim_idx_ = 0;
  int output_dim_idx_ = 0;
};

// The op types FillAnyLikeOp serves.
enum class FillAnyLikeOpKind { kFillAnyLike, kFillZerosLike };

class FillAnyLikeOp : public OpWithParam<FillAnyLikeParam> {
 public:
  FillAnyLikeOp(std::string type, FillAnyLikeOpKind kind)
      : OpWithParam<FillAnyLikeParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const FillAnyLikeOpKind kind_;
};

}  // namespace

Status FillConstantBatchSizeLikeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  RETURN_IF_ERROR(FillConstantOp::AttachImpl(desc, scope));
  ASSIGN_OR_RETURN(Tensor * input, Input("Input"));
  input_ = input;
  input_dim_idx_ = desc.GetAttr<int32_t>("input_dim_idx", 0);
  output_dim_idx_ = desc.GetAttr<int32_t>("output_dim_idx", 0);
  return Status::OK();
}

Status FillConstantBatchSizeLikeOp::CheckShape() const {
  const int rank = static_cast<int>(param_.shape.size());
  if (output_dim_idx_ < 0 || output_dim_idx_ >= rank) {
    return OpError("output_dim_idx " + std::to_string(output_dim_idx_) +
                   " is out of range for shape " + DimsToString(param_.shape));
  }
  if (input_dim_idx_ < 0) {
    return OpError("input_dim_idx must be >= 0, got " + std::to_string(input_dim_idx_));
  }
  return Status::OK();
}

Status FillConstantBatchSizeLikeOp::InferShape() {
  const DDim& in = input_->dims();
  if (input_dim_idx_ >= static_cast<int>(in.size())) {
    return OpError("input_dim_idx " + std::to_string(input_dim_idx_) +
                   " is out of range for Input " + DimsToString(in));
  }
  int64_t batch = in[input_dim_idx_];
  if (input_dim_idx_ == 0 && !input_->lod().empty()) {
    batch = static_cast<int64_t>(input_->lod().back().size()) - 1;
  }
  param_.shape[output_dim_idx_] = batch;
  return FillConstantOp::InferShape();
}

Status FillAnyLikeOp::AttachImpl(const cpp::OpDesc& desc, Scope* scope) {
  ASSIGN_OR_RETURN(Tensor * x, Input("X"));
  param_.x = x;
  ASSIGN_OR_RETURN(param_.out, Output("Out"));
  if (kind_ == FillAnyLikeOpKind::kFillZerosLike) return Status::OK();
  param_.value = desc.GetAttr<float>("value", 0.f);
  const int code = desc.GetAttr<int32_t>("dtype", -1);
  if (code != -1) {
    auto dtype = FillDtype(code);
    if (!dtype.ok()) {
      return Status(dtype.status().code(), "op " + DebugName() + ": " + dtype.status().message());
    }
    param_.dtype = *dtype;
  }
  return Status::OK();
}

Status FillAnyLikeOp::CheckShape() const { return Status::OK(); }

Status FillAnyLikeOp::InferShape() {
  param_.out->Resize(param_.x->dims());
  param_.out->set_lod(param_.x->lod());
  param_.out->set_dtype(param_.dtype == DataType::kUnknown ? param_.x->dtype() : param_.dtype);
  return Status::OK();
}

}  // namespace operators
}  // namespace lite

REGISTER_LITE_OP(fill_constant_batch_size_like, lite::operators::FillConstantBatchSizeLikeOp);
REGISTER_LITE_OP_KIND(fill_any_like, lite::operators::FillAnyLikeOp,
                      lite::operators::FillAnyLikeOpKind::kFillAnyLike);
REGISTER_LITE_OP_KIND(fill_zeros_like, lite::operators::FillAnyLikeOp,
                      lite::operators::FillAnyLikeOpKind::kFillZerosLike);
