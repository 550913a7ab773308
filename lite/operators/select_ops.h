// Ops whose output length depends on the data (the kernel sizes Out each run;
// InferShape gives a placeholder of extent 0 where the length goes):
//   masked_select: Y = the elements of X where Mask (bool, X's dims) is true,
//     in row-major order, 1-D [K]; any dtype of X.
//   where_index: Out int64 [K, rank(Condition)], the coordinates of the
//     non-zero elements of Condition (bool, int32, int64 or float32) in
//     row-major order (Paddle's nonzero).
// Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SelectParam : OpParam {
  const Tensor* x = nullptr;  // masked_select X, where_index Condition
  const Tensor* mask = nullptr;
  Tensor* out = nullptr;
};

}  // namespace operators
}  // namespace lite
