// Bitwise ops on bool and integer tensors (int8, uint8, int16, int32,
// int64): bitwise_and / bitwise_or / bitwise_xor (X, Y) broadcast like the
// logical ops (trailing dims aligned, Paddle's axis -1 rule), bitwise_not
// (X). Out has X's dtype (for bool: the logical result); X and Y must share
// it. Float tensors are refused by name. Out keeps X's LoD.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class BitwiseKind { kAnd, kOr, kXor, kNot };

struct BitwiseParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;  // null for bitwise_not
  Tensor* out = nullptr;
  BitwiseKind kind = BitwiseKind::kAnd;
  // Filled by InferShape for binary kinds: dims aligned to the output rank.
  DDim x_dims;
  DDim y_dims;
  DDim out_dims;
};

}  // namespace operators
}  // namespace lite
