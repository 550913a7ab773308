// Host kernels for sum, mean, reduce_sum/mean/max/min/prod and arg_max.
// Multi-dtype kernels (float32/int32/int64) are registered with precision
// kAny and dispatch on X's dtype. reduce_* merges neighbouring dims that are
// all kept or all reduced, walks the outer runs with an odometer and folds the
// innermost run in a tight loop.
#include <algorithm>
#include <limits>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/reduce_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ArgMaxParam;
using operators::MeanParam;
using operators::ReduceKind;
using operators::ReduceParam;
using operators::SumParam;

// ---- sum ----

template <typename T>
void SumTyped(const std::vector<const Tensor*>& xs, Tensor* out) {
  const int64_t n = out->numel();
  std::vector<T> acc(n, T(0));
  for (const Tensor* t : xs) {
    if (t->numel() == 0) continue;
    const T* x = t->data<T>();
    for (int64_t i = 0; i < n; ++i) acc[i] += x[i];
  }
  // Accumulating aside keeps in-place sums (Out is one of X) correct.
  std::copy(acc.begin(), acc.end(), out->mutable_data<T>());
}

class SumCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<SumParam>();
    DataType dt = p.out->dtype();
    for (const Tensor* t : p.xs) {
      if (t->numel() != 0) dt = t->dtype();
    }
    switch (dt) {
      case DataType::kFloat32: SumTyped<float>(p.xs, p.out); break;
      case DataType::kInt32: SumTyped<int32_t>(p.xs, p.out); break;
      case DataType::kInt64: SumTyped<int64_t>(p.xs, p.out); break;
      default: return Unimplemented(std::string("sum on ") + DataTypeName(dt));
    }
    return Status::OK();
  }
};

// ---- mean ----

class MeanCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<MeanParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("mean on ") + DataTypeName(p.x->dtype()));
    }
    const float* x = p.x->data<float>();
    const int64_t n = p.x->numel();
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += x[i];
    p.out->mutable_data<float>()[0] =
        n == 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(s / n);
    return Status::OK();
  }
};

// ---- reduce_* ----

template <typename T>
T Identity(ReduceKind k) {
  switch (k) {
    case ReduceKind::kProd: return T(1);
    case ReduceKind::kMax:
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::lowest();
    case ReduceKind::kMin:
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                  : std::numeric_limits<T>::max();
    default: return T(0);
  }
}

struct RRun {
  int64_t size;
  bool reduced;
};

template <typename T, typename F>
void ReduceLoop(const T* x, T* out, const DDim& xd, const std::vector<bool>& red, F f) {
  std::vector<RRun> runs;
  for (size_t i = 0; i < xd.size(); ++i) {
    if (xd[i] == 1) continue;
    if (!runs.empty() && runs.back().reduced == red[i]) {
      runs.back().size *= xd[i];
    } else {
      runs.push_back({xd[i], static_cast<bool>(red[i])});
    }
  }
  if (runs.empty()) {
    out[0] = f(out[0], x[0]);
    return;
  }
  const size_t k = runs.size();
  std::vector<int64_t> ostride(k, 0);
  int64_t on = 1;
  for (size_t i = k; i-- > 0;) {
    if (!runs[i].reduced) {
      ostride[i] = on;
      on *= runs[i].size;
    }
  }
  const int64_t inner = runs[k - 1].size;
  const bool inner_reduced = runs[k - 1].reduced;
  int64_t outer = 1;
  for (size_t i = 0; i + 1 < k; ++i) outer *= runs[i].size;
  std::vector<int64_t> idx(k, 0);
  int64_t oo = 0;
  for (int64_t o = 0; o < outer; ++o) {
    const T* xp = x + o * inner;
    if (inner_reduced) {
      T acc = out[oo];
      for (int64_t j = 0; j < inner; ++j) acc = f(acc, xp[j]);
      out[oo] = acc;
    } else {
      T* op = out + oo;
      for (int64_t j = 0; j < inner; ++j) op[j] = f(op[j], xp[j]);
    }
    for (size_t d = k - 1; d-- > 0;) {
      ++idx[d];
      oo += ostride[d];
      if (idx[d] < runs[d].size) break;
      oo -= ostride[d] * runs[d].size;
      idx[d] = 0;
    }
  }
}

template <typename T>
void ReduceTyped(const ReduceParam& p, const T* x, T* out) {
  const int64_t on = p.out->numel();
  std::fill(out, out + on, Identity<T>(p.kind));
  const DDim& xd = p.x->dims();
  if (p.x->numel() > 0) {
    switch (p.kind) {
      case ReduceKind::kSum:
      case ReduceKind::kMean:
        ReduceLoop(x, out, xd, p.reduced, [](T a, T b) { return a + b; });
        break;
      case ReduceKind::kProd:
        ReduceLoop(x, out, xd, p.reduced, [](T a, T b) { return a * b; });
        break;
      case ReduceKind::kMax:
        ReduceLoop(x, out, xd, p.reduced, [](T a, T b) { return b > a ? b : a; });
        break;
      case ReduceKind::kMin:
        ReduceLoop(x, out, xd, p.reduced, [](T a, T b) { return b < a ? b : a; });
        break;
    }
  }
  if (p.kind == ReduceKind::kMean) {
    int64_t count = 1;
    for (size_t i = 0; i < xd.size(); ++i) {
      if (p.reduced[i]) count *= xd[i];
    }
    for (int64_t i = 0; i < on; ++i) {
      if (count == 0) {
        out[i] = std::numeric_limits<T>::has_quiet_NaN ? std::numeric_limits<T>::quiet_NaN()
                                                       : T(0);
      } else {
        out[i] = static_cast<T>(out[i] / static_cast<T>(count));
      }
    }
  }
}

