// x86 bilinear_interp(_v2) on an NHWC activation, to sizes known only at
// run time (OutSize, SizeTensor, Scale: operators::ComputeInterpolatePlan
// is evaluated every run). Registered at layout NHWC, so a segmentation
// head's upsampling between x86 ops needs no layout cast. Each output
// pixel blends the channel runs of its four source pixels, with the
// indices and weights Paddle's CPU kernel computes
// (operators::ComputeLinearAxis, shared with the host kernel; every
// align_corners / align_mode), vectorised over C. Rows are split over the
// predictor's threads. A ResidualData input (interp_residual_fuse_pass) is
// added in the same pass, scaled per channel when ResidualScale is given.
#include <cstring>
#include <string>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/interpolate_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class BilinearCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::InterpolateParam>();
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    if (p.x->dtype() != DataType::kFloat32 || p.x->dims().size() != 4) {
      return Unimplemented("x86 bilinear_interp takes a rank-4 float32 X, got " +
                           std::string(DataTypeName(p.x->dtype())) + " " +
                           DimsToString(p.x->dims()));
    }
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    if (p.residual && (p.residual->dims() != p.out->dims() ||
                       p.residual->dtype() != DataType::kFloat32)) {
      return InvalidArgument("bilinear_interp: ResidualData " + DimsToString(p.residual->dims()) +
                             " does not match Out " + DimsToString(p.out->dims()));
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    if (p.out->numel() == 0) return Status::OK();
    const int in_h = static_cast<int>(pl.in_h), in_w = static_cast<int>(pl.in_w);
    const int out_h = static_cast<int>(pl.out_h), out_w = static_cast<int>(pl.out_w);
    const int64_t c = pl.c;
    const bool same = in_h == out_h && in_w == out_w;  // a copy, as on host
    const bool align_flag = p.align_mode == 0 && !p.align_corners;
    const operators::LinearAxis ay = operators::ComputeLinearAxis(pl.ratio_h, in_h, out_h, align_flag);
    const operators::LinearAxis ax = operators::ComputeLinearAxis(pl.ratio_w, in_w, out_w, align_flag);
    const float* res = p.residual ? p.residual->data<float>() : nullptr;
    const float* sc = p.residual_scale ? p.residual_scale->data<float>() : nullptr;
    const int64_t rows = pl.n * out_h, row_size = out_w * c;
    lite::x86::OmpForRanges(threads(), rows, p.out->numel() * 4, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t b = r / out_h, k = r % out_h;
        float* o = y + r * row_size;
        if (same) {
          std::memcpy(o, x + r * row_size, row_size * sizeof(float));
        } else {
          const float* rn = x + (b * in_h + ay.lo[k]) * in_w * c;
          const float* rs = x + (b * in_h + ay.hi[k]) * in_w * c;
          const float d_n = ay.w_hi[k], d_s = ay.w_lo[k];
          for (int l = 0; l < out_w; ++l) {
            const int64_t pw = ax.lo[l] * c, pe = ax.hi[l] * c;
            const float d_w = ax.w_hi[l], d_e = ax.w_lo[l];
            const float w_nw = d_s * d_e, w_sw = d_n * d_e, w_ne = d_s * d_w, w_se = d_n * d_w;
            float* ol = o + l * c;
#pragma omp simd
            for (int64_t i = 0; i < c; ++i) {
              ol[i] = rn[pw + i] * w_nw + rs[pw + i] * w_sw + rn[pe + i] * w_ne + rs[pe + i] * w_se;
            }
          }
        }
        if (!res) continue;
        const float* rr = res + r * row_size;
        const float* scn =
            sc ? sc + operators::ResidualScaleIndex(*p.residual_scale, b, 0, c) : nullptr;
        for (int l = 0; l < out_w; ++l) {
          float* ol = o + l * c;
          const float* rl = rr + l * c;
          if (scn) {
#pragma omp simd
            for (int64_t i = 0; i < c; ++i) ol[i] += rl[i] * scn[i];
          } else {
#pragma omp simd
            for (int64_t i = 0; i < c; ++i) ol[i] += rl[i];
          }
        }
      }
    });
    return Status::OK();
  }
};

// The op's interp_method (an attribute the op type only defaults) is
// bilinear; a bilinear_interp asking for nearest stays on host.
bool BilinearAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<std::string>("interp_method", "bilinear") == "bilinear";
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_BILINEAR(op)                                                     \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::BilinearCompute, def) \
      .BindInput("OutSize", lite::Place(TARGET(kHost), PRECISION(kInt32)))                \
      .BindInput("SizeTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))             \
      .BindInput("Scale", lite::Place(TARGET(kHost), PRECISION(kFloat)))                  \
      .SetAccepts(lite::kernels::x86::BilinearAccepts)                                     \
      .Finalize()

LITE_REGISTER_X86_BILINEAR(bilinear_interp);
LITE_REGISTER_X86_BILINEAR(bilinear_interp_v2);
