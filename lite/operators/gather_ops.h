// Ops that pick elements of X by integer indices (any dtype of X; the
// kernels copy bytes; indices int32 or int64):
//   gather (axis attr, default 0; the Axis tensor form is refused) and
//   index_select (dim attr, negative counts from the end): Out = X with
//     dims[axis] replaced by Index.numel(), Out[.., i, ..] = X[.., Index[i], ..];
//   gather_nd: Index [..., k] (k <= rank of X) picks X[Index[..., :]] slices:
//     Out.dims = Index.dims[:-1] + X.dims[k:];
//   where: Out = Condition ? X : Y, all three of one dims (Condition bool).
// Indices outside [0, extent) are an error naming the op and the index, found
// while the kernel runs (the values are data). Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct GatherParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* index = nullptr;
  const Tensor* condition = nullptr;  // where
  const Tensor* y = nullptr;          // where
  Tensor* out = nullptr;
  int64_t axis = 0;                   // gather, index_select (normalized by InferShape)
};

}  // namespace operators
}  // namespace lite