// Runs the reduction in TOut, converting X's elements first when needed.
template <typename TOut>
Status ReduceAs(const ReduceParam& p) {
  const Tensor& x = *p.x;
  const int64_t n = x.numel();
  std::vector<TOut> converted;
  const TOut* src = nullptr;
  if (x.dtype() == DataTypeOf<TOut>()) {
    src = x.data<TOut>();
  } else {
    converted.resize(n);
    switch (x.dtype()) {
      case DataType::kBool: {
        const bool* b = x.data<bool>();
        for (int64_t i = 0; i < n; ++i) converted[i] = b[i] ? TOut(1) : TOut(0);
        break;
      }
      case DataType::kInt32: {
        const int32_t* b = x.data<int32_t>();
        for (int64_t i = 0; i < n; ++i) converted[i] = static_cast<TOut>(b[i]);
        break;
      }
      case DataType::kInt64: {
        const int64_t* b = x.data<int64_t>();
        for (int64_t i = 0; i < n; ++i) converted[i] = static_cast<TOut>(b[i]);
        break;
      }
      case DataType::kFloat32: {
        const float* b = x.data<float>();
        for (int64_t i = 0; i < n; ++i) converted[i] = static_cast<TOut>(b[i]);
        break;
      }
      default:
        return Unimplemented(std::string("reduce on ") + DataTypeName(x.dtype()));
    }
    src = converted.data();
  }
  ReduceTyped<TOut>(p, src, p.out->mutable_data<TOut>());
  return Status::OK();
}

class ReduceCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ReduceParam>();
    const DataType out =
        p.out_dtype == DataType::kUnknown ? p.x->dtype() : p.out_dtype;
    switch (out) {
      case DataType::kFloat32: return ReduceAs<float>(p);
      case DataType::kInt32: return ReduceAs<int32_t>(p);
      case DataType::kInt64: return ReduceAs<int64_t>(p);
      default:
        return Unimplemented(std::string("reduce producing ") + DataTypeName(out));
    }
  }
};

// ---- arg_max ----

template <typename TIn, typename TOut>
void ArgMaxTyped(const ArgMaxParam& p) {
  const TIn* x = p.x->data<TIn>();
  TOut* out = p.out->mutable_data<TOut>();
  const int64_t n = p.n, inner = p.inner;
  for (int64_t o = 0; o < p.outer; ++o) {
    const TIn* xb = x + o * n * inner;
    for (int64_t k = 0; k < inner; ++k) {
      int64_t best = 0;
      TIn bv = xb[k];
      for (int64_t j = 1; j < n; ++j) {
        const TIn v = xb[j * inner + k];
        if (p.find_min ? v < bv : v > bv) {  // the first extremum wins ties
          bv = v;
          best = j;
        }
      }
      out[o * inner + k] = static_cast<TOut>(best);
    }
  }
}

template <typename TOut>
Status ArgMaxOut(const ArgMaxParam& p) {
  switch (p.x->dtype()) {
    case DataType::kFloat32: ArgMaxTyped<float, TOut>(p); break;
    case DataType::kInt32: ArgMaxTyped<int32_t, TOut>(p); break;
    case DataType::kInt64: ArgMaxTyped<int64_t, TOut>(p); break;
    case DataType::kUInt8: ArgMaxTyped<uint8_t, TOut>(p); break;
    default:
      return Unimplemented(std::string(p.find_min ? "arg_min" : "arg_max") + " on " +
                           DataTypeName(p.x->dtype()));
  }
  return Status::OK();
}

class ArgMaxCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ArgMaxParam>();
    if (p.out_dtype == DataType::kInt32) return ArgMaxOut<int32_t>(p);
    return ArgMaxOut<int64_t>(p);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(sum, kHost, kAny, kNCHW, lite::kernels::host::SumCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(mean, kHost, kFloat, kNCHW, lite::kernels::host::MeanCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(reduce_sum, kHost, kAny, kNCHW, lite::kernels::host::ReduceCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(reduce_mean, kHost, kAny, kNCHW, lite::kernels::host::ReduceCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(reduce_max, kHost, kAny, kNCHW, lite::kernels::host::ReduceCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(reduce_min, kHost, kAny, kNCHW, lite::kernels::host::ReduceCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(reduce_prod, kHost, kAny, kNCHW, lite::kernels::host::ReduceCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(arg_max, kHost, kAny, kNCHW, lite::kernels::host::ArgMaxCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(arg_min, kHost, kAny, kNCHW, lite::kernels::host::ArgMaxCompute, def)
    .Finalize();
