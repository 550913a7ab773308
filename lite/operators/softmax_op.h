// softmax and log_softmax along one axis (default -1, any axis, negative
// counts from the end). Out has X's dims and LoD; kernels subtract the
// per-slice maximum for numerical stability.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SoftmaxParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int axis = -1;         // as given in the attribute
  bool log = false;      // log_softmax
  // Set by InferShape from X's dims and axis: outer x n x inner.
  int64_t outer = 1;
  int64_t n = 1;
  int64_t inner = 1;
};

}  // namespace operators
}  // namespace lite
