// Reductions: sum (of a list of same-shape tensors), mean (of all elements),
// reduce_sum/mean/max/min/prod over a dim list, and arg_max / arg_min.
//
// Reduced-to-nothing outputs are [1] (Paddle before 0-D tensors), or rank
// ones with keep_dim. reduce_*: "dim" (negative counts from the end; empty
// means all), keep_dim, reduce_all, optional out_dtype (Paddle VarType code,
// -1 = X's dtype). arg_max: axis, keepdims, flatten, dtype 3 (int64, also
// -1) or 2 (int32). sum's Out keeps the LoD its inputs agree on (inputs
// with different LoDs are an error).
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SumParam : OpParam {
  std::vector<const Tensor*> xs;
  Tensor* out = nullptr;
};

struct MeanParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
};

enum class ReduceKind { kSum, kMean, kMax, kMin, kProd };

struct ReduceParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  ReduceKind kind = ReduceKind::kSum;
  std::vector<int64_t> dims;  // as given ("dim")
  bool keep_dim = false;
  bool reduce_all = false;
  DataType out_dtype = DataType::kUnknown;  // kUnknown: X's dtype
  // Set by InferShape: reduced[i] for each dim of X.
  std::vector<bool> reduced;
};

struct ArgMaxParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int64_t axis = 0;
  bool keepdims = false;
  bool flatten = false;
  DataType out_dtype = DataType::kInt64;
  bool find_min = false;  // arg_min
  // Set by InferShape: X viewed as [outer, n, inner] around the axis.
  int64_t outer = 1, n = 1, inner = 1;
};

}  // namespace operators
}  // namespace lite
