// conv3d: Output = conv(Input, Filter) over NCDHW.
//
// Input [N, C, D, H, W] (NCDHW / AnyLayout only), Filter
// [M, C / groups, kd, kh, kw], Output [N, M, od, oh, ow] with Paddle's
// attributes: strides (3), paddings (3 values, or 6: [front, back, top,
// bottom, left, right]), dilations (3), groups, padding_algorithm
// (EXPLICIT / SAME / VALID; SAME resets dilations to 1). Output sizes per
// dim: (in + p0 + p1 - (d*(k-1)+1)) / s + 1. InferShape resolves the
// effective paddings and dilations for the current input into the param.
// The ResidualData input (a fusion's) is refused by name.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct Conv3dParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* filter = nullptr;
  Tensor* output = nullptr;
  std::vector<int> strides{1, 1, 1};
  std::vector<int> paddings{0, 0, 0, 0, 0, 0};  // attribute, as begin/end pairs
  std::vector<int> dilations{1, 1, 1};
  int groups = 1;
  std::string padding_algorithm = "EXPLICIT";

  // Resolved by InferShape for the current input dims.
  std::vector<int> eff_paddings{0, 0, 0, 0, 0, 0};
  std::vector<int> eff_dilations{1, 1, 1};
};

}  // namespace operators
}  // namespace lite
