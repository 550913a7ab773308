// transpose and transpose2: Out = X with its dims permuted by attr `axis`
// (Out.dims[i] = X.dims[axis[i]]; negative entries count from the end).
// transpose2 also has an XShape output ([0] + X.dims, no data). Any dtype.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct TransposeParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* xshape = nullptr;  // optional (transpose2)
  std::vector<int> axis;     // normalized to [0, rank) by CheckShape/InferShape
};

}  // namespace operators
}  // namespace lite
