// Host kernel for the bitwise ops (bitwise_ops.h): dispatches on X's dtype;
// the binary kinds run the shared broadcast loop. For bool, and / or / xor
// / not are the logical ones (Paddle's semantics, not ~ on the byte).
#include <cstdint>
#include <string>

#include "lite/core/kernel.h"
#include "lite/kernels/host/elementwise_broadcast.h"
#include "lite/operators/bitwise_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::BitwiseKind;
using operators::BitwiseParam;

template <typename T>
Status RunTyped(const KernelContext* ctx, const BitwiseParam& p) {
  const T* x = p.x->data<T>();
  T* out = p.out->mutable_data<T>();
  if (p.kind == BitwiseKind::kNot) {
    const int64_t n = p.x->numel();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same<T, bool>::value) {
        out[i] = !x[i];
      } else {
        out[i] = static_cast<T>(~x[i]);
      }
    }
    return Status::OK();
  }
  const T* y = p.y->data<T>();
  auto run = [&](auto op) {
    ParallelBroadcast(ctx, x, y, out, p.x_dims, p.y_dims, p.out_dims, op);
  };
  switch (p.kind) {
    case BitwiseKind::kAnd: run([](T a, T b) { return static_cast<T>(a & b); }); break;
    case BitwiseKind::kOr: run([](T a, T b) { return static_cast<T>(a | b); }); break;
    case BitwiseKind::kXor: run([](T a, T b) { return static_cast<T>(a ^ b); }); break;
    case BitwiseKind::kNot: break;
  }
  return Status::OK();
}

class BitwiseCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<BitwiseParam>();
    switch (p.x->dtype()) {
      case DataType::kBool: return RunTyped<bool>(ctx(), p);
      case DataType::kInt8: return RunTyped<int8_t>(ctx(), p);
      case DataType::kUInt8: return RunTyped<uint8_t>(ctx(), p);
      case DataType::kInt16: return RunTyped<int16_t>(ctx(), p);
      case DataType::kInt32: return RunTyped<int32_t>(ctx(), p);
      case DataType::kInt64: return RunTyped<int64_t>(ctx(), p);
      default:
        return Unimplemented(std::string("bitwise op on ") + DataTypeName(p.x->dtype()) +
                             " tensors");
    }
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_BITWISE(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::BitwiseCompute, def) \
      .Finalize()

LITE_REGISTER_BITWISE(bitwise_and);
LITE_REGISTER_BITWISE(bitwise_or);
LITE_REGISTER_BITWISE(bitwise_xor);
LITE_REGISTER_BITWISE(bitwise_not);
