// arm layer_norm (float32): the dims before begin_norm_axis are rows, the
// rest one row of n values; each row becomes (x - mean) / sqrt(var + eps),
// times Scale[j] plus Bias[j] where given; Mean / Variance (one per row)
// written when the op has them. XNNPACK (2022) has no normalization
// operator, so this is the engine's own loop: the mean, then the population
// variance as the sum of squared deviations (no E[x^2] - mean^2
// cancellation), then one affine pass; `omp simd` loops over contiguous
// floats (NEON on aarch64; the sums' order is fixed by the vector width, so
// a build gives the same result every run). Registered at layout NCHW: every
// rank is read row-major (SVTR's attention blocks in PP-OCRv4 rec are rank 3,
// [1, 76, 120] rows of 120), so layout_cast_pass inserts no casts between it
// and the neighbouring fc / add kernels.
#include <cmath>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/norm_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class LayerNormCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::LayerNormParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(What() + ": float32 X only, got " + DataTypeName(p.x->dtype()));
    }
    const DDim& d = p.x->dims();
    int64_t rows = 1, n = 1;
    for (int i = 0; i < static_cast<int>(d.size()); ++i) {
      (i < p.begin_norm_axis ? rows : n) *= d[i];
    }
    const float* x = p.x->data<float>();
    float* y = p.y->mutable_data<float>();
    const float* scale = p.scale ? p.scale->data<float>() : nullptr;
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    float* mean_out = p.mean ? p.mean->mutable_data<float>() : nullptr;
    float* var_out = p.variance ? p.variance->mutable_data<float>() : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      const float* xr = x + r * n;
      float* yr = y + r * n;
      float sum = 0.f;
#pragma omp simd reduction(+ : sum)
      for (int64_t j = 0; j < n; ++j) sum += xr[j];
      const float mean = sum / static_cast<float>(n);
      float sq = 0.f;
#pragma omp simd reduction(+ : sq)
      for (int64_t j = 0; j < n; ++j) {
        const float dv = xr[j] - mean;
        sq += dv * dv;
      }
      const float var = sq / static_cast<float>(n);
      const float inv = 1.f / std::sqrt(var + p.epsilon);
      if (mean_out) mean_out[r] = mean;
      if (var_out) var_out[r] = var;
#pragma omp simd
      for (int64_t j = 0; j < n; ++j) {
        float v = (xr[j] - mean) * inv;
        if (scale) v *= scale[j];
        if (bias) v += bias[j];
        yr[j] = v;
      }
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(layer_norm, kARM, kFloat, kNCHW, lite::kernels::arm::LayerNormCompute, def)
    .Finalize();
