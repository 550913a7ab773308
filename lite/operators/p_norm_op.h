// p_norm: the p-norm of X (float32) along `axis` (default -1), or over all
// elements with `asvector`; `keepdim` keeps the reduced dims as 1.
//   porder p (default 2): (sum |x|^p)^(1/p); inf: max |x|; -inf: min |x|;
//   0: the count of nonzero elements.
// `epsilon` only guards Paddle's gradient and plays no part in the output.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PNormParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  float porder = 2.f;
  int64_t axis = -1;
  bool keepdim = false;
  bool asvector = false;
  // Set by InferShape: X viewed as [outer, n, inner] around the axis.
  int64_t outer = 1, n = 1, inner = 1;
};

}  // namespace operators
}  // namespace lite
