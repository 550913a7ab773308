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
//
// int8 form of fc, mul, matmul and matmul_v2 (set by quant_dequant_fuse_pass;
// the attribute names of conv's int8 form, conv_op.h): `enable_int8` true,
// the weight (W of fc, Y of the others: constant, 2-D [K, N], no transpose)
// holds int8 levels, `Filter_scales` one per column n (the weight's value is
// level * Filter_scales[n] / 127), `Input_scale` (the float input is
// quantized to levels with it by `quant_round_type`'s rule, quant_math.h).
// Out = act(alpha * sum_k(level_x * level_w) * Input_scale / 127 *
// Filter_scales[n] / 127 + Bias), float32.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace operators {

// The int8 form above, as parsed and checked at attach.
struct MatMulInt8Form {
  bool enabled = false;  // enable_int8
  float input_scale = 0.f;
  std::vector<float> filter_scales;  // one per column N of the weight
  int quant_round_type = 1;
};

// Reads the int8 form of `desc` into *form and checks it against `weight`
// (int8, 2-D, one scale per column); errors name `who`.
Status ParseMatMulInt8Form(const std::string& who, const cpp::OpDesc& desc,
                           const Tensor& weight, MatMulInt8Form* form);

struct MulParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  Tensor* out = nullptr;
  int x_num_col_dims = 1;
  int y_num_col_dims = 1;
  FusedActivation act;
  MatMulInt8Form int8;
  int64_t m = 0, k = 0, n = 0;  // set by InferShape
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
  MatMulInt8Form int8;
  // GEMM plan set by InferShape: per output batch, C = alpha * op(A) * op(B)
  // with A at x + x_offsets[b] (lda), B at y + y_offsets[b] (ldb), C of M x N.
  bool gemm_trans_a = false;
  bool gemm_trans_b = false;
  int64_t m = 0, k = 0, n = 0, lda = 0, ldb = 0;
  std::vector<int64_t> x_offsets;
  std::vector<int64_t> y_offsets;
};

struct FcParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* w = nullptr;
  const Tensor* bias = nullptr;  // optional
  Tensor* out = nullptr;
  int in_num_col_dims = 1;
  bool relu = false;  // activation_type "relu"
  FusedActivation act;
  MatMulInt8Form int8;
  int64_t m = 0, k = 0, n = 0;  // set by InferShape
};

}  // namespace operators
}  // namespace lite
