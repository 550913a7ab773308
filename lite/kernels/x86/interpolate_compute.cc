// x86 nearest_interp(_v2) on oneDNN's resampling primitive, where oneDNN's
// nearest rule (source index round((o + 0.5) * in / out - 0.5)) picks the
// same pixels as Paddle's (int(ratio * o), align_corners false): integer
// upscale factors, checked per run against the ratio the op computed (a
// scale attribute can drive the ratio apart from the sizes). Any other run
// (align_corners, fractional or downscaling factors) goes to the host kernel
// on NCHW copies. Bilinear stays on host. Registered at layout NHWC. With a
// ResidualData input (interp_residual_fuse_pass) the integer upscale and
// the add are one NHWC loop; with InterpolateParam::levels
// (int8_requantize_pass, registered as kInt8 "levels_out") each output row
// is summed in a per-thread float buffer and quantized into Out by the int8
// readers' own rule (operators/quant_math.h), the float32 sum never written.
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/core/host_fallback.h"
#include "lite/operators/interpolate_op.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class NearestCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::InterpolateParam>();
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    if (p.align_corners || p.x->dtype() != DataType::kFloat32 || p.x->dims().size() != 4 ||
        !operators::NearestIsIntegerUpscale(pl.in_h, pl.out_h, pl.ratio_h) ||
        !operators::NearestIsIntegerUpscale(pl.in_w, pl.out_w, pl.ratio_w)) {
      if (p.levels.enabled) {
        return Unimplemented("x86 nearest_interp writing int8 levels needs a float rank-4 X, "
                             "an integer upscale and align_corners false");
      }
      return RunOnHost(p);
    }
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    const auto src = Desc(*p.x), dst = Desc(*p.out);
    if (p.residual) return UpscaleAdd(p, pl);
    if (p.x->dims() != in_dims_ || p.out->dims() != out_dims_) {
      dnnl::resampling_forward::desc d(dnnl::prop_kind::forward_inference,
                                       dnnl::algorithm::resampling_nearest, src, dst);
      resample_ = dnnl::resampling_forward(
          dnnl::resampling_forward::primitive_desc(d, lite::x86::CpuEngine()));
      in_dims_ = p.x->dims();
      out_dims_ = p.out->dims();
    }
    Execute(resample_, {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, src, p.x->data<float>())},
                        {DNNL_ARG_DST, Mem(DNNL_ARG_DST, dst, p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  // Out = upscale(X) + ResidualData [* ResidualScale] in one pass, NHWC
  // (integer factors): each output pixel's channels are its source pixel's
  // plus the residual's (scaled per channel).
  // oneDNN's resampling with a binary post-op falls back to a reference
  // implementation (70 ms on det's 96 x 160 x 160), hence this loop.
  Status UpscaleAdd(const operators::InterpolateParam& p, const operators::InterpolatePlan& pl) {
    if (p.residual->dims() != p.out->dims() || Desc(*p.residual) != Desc(*p.out) ||
        Desc(*p.x) != lite::x86::NhwcDesc(p.x->dims())) {
      return InvalidArgument("nearest_interp: ResidualData " + DimsToString(p.residual->dims()) +
                             " does not match Out " + DimsToString(p.out->dims()));
    }
    const int64_t c = pl.c, fh = pl.out_h / pl.in_h, fw = pl.out_w / pl.in_w;
    const float* x = p.x->data<float>();
    const float* r = p.residual->data<float>();
    const float* sc = p.residual_scale ? p.residual_scale->data<float>() : nullptr;
    const bool levels = p.levels.enabled;
    float* y = levels ? nullptr : p.out->mutable_data<float>();
    int8_t* y_levels = levels ? p.out->mutable_data<int8_t>() : nullptr;
    const int64_t rows = pl.n * pl.out_h, row_size = pl.out_w * c;
    // OpenMP like the oneDNN primitives around it (see dnnl_util.h).
    lite::x86::OmpForRangesIf(true, threads(), rows, [&](int64_t nr0, int64_t nr1) {
      for (int64_t nr = nr0; nr < nr1; ++nr) {
        const int64_t n = nr / pl.out_h, oy = nr % pl.out_h;
        const float* xrow = x + (n * pl.in_h + oy / fh) * pl.in_w * c;
        const int64_t row = (n * pl.out_h + oy) * row_size;
        float* yrow = levels ? RowBuffer(row_size) : y + row;
        for (int64_t ox = 0; ox < pl.out_w; ++ox) {
          const float* xs = xrow + (ox / fw) * c;
          const float* rs = r + row + ox * c;
          float* ys = yrow + ox * c;
          if (sc) {
            const float* scn = sc + operators::ResidualScaleIndex(*p.residual_scale, n, 0, c);
#pragma omp simd
            for (int64_t k = 0; k < c; ++k) ys[k] = xs[k] + rs[k] * scn[k];
          } else {
#pragma omp simd
            for (int64_t k = 0; k < c; ++k) ys[k] = xs[k] + rs[k];
          }
        }
        if (levels) {
          operators::quant::QuantizeToInt8(yrow, y_levels + row, row_size, p.levels.scale, 127,
                                           p.levels.round_type);
        }
      }
    });
    return Status::OK();
  }

  // One output row in float on this thread, before it is quantized.
  static float* RowBuffer(int64_t n) {
    thread_local std::vector<float> buffer;
    if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(n);
    return buffer.data();
  }

  // The host kernel on NCHW views of X, ResidualData and Out (it resizes
  // Out itself).
  Status RunOnHost(const operators::InterpolateParam& p) {
    nchw_param_ = p;
    nchw_param_.x = NchwInput(*p.x);
    if (p.residual) nchw_param_.residual = NchwInput(*p.residual);
    ASSIGN_OR_RETURN(operators::InterpolatePlan pl, operators::ComputeInterpolatePlan(p));
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    nchw_param_.out = NchwOutput(p.out);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.out, p.out);
    return Status::OK();
  }

  DDim in_dims_, out_dims_;
  dnnl::resampling_forward resample_;
  operators::InterpolateParam nchw_param_;
  HostFallback fallback_;
};

// int8_requantize_pass's form: an upscale + residual add writing levels.
bool NearestLevelsAccepts(const cpp::OpDesc& desc) {
  return desc.HasInput("ResidualData") && desc.GetAttr<bool>("enable_int8", false) &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "int8";
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_X86_NEAREST(op)                                                        \
  REGISTER_LITE_KERNEL(op, kX86, kFloat, kNHWC, lite::kernels::x86::NearestCompute, def)     \
      .BindInput("OutSize", lite::Place(TARGET(kHost), PRECISION(kInt32)))                  \
      .BindInput("SizeTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))               \
      .Finalize()

LITE_REGISTER_X86_NEAREST(nearest_interp);
LITE_REGISTER_X86_NEAREST(nearest_interp_v2);
REGISTER_LITE_KERNEL(nearest_interp_v2, kX86, kInt8, kNHWC, lite::kernels::x86::NearestCompute,
                     levels_out)
    .BindInput("X", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ResidualData", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("ResidualScale", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))
    .BindInput("OutSize", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("SizeTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::NearestLevelsAccepts)
    .Finalize();
