// Ops that copy a strided window of X (any dtype; the kernel copies bytes):
//   strided_slice: Input[starts:ends:strides] along `axes`, Python slicing
//     rules per axis (negative starts/ends count from the end, then clamp to
//     [0, dim] for a positive stride and [-1, dim - 1] for a negative one;
//     count = ceil(|end - start| / |stride|) or 0). starts / ends / strides
//     come from <Name>Tensor > <Name>TensorList > attribute. A zero stride is
//     an error. decrease_axis drops those dims (each must be 1; dropping
//     every dim gives [1]).
//   crop: Out = X[offsets : offsets + shape], shape from Y's dims or the
//     `shape` attr, offsets from the Offsets tensor or the `offsets` attr
//     (default 0).
//   crop_tensor: the same, shape from Shape > ShapeTensor (list) > attr,
//     offsets from Offsets > OffsetsTensor (list) > attr; a shape entry of -1
//     means "the rest of X after the offset".
// A window reaching outside X is an error naming the op. ComputeWindow() is
// shared by InferShape and the kernel, which re-evaluates it every run (the
// tensors can change value with unchanged dims). Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct WindowParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  bool strided = false;               // strided_slice; else crop(_tensor)
  const Tensor* reference = nullptr;  // crop's Y
  // strided_slice: axes, starts, ends, strides; crop(_tensor): offsets in
  // `starts`, shape in `ends`.
  std::vector<int64_t> axes;
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> strides;
  std::vector<int64_t> decrease_axis;
  const Tensor* starts_tensor = nullptr;
  const Tensor* ends_tensor = nullptr;
  const Tensor* strides_tensor = nullptr;
  std::vector<const Tensor*> starts_list;
  std::vector<const Tensor*> ends_list;
  std::vector<const Tensor*> strides_list;
};

// The resolved window: per input dim, the first index, the step and the count.
struct StridedWindow {
  std::vector<int64_t> begin;
  std::vector<int64_t> step;
  DDim dims;      // per input dim
  DDim out_dims;  // after decrease_axis
};

// A strided_slice window when p.strided, else a crop window. `op` is the op
// type; errors name it.
StatusOr<StridedWindow> ComputeWindow(const std::string& op, const WindowParam& p);

}  // namespace operators
}  // namespace lite
