// Host kernel for fill_any_like and fill_zeros_like (fill_like_ops.h); the
// batch_size_like form runs fill_constant's kernel (shape_compute.cc).
#include "lite/core/kernel.h"
#include "lite/kernels/host/fill_util.h"
#include "lite/operators/fill_like_ops.h"

namespace lite {
namespace kernels {
namespace host {

class FillAnyLikeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::FillAnyLikeParam>();
    p.out->Resize(p.x->dims());
    const DataType t = p.dtype == DataType::kUnknown ? p.x->dtype() : p.dtype;
    return FillAs(p.out, t, p.value, static_cast<int64_t>(p.value), false);
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(fill_any_like, kHost, kAny, kNCHW, lite::kernels::host::FillAnyLikeCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(fill_zeros_like, kHost, kAny, kNCHW, lite::kernels::host::FillAnyLikeCompute,
                     def)
    .Finalize();
