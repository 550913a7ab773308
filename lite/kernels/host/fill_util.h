// Filling a host tensor of any element type with one value, for the fill
// kernels (fill_constant and its batch_size_like form, fill_any_like,
// fill_zeros_like). The tensor must already have its dims; it is allocated
// with type `t`. Header only.
#pragma once

#include <cstdint>
#include <string>

#include "lite/base/tensor.h"
#include "lite/utils/status.h"

namespace lite {
namespace kernels {
namespace host {

template <typename T>
inline void Fill(Tensor* out, T v) {
  T* p = out->mutable_data<T>();
  const int64_t n = out->numel();
  for (int64_t i = 0; i < n; ++i) p[i] = v;
}

// Fills with `d` cast to the output type, or the exact integer `i` when
// `exact_int` (int64 outputs keep all 64 bits).
inline Status FillAs(Tensor* out, DataType t, double d, int64_t i, bool exact_int) {
  switch (t) {
    case DataType::kBool: Fill<bool>(out, static_cast<bool>(d)); break;
    case DataType::kInt8: Fill<int8_t>(out, static_cast<int8_t>(d)); break;
    case DataType::kUInt8: Fill<uint8_t>(out, static_cast<uint8_t>(d)); break;
    case DataType::kInt16: Fill<int16_t>(out, static_cast<int16_t>(d)); break;
    case DataType::kInt32: Fill<int32_t>(out, static_cast<int32_t>(d)); break;
    case DataType::kInt64:
      Fill<int64_t>(out, exact_int ? i : static_cast<int64_t>(d));
      break;
    case DataType::kFloat32: Fill<float>(out, static_cast<float>(d)); break;
    case DataType::kFloat64: Fill<double>(out, d); break;
    default:
      return Unimplemented(std::string("fill dtype ") + DataTypeName(t));
  }
  return Status::OK();
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
