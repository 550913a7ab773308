// arm slice (float32, any axes, decrease_axis): the resolved window
// (operators::ComputeSlice, evaluated every run since StartsTensor /
// EndsTensor values can change) is copied from Input, read through its
// row-major strides from the window's first element, densely into Out
// (CopyBox, lite/base/memory_box.h; a dim decrease_axis drops has extent 1,
// so Out's dense order is the window's). SVTR's attention blocks slice q, k
// and v out of one [3, N, heads, T, d] tensor. Registered at layout NCHW,
// like its neighbours there; the host kernel remains the pick for integer
// inputs (shape vectors: shape -> slice -> fill_constant / reshape), which
// the float registration declines.
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/base/memory_box.h"
#include "lite/operators/slice_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class SliceCompute : public ArmKernel {
 public:
  Status Run() override {
    auto& p = Param<operators::SliceParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(What() + ": float32 only, got " + DataTypeName(p.x->dtype()));
    }
    ASSIGN_OR_RETURN(operators::SliceWindow w, operators::ComputeSlice(p));
    p.out->Resize(w.out_dims);
    char* dst = reinterpret_cast<char*>(p.out->mutable_data<float>());
    const std::vector<int64_t> strides = MemoryStrides(p.x->dims(), /*nhwc=*/false);
    int64_t offset = 0;
    for (size_t k = 0; k < strides.size(); ++k) offset += w.begin[k] * strides[k];
    const char* src = reinterpret_cast<const char*>(p.x->data<float>() + offset);
    CopyBox(src, strides, dst, MemoryStrides(w.sliced_dims, /*nhwc=*/false), w.sliced_dims,
            sizeof(float));
    return Status::OK();
  }
};

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(slice, kARM, kFloat, kNCHW, lite::kernels::arm::SliceCompute, def)
    .BindInput("StartsTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("EndsTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("StartsTensorList", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("EndsTensorList", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
