// Host fp32 kernels for nearest/bilinear interpolation (v1 and v2), NCHW.
// Index and weight arithmetic mirrors Paddle's CPU kernel term by term
// (including its float/double promotions) so results match bit for bit.
// With a thread pool the planes are split across threads.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/interpolate_op.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

void Nearest(const KernelContext* ctx, const float* x, float* y,
             const operators::InterpolatePlan& pl, bool align_corners) {
  const int in_h = static_cast<int>(pl.in_h), in_w = static_cast<int>(pl.in_w);
  const int out_h = static_cast<int>(pl.out_h), out_w = static_cast<int>(pl.out_w);
  std::vector<int> ix(out_w);
  for (int l = 0; l < out_w; ++l) {
    ix[l] = operators::NearestSourceIndex(pl.ratio_w, l, in_w, align_corners);
  }
  const int64_t planes = pl.n * pl.c;
  ParallelFor(ctx, planes, planes * out_h * out_w, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float* src = x + p * in_h * in_w;
      float* dst = y + p * out_h * out_w;
      int prev_iy = -1;
      for (int k = 0; k < out_h; ++k) {
        const int iy = operators::NearestSourceIndex(pl.ratio_h, k, in_h, align_corners);
        float* out_row = dst + static_cast<int64_t>(k) * out_w;
        if (iy == prev_iy) {  // upsampling: same source row as the last one
          std::memcpy(out_row, out_row - out_w, sizeof(float) * out_w);
          continue;
        }
        const float* row = src + static_cast<int64_t>(iy) * in_w;
        for (int l = 0; l < out_w; ++l) out_row[l] = row[ix[l]];
        prev_iy = iy;
      }
    }
  });
}

void Bilinear(const KernelContext* ctx, const float* x, float* y,
              const operators::InterpolatePlan& pl, bool align_corners, int align_mode) {
  const int in_h = static_cast<int>(pl.in_h), in_w = static_cast<int>(pl.in_w);
  const int out_h = static_cast<int>(pl.out_h), out_w = static_cast<int>(pl.out_w);
  const bool align_flag = align_mode == 0 && !align_corners;
  const operators::LinearAxis ay = operators::ComputeLinearAxis(pl.ratio_h, in_h, out_h, align_flag);
  const operators::LinearAxis ax = operators::ComputeLinearAxis(pl.ratio_w, in_w, out_w, align_flag);
  const int64_t planes = pl.n * pl.c;
  ParallelFor(ctx, planes, planes * out_h * out_w * 4, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const float* src = x + p * in_h * in_w;
      float* dst = y + p * out_h * out_w;
      for (int k = 0; k < out_h; ++k) {
        const float* rn = src + static_cast<int64_t>(ay.lo[k]) * in_w;
        const float* rs = src + static_cast<int64_t>(ay.hi[k]) * in_w;
        const float d_n = ay.w_hi[k], d_s = ay.w_lo[k];
        float* out_row = dst + static_cast<int64_t>(k) * out_w;
        for (int l = 0; l < out_w; ++l) {
          const int xw = ax.lo[l], xe = ax.hi[l];
          const float d_w = ax.w_hi[l], d_e = ax.w_lo[l];
          out_row[l] = rn[xw] * d_s * d_e + rs[xw] * d_n * d_e +
                       rn[xe] * d_s * d_w + rs[xe] * d_n * d_w;
        }
      }
    }
  });
}

}  // namespace

class InterpolateCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::InterpolateParam>();
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("interpolate on ") + DataTypeName(p.x->dtype()) +
                           " input (float32 only)");
    }
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    float* y = p.out->mutable_data<float>();
    const float* x = p.x->data<float>();
    if (p.x->numel() > 0 && !x) return FailedPrecondition("input X has no data");
    if (p.out->numel() == 0) return Status::OK();
    if (pl.in_h == pl.out_h && pl.in_w == pl.out_w) {
      std::memcpy(y, x, p.x->memory_size());
    } else if (p.interp_method == "nearest") {
      Nearest(ctx(), x, y, pl, p.align_corners);
    } else {
      Bilinear(ctx(), x, y, pl, p.align_corners, p.align_mode);
    }
    return operators::AddInterpolateResidual(p);
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_INTERP_KERNEL(op)                                        \
  REGISTER_LITE_KERNEL(op, kHost, kFloat, kNCHW,                               \
                       lite::kernels::host::InterpolateCompute, def)           \
      .BindInput("OutSize", lite::Place(TARGET(kHost), PRECISION(kInt32)))     \
      .BindInput("SizeTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))  \
      .Finalize()

LITE_REGISTER_INTERP_KERNEL(nearest_interp);
LITE_REGISTER_INTERP_KERNEL(bilinear_interp);
LITE_REGISTER_INTERP_KERNEL(nearest_interp_v2);
LITE_REGISTER_INTERP_KERNEL(bilinear_interp_v2);
