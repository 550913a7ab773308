// top_k and top_k_v2: the k largest (or, with largest=false, smallest)
// elements of X along `axis` (top_k: the last axis), Out values and Indices
// (int64) with dims[axis] = k. Ties keep the lower index first; results are
// always sorted (Paddle's sorted=false leaves the order open). The K input
// (a run-time k) is refused; k above the axis extent is an error.
// float32, int32, int64.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct TopKParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* indices = nullptr;
  int64_t k = 1;
  int64_t axis = -1;  // normalized by InferShape
  bool largest = true;
};

}  // namespace operators
}  // namespace lite
