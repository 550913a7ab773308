// Ops that repeat X along its dims (any dtype; the kernel copies bytes):
//   tile (repeat_times), expand (expand_times): Out.dims[i] =
//     X.dims[i] * repeats[i], X's dims left-padded with 1 to the repeats'
//     rank (and the repeats with 1 to X's);
//   expand_v2 (shape): X broadcast to `shape` aligned right, -1 keeping X's
//     dim; every X dim must be 1 or equal to the target;
//   expand_as_v2 (target_shape, or Y's dims when Y is given): the same;
//   expand_as (v1, input target_tensor): X tiled to target_tensor's dims,
//     same rank, every target dim a multiple of X's (Paddle's expand_as).
// InferShape turns each form into per-dim repeats of the rank-aligned X.
// expand_v2 also takes its target shape at run time, as dynamic-batch exports
// write `x.expand((paddle.shape(y)[0], -1, -1))`: one int tensor `Shape`, or
// `expand_shapes_tensor`, one 1-element int tensor per dim (attribute shape
// then holds -2 where a tensor gives the value); tile and expand take their
// repeats the same ways (RepeatTimes / repeat_times_tensor, ExpandTimes /
// expand_times_tensor). The tensors win over the attribute; the kernel
// re-resolves them each run (TileShape), since their values change while
// their dims do not.
// A -1 (unknown) X dim stays -1.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct TileParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;      // expand_as_v2's Y / expand_as's target_tensor
  Tensor* out = nullptr;
  std::vector<int64_t> attr;      // repeat_times / expand_times / shape / target_shape
  bool repeat_form = false;       // tile / expand: `attr` holds repeats
  // The run-time target shape or repeats (expand_v2: Shape, else
  // expand_shapes_tensor; tile: RepeatTimes, else repeat_times_tensor;
  // expand: ExpandTimes, else expand_times_tensor), and the input's name.
  const Tensor* shape_tensor = nullptr;
  std::vector<const Tensor*> shape_tensor_list;
  const char* shape_tensor_name = "";
  // Filled by InferShape: X's dims aligned to the output rank, and repeats.
  DDim x_dims;
  std::vector<int64_t> repeats;
};

// The run-time target shape (when the tensor forms are given) or `attr`,
// then out's dims, x_dims and repeats; InvalidArgument when X does not
// expand to it. Not for expand_as (its dims come from target_tensor).
Status TileShape(TileParam* p);

}  // namespace operators
}  // namespace lite
