// Matrix-product ops: mul, matmul (v1), matmul_v2, bmm and fc.
//
// mul:       X flattened to 2-D at x_num_col_dims, Y at y_num_col_dims;
//            Out dims = X.dims[:x_num_col_dims] + Y.dims[y_num_col_dims:].
// matmul:    transpose_X/transpose_Y/alpha. 1-D X is [1, K] and 1-D Y is
//            [K, 1] before the transposes (Paddle's v1 rule), and the
//            promoted extents are squeezed from Out again. Batch dims: X's
//            when the batch sizes agree (or one side has none), else
//            numpy broadcasting.
// matmul_v2: trans_x/trans_y with numpy matmul semantics (1-D operands
//            ignore the transpose flag; batch dims broadcast).
// bmm:       matmul_v2 of X [B, M, K] and Y [B, K, N] (both 3-D, one B).
// fc:        Out = act(Input(flattened at in_num_col_dims) * W + Bias),
//            activation_type "" or "relu"; padding_weights must be false.
// All honour FusedActivation (fuse_* attrs) on Out. InferShape stores the
// GEMM plan (sizes, per-batch offsets) so kernels only loop and call Gemm.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/core/base/fused_activation.h"

namespace lite {
namespace operators {

struct MulParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  Tensor* out = nullptr;
  int x_num_col_dims = 1;
  int y_num_col_dims = 1;
  FusedActivation act;
  int64_t m = 0, k = 0, n = 0;  // set by InferShape
};

class MulOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  MulParam param_;
};

struct MatMulParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  Tensor* out = nullptr;
  bool v2 = false;
  bool trans_x = false;
  bool trans_y = false;
  float alpha = 1.f;
  FusedActivation act;
  // GEMM plan set by InferShape: per output batch, C = alpha * op(A) * op(B)
  // with A at x + x_offsets[b] (lda), B at y + y_offsets[b] (ldb), C of M x N.
  bool gemm_trans_a = false;
  bool gemm_trans_b = false;
  int64_t m = 0, k = 0, n = 0, lda = 0, ldb = 0;
  std::vector<int64_t> x_offsets;
  std::vector<int64_t> y_offsets;
};

class MatMulOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  MatMulParam param_;
};

struct FcParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* w = nullptr;
  const Tensor* bias = nullptr;  // optional
  Tensor* out = nullptr;
  int in_num_col_dims = 1;
  bool relu = false;  // activation_type "relu"
  FusedActivation act;
  int64_t m = 0, k = 0, n = 0;  // set by InferShape
};

class FcOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }
  int64_t Flops() const override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  FcParam param_;
};

}  // namespace operators
}  // namespace lite
