// Ops that write Updates into a copy of X at integer indices (float32,
// int32, int64; indices int32 or int64):
//   scatter: Ids 1-D (or [N, 1]) picks rows of X (axis 0); Updates is
//     [N] + X.dims[1:]. overwrite (default true): Out[Ids[i]] = Updates[i],
//     a later i wins; overwrite=false: every row named by Ids is zeroed first
//     and then receives the sum of its Updates (Paddle's rule).
//   scatter_nd_add: Index [..., k] (k <= rank of X) names X[Index[..., :]]
//     slices; Updates is Index.dims[:-1] + X.dims[k:];
//     Out = X, then Out[Index[i]] += Updates[i] (repeats accumulate).
// Out has X's dims and dtype. Indices outside [0, extent) are an error naming
// the op and the index, found while the kernel runs. Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ScatterParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* index = nullptr;
  const Tensor* updates = nullptr;
  Tensor* out = nullptr;
  bool overwrite = true;  // scatter
};

}  // namespace operators
}  // namespace lite
