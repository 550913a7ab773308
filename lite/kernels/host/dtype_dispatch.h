// Dtype dispatch for host kernels of binary ops: checks that X and Y (when
// given) share a dtype, then calls run(T()) with T the C++ type of X's
// dtype: float, int32_t, int64_t, and bool when kWithBool. Other dtypes are
// Unimplemented naming `what`. Header only; nothing is owned.
#pragma once

#include <cstdint>
#include <string>

#include "lite/base/tensor.h"
#include "lite/utils/status.h"

namespace lite {
namespace kernels {
namespace host {

template <bool kWithBool, typename F>
Status DispatchByDtype(const Tensor& x, const Tensor* y, const std::string& what, F run) {
  if (y && x.dtype() != y->dtype()) {
    return InvalidArgument(what + ": X is " + DataTypeName(x.dtype()) + " but Y is " +
                           DataTypeName(y->dtype()));
  }
  switch (x.dtype()) {
    case DataType::kFloat32: return run(float());
    case DataType::kInt32: return run(int32_t());
    case DataType::kInt64: return run(int64_t());
    case DataType::kBool:
      if constexpr (kWithBool) return run(bool());
      break;
    default:
      break;
  }
  return Unimplemented(what + " on " + DataTypeName(x.dtype()) + " tensors");
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
