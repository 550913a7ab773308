// Host kernels for scale (float32/int32/int64), dropout (float32), cast (any
// supported pair of element types) and clip (float32/int32/int64). Kernels
// that serve several dtypes are registered with precision kAny and dispatch on
// X's dtype.
#include <cstring>
#include <limits>

#include "lite/core/kernel.h"
#include "lite/operators/scale_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::CastParam;
using operators::ClipParam;
using operators::DropoutParam;
using operators::ScaleParam;

// Reads element 0 of a one-element tensor of any numeric dtype as double.
StatusOr<double> ScalarOf(const Tensor& t, const char* what) {
  if (t.numel() != 1) {
    return InvalidArgument(std::string(what) + " must hold one element, has dims " +
                           DimsToString(t.dims()));
  }
  switch (t.dtype()) {
    case DataType::kFloat32: return static_cast<double>(t.data<float>()[0]);
    case DataType::kFloat64: return t.data<double>()[0];
    case DataType::kInt32: return static_cast<double>(t.data<int32_t>()[0]);
    case DataType::kInt64: return static_cast<double>(t.data<int64_t>()[0]);
    default:
      return Unimplemented(std::string(what) + " of dtype " + DataTypeName(t.dtype()));
  }
}

template <typename T>
void ScaleTyped(const ScaleParam& p, float scale_f) {
  const T s = static_cast<T>(scale_f);
  const T b = static_cast<T>(p.bias);
  const T* x = p.x->data<T>();
  T* y = p.out->mutable_data<T>();
  const int64_t n = p.x->numel();
  if (p.bias_after_scale) {
    for (int64_t i = 0; i < n; ++i) y[i] = s * x[i] + b;
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = s * (x[i] + b);
  }
}

class ScaleCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ScaleParam>();
    float scale = p.scale;
    if (p.scale_tensor) {
      ASSIGN_OR_RETURN(double s, ScalarOf(*p.scale_tensor, "scale: ScaleTensor"));
      scale = static_cast<float>(s);
    }
    switch (p.x->dtype()) {
      case DataType::kFloat32:
        ScaleTyped<float>(p, scale);
        p.act.ApplyInPlace(p.out->mutable_data<float>(), p.out->numel());
        return Status::OK();
      case DataType::kInt32:
      case DataType::kInt64:
        if (p.act.enabled()) {
          return Unimplemented("scale: fused activation on integer input");
        }
        if (p.x->dtype() == DataType::kInt32) {
          ScaleTyped<int32_t>(p, scale);
        } else {
          ScaleTyped<int64_t>(p, scale);
        }
        return Status::OK();
      default:
        return Unimplemented(std::string("scale on ") + DataTypeName(p.x->dtype()));
    }
  }
};

class DropoutCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<DropoutParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("dropout on ") + DataTypeName(p.x->dtype()));
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t n = p.x->numel();
    if (p.upscale_in_train) {
      if (y != x) std::memcpy(y, x, n * sizeof(float));
    } else {
      const float k = 1.f - p.dropout_prob;
      for (int64_t i = 0; i < n; ++i) y[i] = x[i] * k;
    }
    return Status::OK();
  }
};

template <typename To, typename From>
To Convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else {
    return static_cast<To>(v);
  }
}

template <typename From, typename To>
void CastLoop(const Tensor& x, Tensor* out) {
  const From* in = x.data<From>();
  To* o = out->mutable_data<To>();
  const int64_t n = x.numel();
  for (int64_t i = 0; i < n; ++i) o[i] = Convert<To>(in[i]);
}

template <typename From>
Status CastFrom(const Tensor& x, DataType to, Tensor* out) {
  switch (to) {
    case DataType::kBool: CastLoop<From, bool>(x, out); break;
    case DataType::kInt8: CastLoop<From, int8_t>(x, out); break;
    case DataType::kUInt8: CastLoop<From, uint8_t>(x, out); break;
    case DataType::kInt16: CastLoop<From, int16_t>(x, out); break;
    case DataType::kInt32: CastLoop<From, int32_t>(x, out); break;
    case DataType::kInt64: CastLoop<From, int64_t>(x, out); break;
    case DataType::kFloat32: CastLoop<From, float>(x, out); break;
    case DataType::kFloat64: CastLoop<From, double>(x, out); break;
    default:
      return Unimplemented(std::string("cast to ") + DataTypeName(to));
  }
  return Status::OK();
}

class CastCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<CastParam>();
    const Tensor& x = *p.x;
    if (p.out == p.x && x.dtype() != p.out_dtype) {
      return Unimplemented("cast: in-place cast between different dtypes");
    }
    switch (x.dtype()) {
      case DataType::kBool: return CastFrom<bool>(x, p.out_dtype, p.out);
      case DataType::kInt8: return CastFrom<int8_t>(x, p.out_dtype, p.out);
      case DataType::kUInt8: return CastFrom<uint8_t>(x, p.out_dtype, p.out);
      case DataType::kInt16: return CastFrom<int16_t>(x, p.out_dtype, p.out);
      case DataType::kInt32: return CastFrom<int32_t>(x, p.out_dtype, p.out);
      case DataType::kInt64: return CastFrom<int64_t>(x, p.out_dtype, p.out);
      case DataType::kFloat32: return CastFrom<float>(x, p.out_dtype, p.out);
      case DataType::kFloat64: return CastFrom<double>(x, p.out_dtype, p.out);
      default:
        return Unimplemented(std::string("cast from ") + DataTypeName(x.dtype()));
    }
  }
};

// double -> T, saturating at T's range (the attrs default to +-FLT_MAX).
template <typename T>
T Saturate(double v) {
  if (v <= static_cast<double>(std::numeric_limits<T>::lowest())) {
    return std::numeric_limits<T>::lowest();
  }
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(v);
}

template <typename T>
Status ClipTyped(const ClipParam& p, double lo, double hi) {
  const T mn = Saturate<T>(lo);
  const T mx = Saturate<T>(hi);
  const T* x = p.x->data<T>();
  T* y = p.out->mutable_data<T>();
  const int64_t n = p.x->numel();
  for (int64_t i = 0; i < n; ++i) {
    const T v = x[i];
    y[i] = v < mn ? mn : (v > mx ? mx : v);
  }
  return Status::OK();
}

class ClipCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ClipParam>();
    double lo = p.min, hi = p.max;
    if (p.min_tensor) {
      ASSIGN_OR_RETURN(lo, ScalarOf(*p.min_tensor, "clip: Min"));
    }
    if (p.max_tensor) {
      ASSIGN_OR_RETURN(hi, ScalarOf(*p.max_tensor, "clip: Max"));
    }
    if (lo > hi) {
      return InvalidArgument("clip: max (" + std::to_string(hi) + ") must be >= min (" +
                             std::to_string(lo) + ")");
    }
    switch (p.x->dtype()) {
      case DataType::kFloat32: return ClipTyped<float>(p, lo, hi);
      case DataType::kInt32: return ClipTyped<int32_t>(p, lo, hi);
      case DataType::kInt64: return ClipTyped<int64_t>(p, lo, hi);
      default:
        return Unimplemented(std::string("clip on ") + DataTypeName(p.x->dtype()));
    }
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(scale, kHost, kAny, kNCHW, lite::kernels::host::ScaleCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(dropout, kHost, kFloat, kNCHW, lite::kernels::host::DropoutCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(cast, kHost, kAny, kNCHW, lite::kernels::host::CastCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(clip, kHost, kAny, kNCHW, lite::kernels::host::ClipCompute, def)
    .Finalize();
