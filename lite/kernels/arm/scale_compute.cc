// arm scale (float32): Out = scale * X + bias, or scale * (X + bias) when
// bias_after_scale is false, then the fused activation (FusedActivation) in
// place; one `omp simd` loop over contiguous floats (NEON on aarch64).
// Element-wise, so any layout is read as it lies; registered at layout NCHW
// like its neighbours in SVTR's attention blocks (q scaled before q k^T).
// Declined at kernel pick: ScaleTensor (a run-time scale; the host kernel
// reads it). The host kernel remains the pick for integer inputs.
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/scale_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class ScaleCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::ScaleParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(What() + ": float32 only, got " + DataTypeName(p.x->dtype()));
    }
    const float s = p.scale, b = p.bias;
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t n = p.x->numel();
    if (p.bias_after_scale) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) y[i] = s * x[i] + b;
    } else {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) y[i] = s * (x[i] + b);
    }
    p.act.ApplyInPlace(y, n);
    return Status::OK();
  }
};

bool ScaleAccepts(const cpp::OpDesc& desc) {
  return !desc.HasInput("ScaleTensor") && operators::FusedActivation::FromOpDesc(desc).ok();
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(scale, kARM, kFloat, kNCHW, lite::kernels::arm::ScaleCompute, def)
    .SetAccepts(lite::kernels::arm::ScaleAccepts)
    .Finalize();
