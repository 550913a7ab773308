// Data-preserving shape ops: reshape/reshape2, flatten/flatten2,
// flatten_contiguous_range, squeeze/squeeze2 and unsqueeze/unsqueeze2.
//
// Out holds X's elements unchanged (any dtype) under new dims; the "2"
// variants (and flatten_contiguous_range) also have an XShape output with dims
// [0] + X.dims and no data. One op class serves all of them; the param's
// `kind` says which shape rule applies. Output dims can depend on tensor
// values (Shape, ShapeTensor, AxesTensor...), so ComputeReshapeOutDims() is
// shared by InferShape and the kernel, which re-evaluates it every run.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class ReshapeKind { kReshape, kFlatten, kFlattenRange, kSqueeze, kUnsqueeze };

struct ReshapeParam : OpParam {
  ReshapeKind kind = ReshapeKind::kReshape;
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* xshape = nullptr;  // optional
  // reshape: attr `shape` (0 copies the input dim, one -1 is inferred);
  // ShapeTensor (list of 1-element int tensors) > Shape (1-D int) > attr.
  std::vector<int64_t> shape;
  const Tensor* shape_tensor = nullptr;
  std::vector<const Tensor*> shape_tensor_list;
  // flatten/flatten2: axis in [0, rank].
  int axis = 1;
  // flatten_contiguous_range.
  int start_axis = 1;
  int stop_axis = -1;
  // squeeze/unsqueeze: attr `axes`; unsqueeze also AxesTensor > AxesTensorList.
  std::vector<int64_t> axes;
  const Tensor* axes_tensor = nullptr;
  std::vector<const Tensor*> axes_tensor_list;
};

// Paddle's shape rule for `p.kind` applied to p.x's current dims (and current
// values of any shape/axes tensors).
StatusOr<DDim> ComputeReshapeOutDims(const ReshapeParam& p);

}  // namespace operators
}  // namespace lite
