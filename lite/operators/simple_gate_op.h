// simple_gate: NAFNet's SimpleGate in one op, made by simple_gate_fuse_pass
// from split(X, num 2, axis) whose two halves only an elementwise_mul reads:
//   Out = X[first half along axis] * X[second half along axis]
// Out has X's dims with dims[axis] halved (it must be even). The halves are
// never written: a kernel reads X once and writes Out.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SimpleGateParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int axis = 1;  // normalized to [0, rank) by InferShape
};

}  // namespace operators
}  // namespace lite
