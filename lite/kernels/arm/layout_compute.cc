// arm kernels of the `layout` op (inserted by layout_cast_pass between arm
// NHWC kernels and NCHW ones): rank-4 float or int32 tensors are permuted
// between NCHW and NHWC element order, any other rank or type is copied
// (NHWC means plain order there). Aliases name the direction; the
// registered layout is the output's.
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/io_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

template <bool kToNhwc>
class LayoutCompute : public ArmKernel {
 public:
  Status Run() override {
    auto& p = Param<operators::IoCopyParam>();
    const DDim& d = p.x->dims();
    const DataType t = p.x->dtype();
    if (d.size() != 4 || (t != DataType::kFloat32 && t != DataType::kInt32)) {
      p.out->CopyDataFrom(*p.x);
      return Status::OK();
    }
    p.out->Resize(d);
    PermuteNchw(p.x->raw_data(), p.out->mutable_data(t), d[0], d[1], d[2] * d[3], kToNhwc);
    return Status::OK();
  }
};

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

using ArmLayoutToNhwc = lite::kernels::arm::LayoutCompute<true>;
using ArmLayoutToNchw = lite::kernels::arm::LayoutCompute<false>;
REGISTER_LITE_KERNEL(layout, kARM, kFloat, kNHWC, ArmLayoutToNhwc, nchw_to_nhwc).Finalize();
REGISTER_LITE_KERNEL(layout, kARM, kFloat, kNCHW, ArmLayoutToNchw, nhwc_to_nchw).Finalize();
