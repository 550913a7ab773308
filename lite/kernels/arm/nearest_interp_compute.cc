// arm nearest_interp / nearest_interp_v2 (float32, NHWC): integer upscale
// factors (PP-OCR det's FPN: x2, x4, x8), where Paddle's source index
// int(ratio * o) is o / factor, copy each source pixel's channels to its
// factor x factor output pixels, rows split over the shared pthreadpool.
// XNNPACK (this version) has no nearest resize. Every other run
// (align_corners, fractional or downscaling factors, checked per run
// against the ratio the op computed) goes to the host kernel on NCHW copies
// (lite/core/host_fallback.h). With ResidualData (interp_residual_fuse_pass:
// Out = upscale(X) + R, or + R * S with a per-channel ResidualScale) the
// upscale and the add are one NHWC pass. Declines at kernel pick: NHWC
// data_layout.
#include <cstring>

#include "lite/core/host_fallback.h"
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/interpolate_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

struct UpscaleJob {
  const float* x;
  float* y;
  int64_t c, in_h, in_w, out_h, out_w, fh, fw;
  const float* r = nullptr;      // ResidualData (NHWC, Out's dims) or null
  const Tensor* scale = nullptr;  // ResidualScale or null
};

// Output row `nr` (sample n, row oy) of a job.
void UpscaleRow(void* context, size_t nr) {
  const UpscaleJob& j = *static_cast<const UpscaleJob*>(context);
  const int64_t n = static_cast<int64_t>(nr) / j.out_h, oy = static_cast<int64_t>(nr) % j.out_h;
  const float* xrow = j.x + (n * j.in_h + oy / j.fh) * j.in_w * j.c;
  float* yrow = j.y + static_cast<int64_t>(nr) * j.out_w * j.c;
  if (!j.r) {
    for (int64_t ox = 0; ox < j.out_w; ++ox) {
      std::memcpy(yrow + ox * j.c, xrow + (ox / j.fw) * j.c, sizeof(float) * j.c);
    }
    return;
  }
  const float* rrow = j.r + static_cast<int64_t>(nr) * j.out_w * j.c;
  const float* s = j.scale ? j.scale->data<float>() +
                                 operators::ResidualScaleIndex(*j.scale, n, 0, j.c)
                           : nullptr;
  for (int64_t ox = 0; ox < j.out_w; ++ox) {
    const float* xs = xrow + (ox / j.fw) * j.c;
    const float* rs = rrow + ox * j.c;
    float* ys = yrow + ox * j.c;
    if (s) {
      for (int64_t k = 0; k < j.c; ++k) ys[k] = xs[k] + rs[k] * s[k];
    } else {
      for (int64_t k = 0; k < j.c; ++k) ys[k] = xs[k] + rs[k];
    }
  }
}

class NearestCompute : public ArmKernel {
 public:
  Status Run() override {
    auto& p = Param<operators::InterpolateParam>();
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    if (p.align_corners || p.x->dims().size() != 4 || !Nhwc(*p.x) ||
        (p.residual && !Nhwc(*p.residual)) ||
        !operators::NearestIsIntegerUpscale(pl.in_h, pl.out_h, pl.ratio_h) ||
        !operators::NearestIsIntegerUpscale(pl.in_w, pl.out_w, pl.ratio_w)) {
      return RunOnHost(p);
    }
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    UpscaleJob job{p.x->data<float>(), p.out->mutable_data<float>(), pl.c, pl.in_h, pl.in_w,
                   pl.out_h, pl.out_w, pl.out_h / pl.in_h, pl.out_w / pl.in_w};
    if (p.residual) {
      if (p.residual->dims() != p.out->dims()) {
        return InvalidArgument(What() + ": ResidualData " + DimsToString(p.residual->dims()) +
                               " does not match Out " + DimsToString(p.out->dims()));
      }
      job.r = p.residual->data<float>();
      job.scale = p.residual_scale;
    }
    pthreadpool_parallelize_1d(pool(), UpscaleRow, &job, static_cast<size_t>(pl.n * pl.out_h), 0);
    return Status::OK();
  }

 private:
  // The host kernel on NCHW copies of X and Out (it resizes Out itself).
  Status RunOnHost(const operators::InterpolateParam& p) {
    nchw_param_ = p;
    nchw_param_.x = NchwInput(*p.x, &x_nchw_);
    if (p.residual) nchw_param_.residual = NchwInput(*p.residual, &r_nchw_);
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    nchw_param_.out = NchwOutput(p.out, &out_nchw_);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.out, p.out);
    return Status::OK();
  }

  operators::InterpolateParam nchw_param_;
  Tensor x_nchw_, r_nchw_, out_nchw_;
  HostFallback fallback_;
};

bool NearestAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<std::string>("data_layout", "NCHW") != "NHWC" &&
         desc.GetAttr<std::string>("interp_method", "nearest") == "nearest";
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(nearest_interp, kARM, kFloat, kNHWC, lite::kernels::arm::NearestCompute, def)
    .SetAccepts(lite::kernels::arm::NearestAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(nearest_interp_v2, kARM, kFloat, kNHWC, lite::kernels::arm::NearestCompute,
                     def)
    .SetAccepts(lite::kernels::arm::NearestAccepts)
    .Finalize();
