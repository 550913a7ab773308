// Tensor arrays (a LOD_TENSOR_ARRAY var: the Variable's tensor list):
//   write_to_array: Out[I] = X, the array growing to I + 1 when shorter;
//   read_from_array: Out = X[I] (an error when I is past the end);
//   lod_array_length: Out = the array's length (int64, dims [1]).
// I is one int32/int64 element. The arrays live in the scope like any var
// (an array written in a loop's sub-block is declared in an outer block);
// elements are deep copies. Owned by the control-flow work (issue 29).
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct TensorArrayParam : OpParam {
  const Tensor* x = nullptr;     // write_to_array
  const Tensor* index = nullptr; // write_to_array, read_from_array
  Variable* array = nullptr;     // the array read or written
  Tensor* out = nullptr;         // read_from_array, lod_array_length
};

}  // namespace operators
}  // namespace lite
