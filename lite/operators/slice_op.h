// slice: Out = Input[starts:ends] along `axes` (Paddle semantics), any dtype.
//
// starts/ends come from StartsTensor (1-D int) > StartsTensorList (1-element
// int tensors) > attr, likewise for ends. Negative values count from the end;
// values are then clamped to [0, dim]; end < start after clamping is an error
// (Paddle), end == start gives an empty axis. decrease_axis drops those dims
// (each must be 1); dropping every dim gives [1]. infer_flags only matter for
// compile-time inference in Paddle and are ignored at run time.
// ComputeSlice() is shared by InferShape and the kernel, which re-evaluates it
// every run (the start/end tensors can change value with unchanged dims).
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SliceParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  std::vector<int64_t> axes;
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> decrease_axis;
  std::vector<int64_t> infer_flags;
  const Tensor* starts_tensor = nullptr;
  const Tensor* ends_tensor = nullptr;
  std::vector<const Tensor*> starts_tensor_list;
  std::vector<const Tensor*> ends_tensor_list;
};

// The resolved slice: per input dim, the first index taken and the count.
struct SliceWindow {
  std::vector<int64_t> begin;  // size rank(Input)
  DDim sliced_dims;            // size rank(Input)
  DDim out_dims;               // after decrease_axis
};

StatusOr<SliceWindow> ComputeSlice(const SliceParam& p);

}  // namespace operators
}  // namespace lite
