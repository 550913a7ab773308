// Ops that reorder or accumulate X along axes, and range:
//   cumsum: running sum along `axis` (default -1; `flatten`: over all
//     elements, Out 1-D), `exclusive` (each sum leaves its own element out),
//     `reverse` (from the end); float32, int32, int64;
//   flip: X reversed along each of `axis` (negative counts from the end);
//   roll: X shifted cyclically by `shifts[i]` along `axis[i]`, or over the
//     flattened elements when `axis` is empty (dims kept); the ShiftsTensor
//     form is refused;
//   range: Out = Start, Start + Step, ... while < End (> End for a negative
//     Step), 1-D; Start/End/Step one element each, float32, int32 or int64.
//     Its length depends on values, so the kernel sizes Out each run;
//     InferShape gives -1 while the values are not known yet.
// flip and roll copy bytes (any dtype). Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ArrayParam : OpParam {
  const Tensor* x = nullptr;  // range: Start
  const Tensor* end = nullptr;
  const Tensor* step = nullptr;
  Tensor* out = nullptr;
  std::vector<int64_t> axes;    // flip, roll, cumsum (one); normalized by InferShape
  std::vector<int64_t> shifts;  // roll
  bool flatten = false;         // cumsum
  bool exclusive = false;
  bool reverse = false;
};

// The length of range(start, end, step); InvalidArgument for a zero step.
StatusOr<int64_t> RangeLength(double start, double end, double step, bool integral);
// RangeLength of the values of three one-element tensors of one dtype.
StatusOr<int64_t> RangeOf(const Tensor& start, const Tensor& end, const Tensor& step);

}  // namespace operators
}  // namespace lite
