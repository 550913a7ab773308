// pad (the legacy N-D constant pad): Out = X with paddings[2*i] values
// before and paddings[2*i + 1] after dim i, filled with pad_value (cast to
// X's dtype; any dtype). paddings holds 2 * rank(X) values, each >= 0
// (Paddle's PadInferMeta). A -1 (unknown) X dim stays -1. pad2d / pad3d
// (spatial, with modes) are pad_ops.h.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PadNdParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  std::vector<int> paddings;  // [before0, after0, before1, after1, ...]
  float pad_value = 0.f;
};

}  // namespace operators
}  // namespace lite
