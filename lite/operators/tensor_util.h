// Small helpers for ops whose attributes may also arrive as tensors (reshape's
// Shape/ShapeTensor, slice's StartsTensor, interpolate's OutSize, ...), for
// dtype-agnostic byte copies and for the XShape output of the *2 ops.
//
// Readers accept int32 or int64 (and, for ReadFloatTensor, float32/float64)
// host tensors and return the values widened, or a Status naming `what` when
// the tensor is unset, empty where a value is required, or of another type.
// Pure functions; nothing is owned or cached.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/utils/status.h"

namespace lite {
namespace operators {

// All elements of an int32/int64 tensor.
inline StatusOr<std::vector<int64_t>> ReadIntTensor(const Tensor& t,
                                                    const std::string& what) {
  const int64_t n = t.numel();
  if (n < 0) return InvalidArgument(what + ": tensor has unknown dims");
  if (n > 0 && !t.raw_data()) {
    return FailedPrecondition(what + ": tensor has no data yet");
  }
  std::vector<int64_t> out(static_cast<size_t>(n));
  if (t.dtype() == DataType::kInt32) {
    const int32_t* p = t.data<int32_t>();
    for (int64_t i = 0; i < n; ++i) out[i] = p[i];
  } else if (t.dtype() == DataType::kInt64) {
    const int64_t* p = t.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) out[i] = p[i];
  } else {
    return InvalidArgument(what + ": expected an int32 or int64 tensor, got " +
                           DataTypeName(t.dtype()));
  }
  return out;
}

// One value from each tensor of a list of 1-element int32/int64 tensors.
inline StatusOr<std::vector<int64_t>> ReadIntTensorList(
    const std::vector<const Tensor*>& ts, const std::string& what) {
  std::vector<int64_t> out;
  out.reserve(ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string item = what + "[" + std::to_string(i) + "]";
    ASSIGN_OR_RETURN(std::vector<int64_t> v, ReadIntTensor(*ts[i], item));
    if (v.size() != 1) {
      return InvalidArgument(item + ": expected a 1-element tensor, got " +
                             DimsToString(ts[i]->dims()));
    }
    out.push_back(v[0]);
  }
  return out;
}

// All elements of a float32/float64/int32/int64 tensor, as float.
inline StatusOr<std::vector<float>> ReadFloatTensor(const Tensor& t,
                                                    const std::string& what) {
  const int64_t n = t.numel();
  if (n < 0) return InvalidArgument(what + ": tensor has unknown dims");
  if (n > 0 && !t.raw_data()) {
    return FailedPrecondition(what + ": tensor has no data yet");
  }
  std::vector<float> out(static_cast<size_t>(n));
  switch (t.dtype()) {
    case DataType::kFloat32: {
      const float* p = t.data<float>();
      for (int64_t i = 0; i < n; ++i) out[i] = p[i];
      break;
    }
    case DataType::kFloat64: {
      const double* p = t.data<double>();
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(p[i]);
      break;
    }
    case DataType::kInt32: {
      const int32_t* p = t.data<int32_t>();
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(p[i]);
      break;
    }
    case DataType::kInt64: {
      const int64_t* p = t.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(p[i]);
      break;
    }
    default:
      return InvalidArgument(what + ": expected a numeric tensor, got " +
                             DataTypeName(t.dtype()));
  }
  return out;
}

// Normalizes `axis` (negative counts from the end) into [0, rank); the error
// names `what`.
inline StatusOr<int> NormalizeAxis(int64_t axis, int64_t rank,
                                   const std::string& what) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) {
    return InvalidArgument(what + " " + std::to_string(axis) +
                           " is out of range for rank " + std::to_string(rank));
  }
  return static_cast<int>(a);
}

// Copies x's bytes into out (already resized to the same numel), keeping x's
// dtype. A no-op when both already share one buffer.
inline Status CopyTensorBytes(const Tensor& x, Tensor* out) {
  if (out->numel() != x.numel()) {
    return Internal("copy between tensors of different sizes " +
                    DimsToString(x.dims()) + " and " +
                    DimsToString(out->dims()));
  }
  void* dst = out->mutable_data(x.dtype());
  const size_t bytes = x.memory_size();
  if (bytes == 0) return Status::OK();
  if (!x.raw_data()) return FailedPrecondition("input tensor has no data");
  if (dst != x.raw_data()) std::memcpy(dst, x.raw_data(), bytes);
  return Status::OK();
}

// Sizes the optional XShape output (reshape2, transpose2, ...) of an op on
// `x` to [0] + x.dims, with x's dtype and no data. Does nothing for nullptr.
inline void SetXShape(const Tensor& x, Tensor* xshape) {
  if (!xshape) return;
  DDim xs{0};
  xs.insert(xs.end(), x.dims().begin(), x.dims().end());
  xshape->Resize(xs);
  xshape->set_dtype(x.dtype());
}

}  // namespace operators
}  // namespace lite
