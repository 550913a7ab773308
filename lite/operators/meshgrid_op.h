// meshgrid: X is a list of k 1-D tensors (a 0-D one counts as length 1) of
// one dtype; Out is a list of k tensors of dims [n0, ..., nk-1] where
// Out[i][j0, ..., jk-1] = X[i][ji] (Paddle's "ij" indexing). Any dtype (the
// kernel copies bytes). Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct MeshgridParam : OpParam {
  std::vector<const Tensor*> xs;
  std::vector<Tensor*> outs;
};

}  // namespace operators
}  // namespace lite
