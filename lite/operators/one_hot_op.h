// one_hot and one_hot_v2: Out[..., X[...]] = 1, zeros elsewhere; X int32 or
// int64. one_hot_v2: Out = X's dims + [depth]; one_hot (v1): X is [..., 1]
// (rank >= 2) and Out replaces that last 1 by depth. The depth is the
// attribute `depth`, or the optional one-element int32/int64 input
// depth_tensor (read at run time; the kernel re-resizes Out, so a changed
// value takes effect). `dtype` (Paddle VarType code, default 5: float32)
// picks Out's type. An index outside [0, depth) is an error, or an all-zero
// row with allow_out_of_range.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct OneHotParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* depth_tensor = nullptr;  // optional, overrides `depth`
  Tensor* out = nullptr;
  int64_t depth = 0;
  DataType dtype = DataType::kFloat32;
  bool allow_out_of_range = false;
  bool v1 = false;  // one_hot: X's last dim (1) becomes depth
};

// The depth in effect (depth_tensor when bound, else the attribute) and
// the output dims for it; errors name `op_name`.
StatusOr<int64_t> ResolveOneHotDepth(const OneHotParam& p, const std::string& op_name);
DDim OneHotDims(const OneHotParam& p, int64_t depth);

}  // namespace operators
}  // namespace lite
