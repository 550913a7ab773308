// arm transpose / transpose2 (float32, any rank and perm): Out dim k is X
// dim axis[k], so Out is X read through X's permuted row-major strides and
// written densely (CopyBox, lite/base/memory_box.h). XNNPACK's 2022 API has
// no transpose operator. Registered at layout NCHW like its neighbours in
// SVTR's attention blocks (flatten, layer_norm, fc, matmul: rank 3 and 5
// tensors read row-major), so layout_cast_pass adds no casts around it; a
// rank-4 Out feeding an NHWC conv gets the one cast it had with the host
// kernel. XShape carries only dims. The host kernel (any dtype) remains
// the pick for integer inputs.
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/base/memory_box.h"
#include "lite/operators/transpose_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class TransposeCompute : public ArmKernel {
 public:
  Status Run() override {
    auto& p = Param<operators::TransposeParam>();
    const DDim& xd = p.x->dims();
    const int rank = static_cast<int>(xd.size());
    if (static_cast<int>(p.axis.size()) != rank) {
      return InvalidArgument(What() + ": axis of " + std::to_string(p.axis.size()) +
                             " values for X " + DimsToString(xd));
    }
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(What() + ": float32 only, got " + DataTypeName(p.x->dtype()));
    }
    const std::vector<int64_t> xs = MemoryStrides(xd, /*nhwc=*/false);
    DDim od(rank);
    std::vector<int64_t> src_strides(rank);
    for (int k = 0; k < rank; ++k) {
      od[k] = xd[p.axis[k]];
      src_strides[k] = xs[p.axis[k]];
    }
    p.out->Resize(od);
    char* y = reinterpret_cast<char*>(p.out->mutable_data<float>());
    CopyBox(reinterpret_cast<const char*>(p.x->data<float>()), src_strides, y,
            MemoryStrides(od, /*nhwc=*/false), od, sizeof(float));
    return Status::OK();
  }
};

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(transpose, kARM, kFloat, kNCHW, lite::kernels::arm::TransposeCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(transpose2, kARM, kFloat, kNCHW, lite::kernels::arm::TransposeCompute, def)
    .Finalize();
