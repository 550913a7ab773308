// x86 transpose / transpose2 reading an activation as the NHWC kernels hold
// it and writing Out row-major (bound NCHW): a detection head's
// [N, C, H, W] -> [N, H, W, C] of a conv's NHWC output is then one memcpy,
// where the host kernel needed a layout cast to NCHW first and did the
// permutation itself. Any perm and rank: Out's row-major strides are
// written through the permuted source strides as a box copy
// (memory_box.h). float32 only; the host kernel (any dtype) remains the
// pick for integer inputs. XShape carries only dims.
#include <vector>

#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/base/memory_box.h"
#include "lite/operators/transpose_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class TransposeCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::TransposeParam>();
    const DDim& xd = p.x->dims();
    const int rank = static_cast<int>(xd.size());
    if (static_cast<int>(p.axis.size()) != rank) {
      return InvalidArgument("transpose: axis of " + std::to_string(p.axis.size()) +
                             " values for X " + DimsToString(xd));
    }
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("x86 transpose supports float32 only, got ") +
                           DataTypeName(p.x->dtype()));
    }
    DDim od(rank);
    for (int k = 0; k < rank; ++k) od[k] = xd[p.axis[k]];
    p.out->Resize(od);
    float* y = p.out->mutable_data<float>();
    if (p.x->numel() == 0) return Status::OK();
    // Out dim k is X dim axis[k]: its source stride is that dim's.
    const std::vector<int64_t> xs = MemoryStrides(xd, nhwc());
    std::vector<int64_t> src_strides(rank);
    for (int k = 0; k < rank; ++k) src_strides[k] = xs[p.axis[k]];
    CopyBox(reinterpret_cast<const char*>(p.x->data<float>()), src_strides,
            reinterpret_cast<char*>(y), MemoryStrides(od, false), od, sizeof(float));
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_TRANSPOSE(op)                                                      \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::TransposeCompute, def)  \
      .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))   \
      .BindOutput("XShape", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW))) \
      .Finalize()

LITE_REGISTER_X86_TRANSPOSE(transpose);
LITE_REGISTER_X86_TRANSPOSE(transpose2);
