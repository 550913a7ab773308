// Comparison and logical ops, all writing a bool Out:
//   equal, not_equal, less_than, less_equal, greater_than, greater_equal
//     Out = X <op> Y (float32, int32, int64 or bool; X and Y of one dtype);
//   logical_and, logical_or, logical_xor
//     Out = bool(X) <op> bool(Y) (any of those dtypes, nonzero is true);
//   logical_not
//     Out = !bool(X), same dims as X.
// The binary ones broadcast like the elementwise ops (Paddle's `axis` rule,
// ElementwiseBroadcastDims; logical ops always align trailing dims) and
// their InferShape stores the aligned dims for the kernel. Out keeps X's LoD.
// Paddle's `force_cpu` attribute asks for what the host kernel does anyway.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class LogicKind {
  kEqual, kNotEqual, kLessThan, kLessEqual, kGreaterThan, kGreaterEqual,
  kAnd, kOr, kXor, kNot,
};

struct LogicParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;  // null for logical_not
  Tensor* out = nullptr;
  LogicKind kind = LogicKind::kEqual;
  int axis = -1;
  // Filled by InferShape for binary kinds: dims aligned to the output rank.
  DDim x_dims;
  DDim y_dims;
  DDim out_dims;
};

}  // namespace operators
}  // namespace lite
