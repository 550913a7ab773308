// Host kernels for elementwise_add/sub/mul/div/max/min/pow (float32, int32,
// int64; dispatched on X's dtype). Broadcasting uses the aligned dims that
// ElementwiseOp::InferShape stored in the param. Large outputs are split
// across the thread pool along their first non-1 dim (every element is still
// one op(x, y)).
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/kernels/host/elementwise_broadcast.h"
#include "lite/operators/elementwise_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ElementwiseKind;
using operators::ElementwiseParam;

template <typename T>
T PowOf(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(a, b);
  } else {
    // Paddle's CPU functor: std::pow on the values, truncated back to T.
    return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
  }
}

template <typename T>
Status RunTyped(const KernelContext* ctx, const ElementwiseParam& p) {
  const T* x = p.x->data<T>();
  const T* y = p.y->data<T>();
  const bool is_float = std::is_same_v<T, float>;
  if (!is_float && (p.act.enabled() || p.y_act.enabled())) {
    return Unimplemented(std::string("fused activation on ") +
                         DataTypeName(p.x->dtype()) + " elementwise op");
  }
  std::vector<T> y_activated;
  if constexpr (std::is_same_v<T, float>) {
    if (p.y_act.enabled()) {
      const int64_t n = p.y->numel();
      y_activated.resize(n);
      for (int64_t i = 0; i < n; ++i) y_activated[i] = p.y_act.Apply(y[i]);
      y = y_activated.data();
    }
  }
  if constexpr (std::is_integral_v<T>) {
    if (p.kind == ElementwiseKind::kDiv) {
      const int64_t n = p.y->numel();
      for (int64_t i = 0; i < n; ++i) {
        if (y[i] == 0) return InvalidArgument("integer division by zero in elementwise_div");
      }
    }
  }
  T* out = p.out->mutable_data<T>();
  const DDim& xd = p.x_dims;
  const DDim& yd = p.y_dims;
  const DDim& od = p.out_dims;
  switch (p.kind) {
    case ElementwiseKind::kAdd:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a + b; });
      break;
    case ElementwiseKind::kSub:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a - b; });
      break;
    case ElementwiseKind::kMul:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a * b; });
      break;
    case ElementwiseKind::kDiv:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a / b; });
      break;
    case ElementwiseKind::kMax:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a > b ? a : b; });
      break;
    case ElementwiseKind::kMin:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return a < b ? a : b; });
      break;
    case ElementwiseKind::kPow:
      ParallelBroadcast(ctx, x, y, out, xd, yd, od, [](T a, T b) { return PowOf(a, b); });
      break;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (p.act.enabled()) {
      ParallelFor(ctx, p.out->numel(), p.out->numel(), [&](int64_t b, int64_t e) {
        p.act.ApplyInPlace(out + b, e - b);
      });
    }
  }
  return Status::OK();
}

class ElementwiseCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ElementwiseParam>();
    return DispatchByDtype<false>(*p.x, p.y, "elementwise op", [&](auto zero) {
      return RunTyped<decltype(zero)>(ctx(), p);
    });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_ELEMENTWISE(op)                                           \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW,                                  \
                       lite::kernels::host::ElementwiseCompute, def)            \
      .Finalize()

LITE_REGISTER_ELEMENTWISE(elementwise_add);
LITE_REGISTER_ELEMENTWISE(elementwise_sub);
LITE_REGISTER_ELEMENTWISE(elementwise_mul);
LITE_REGISTER_ELEMENTWISE(elementwise_div);
LITE_REGISTER_ELEMENTWISE(elementwise_max);
LITE_REGISTER_ELEMENTWISE(elementwise_min);
LITE_REGISTER_ELEMENTWISE(elementwise_pow);
