// Per-channel ops on float32 X [N, C, ...]:
//   group_norm: the C channels split into `groups` (C % groups == 0); each
//     (n, group) normalised over its channels and spatial dims,
//     Y = (x - mean) / sqrt(var + epsilon) * Scale[c] + Bias[c] (Scale / Bias
//     optional; epsilon default 1e-5, population variance). Optional Mean and
//     Variance [N, groups]. data_layout NCHW only (NHWC is Unimplemented).
//   affine_channel: Out = X * Scale[c] + Bias[c] (Scale and Bias [C]), the
//     channel on dim 1 (data_layout NCHW, the default, or AnyLayout) or last
//     (NHWC).
// Owned by lite/operators.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ChannelParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // optional for group_norm
  const Tensor* bias = nullptr;   // optional for group_norm
  Tensor* out = nullptr;
  Tensor* mean = nullptr;      // group_norm, optional
  Tensor* variance = nullptr;  // group_norm, optional
  int groups = 1;
  float epsilon = 1e-5f;
  bool channel_last = false;
};

}  // namespace operators
}  // namespace lite
