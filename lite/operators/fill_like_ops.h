// Fill ops whose output shape comes from another tensor:
//   fill_constant_batch_size_like: Out = fill_constant with attr `shape`
//     where shape[output_dim_idx] = Input.dims[input_dim_idx] (the sequence
//     count when Input carries a LoD and input_dim_idx is 0); value, str_value
//     and dtype as fill_constant (shape_ops.h), whose param and kernel it uses.
//   fill_any_like: Out with X's dims filled with `value`, dtype `dtype`
//     (-1: X's dtype); fill_zeros_like: the same with 0 and X's dtype.
// X / Input data are never read.
#pragma once

#include "lite/core/op_lite.h"
#include "lite/operators/shape_ops.h"

namespace lite {
namespace operators {

struct FillAnyLikeParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  DataType dtype = DataType::kUnknown;  // kUnknown: X's dtype
  double value = 0.0;
};

}  // namespace operators
}  // namespace lite
