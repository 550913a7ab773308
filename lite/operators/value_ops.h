// Ops that build a tensor from values rather than from an input tensor:
//   assign_value: Out of dims `shape` and Paddle dtype code `dtype` (bool 0,
//     int32 2, int64 3, float32 5, float64 6) holding the attribute list of
//     that type: bool_values, int32_values, int64_values, fp32_values or
//     fp64_values; the count must equal the product of shape.
//   linspace: Out [Num] of `dtype` (float32, float64, int32, int64) evenly
//     spaced from Start to Stop inclusive (one-element tensors; Num int32 or
//     int64, > 0). Paddle's rule: step = (Stop - Start) / (Num - 1); the first
//     half counts up from Start, the rest down from Stop; integer outputs
//     truncate Start and Stop first and then each value. Num == 1 gives [Start]. Out's length is Num's value, so
//     InferShape gives [-1] while Num has no data yet and the kernel sizes Out.
// Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ValueParam : OpParam {
  Tensor* out = nullptr;
  DataType dtype = DataType::kFloat32;
  // assign_value: the values, widened (int64 kept exact).
  DDim shape;
  std::vector<double> values;
  std::vector<int64_t> int_values;
  // linspace
  const Tensor* start = nullptr;
  const Tensor* stop = nullptr;
  const Tensor* num = nullptr;
};

}  // namespace operators
}  // namespace lite
