// Small linear-algebra ops on float32 (matmul_ops.h has the general ones):
//   dot: X and Y of one dims, 1-D [N] or 2-D [B, N]; Out = the row-wise sum
//     of X * Y, dims X.dims[:-1] (0-D for 1-D inputs, Paddle 2.5+).
//   addmm: Out [M, N] = Beta * Input + Alpha * (X [M, K] @ Y [K, N]); Input
//     is [M, N] or broadcasts to it ([N], [1, N], [M, 1], [1, 1]); attrs
//     Alpha and Beta default to 1.
//   norm: Out = X / Norm along `axis` (negative counts from the end), Norm =
//     sqrt(sum over the axis of X^2 + epsilon) (default 1e-10), Norm's dims
//     are X's with the axis 1 (an optional output).
// Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct DotParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  const Tensor* input = nullptr;  // addmm
  Tensor* out = nullptr;
  Tensor* norm = nullptr;  // norm, optional
  float alpha = 1.f;
  float beta = 1.f;
  int64_t axis = -1;       // norm, normalized by InferShape
  float epsilon = 1e-10f;  // norm
};

}  // namespace operators
}  // namespace lite
