// Host kernels for the comparison and logical ops of logic_ops.h: one kernel
// class dispatching on X's dtype (float32, int32, int64, bool) and the kind;
// binary kinds run the shared broadcast loop with a bool output.
#include <string>

#include "lite/core/kernel.h"
#include "lite/kernels/host/dtype_dispatch.h"
#include "lite/kernels/host/elementwise_broadcast.h"
#include "lite/operators/logic_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::LogicKind;
using operators::LogicParam;

template <typename T>
void RunBinary(const KernelContext* ctx, const LogicParam& p, const T* x, const T* y,
               bool* out) {
  auto run = [&](auto op) {
    ParallelBroadcast(ctx, x, y, out, p.x_dims, p.y_dims, p.out_dims, op);
  };
  switch (p.kind) {
    case LogicKind::kEqual: run([](T a, T b) { return a == b; }); break;
    case LogicKind::kNotEqual: run([](T a, T b) { return a != b; }); break;
    case LogicKind::kLessThan: run([](T a, T b) { return a < b; }); break;
    case LogicKind::kLessEqual: run([](T a, T b) { return a <= b; }); break;
    case LogicKind::kGreaterThan: run([](T a, T b) { return a > b; }); break;
    case LogicKind::kGreaterEqual: run([](T a, T b) { return a >= b; }); break;
    case LogicKind::kAnd: run([](T a, T b) { return a != T(0) && b != T(0); }); break;
    case LogicKind::kOr: run([](T a, T b) { return a != T(0) || b != T(0); }); break;
    case LogicKind::kXor: run([](T a, T b) { return (a != T(0)) != (b != T(0)); }); break;
    case LogicKind::kNot: break;
  }
}

template <typename T>
Status RunTyped(const KernelContext* ctx, const LogicParam& p) {
  const T* x = p.x->data<T>();
  bool* out = p.out->mutable_data<bool>();
  if (p.kind == LogicKind::kNot) {
    const int64_t n = p.x->numel();
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] == T(0);
    return Status::OK();
  }
  RunBinary(ctx, p, x, p.y->data<T>(), out);
  return Status::OK();
}

class LogicCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<LogicParam>();
    return DispatchByDtype<true>(*p.x, p.y, "comparison/logical op", [&](auto zero) {
      return RunTyped<decltype(zero)>(ctx(), p);
    });
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_LOGIC(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::LogicCompute, def) \
      .Finalize()

LITE_REGISTER_LOGIC(equal);
LITE_REGISTER_LOGIC(not_equal);
LITE_REGISTER_LOGIC(less_than);
LITE_REGISTER_LOGIC(less_equal);
LITE_REGISTER_LOGIC(greater_than);
LITE_REGISTER_LOGIC(greater_equal);
LITE_REGISTER_LOGIC(logical_and);
LITE_REGISTER_LOGIC(logical_or);
LITE_REGISTER_LOGIC(logical_xor);
LITE_REGISTER_LOGIC(logical_not);
