// x86 nearest_interp(_v2) on an NHWC activation, to sizes known only at
// run time (OutSize, SizeTensor, Scale: the plan is evaluated every run).
// Integer upscale factors with no residual run on oneDNN's resampling
// primitive, where oneDNN's nearest rule (source index
// round((o + 0.5) * in / out - 0.5)) picks the same pixels as Paddle's
// (int(ratio * o), align_corners false), checked per run against the ratio
// the op computed (a scale attribute can drive the ratio apart from the
// sizes). Every other run (align_corners, fractional or downscaling factors,
// a ResidualData input from interp_residual_fuse_pass) is one NHWC loop:
// each output pixel copies its source pixel's channels (Paddle's index,
// operators::NearestSourceIndex), plus the residual's (scaled per channel).
// With InterpolateParam::levels (int8_requantize_pass, registered as kInt8
// "levels_out") each output row is summed in a per-thread float buffer and
// quantized into Out by the int8 readers' own rule
// (operators/quant_math.h), the float32 sum never written. Registered at
// layout NHWC; bilinear is bilinear_compute.cc.
#include <cstring>
#include <string>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/kernels/x86/dnnl_kernel.h"
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
    if (p.x->dtype() != DataType::kFloat32 || p.x->dims().size() != 4) {
      return Unimplemented("x86 nearest_interp takes a rank-4 float32 X, got " +
                           std::string(DataTypeName(p.x->dtype())) + " " +
                           DimsToString(p.x->dims()));
    }
    p.out->Resize({pl.n, pl.c, pl.out_h, pl.out_w});
    if (p.residual || p.align_corners ||
        !operators::NearestIsIntegerUpscale(pl.in_h, pl.out_h, pl.ratio_h) ||
        !operators::NearestIsIntegerUpscale(pl.in_w, pl.out_w, pl.ratio_w)) {
      return NhwcNearest(p, pl);
    }
    const auto src = Desc(*p.x), dst = Desc(*p.out);
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
  // Out = resize(X) [+ ResidualData [* ResidualScale]] in one pass, NHWC:
  // each output pixel's channels are its source pixel's plus the
  // residual's (scaled per channel). oneDNN's resampling with a binary
  // post-op falls back to a reference implementation (70 ms on det's
  // 96 x 160 x 160), hence this loop for the residual too.
  Status NhwcNearest(const operators::InterpolateParam& p, const operators::InterpolatePlan& pl) {
    if (p.residual && (p.residual->dims() != p.out->dims() || Desc(*p.residual) != Desc(*p.out))) {
      return InvalidArgument("nearest_interp: ResidualData " + DimsToString(p.residual->dims()) +
                             " does not match Out " + DimsToString(p.out->dims()));
    }
    if (p.out->numel() == 0) {
      p.out->mutable_data(p.levels.enabled ? DataType::kInt8 : DataType::kFloat32);
      return Status::OK();
    }
    const int64_t c = pl.c;
    const int in_h = static_cast<int>(pl.in_h), in_w = static_cast<int>(pl.in_w);
    std::vector<int64_t> src_x(pl.out_w);
    for (int64_t ox = 0; ox < pl.out_w; ++ox) {
      src_x[ox] = operators::NearestSourceIndex(pl.ratio_w, static_cast<int>(ox), in_w,
                                                p.align_corners) * c;
    }
    const float* x = p.x->data<float>();
    const float* r = p.residual ? p.residual->data<float>() : nullptr;
    const float* sc = p.residual_scale ? p.residual_scale->data<float>() : nullptr;
    const bool levels = p.levels.enabled;
    float* y = levels ? nullptr : p.out->mutable_data<float>();
    int8_t* y_levels = levels ? p.out->mutable_data<int8_t>() : nullptr;
    const int64_t rows = pl.n * pl.out_h, row_size = pl.out_w * c;
    // OpenMP like the oneDNN primitives around it (see dnnl_util.h).
    lite::x86::OmpForRangesIf(true, threads(), rows, [&](int64_t nr0, int64_t nr1) {
      for (int64_t nr = nr0; nr < nr1; ++nr) {
        const int64_t n = nr / pl.out_h, oy = nr % pl.out_h;
        const int iy = operators::NearestSourceIndex(pl.ratio_h, static_cast<int>(oy), in_h,
                                                     p.align_corners);
        const float* xrow = x + (n * pl.in_h + iy) * pl.in_w * c;
        const int64_t row = (n * pl.out_h + oy) * row_size;
        float* yrow = levels ? RowBuffer(row_size) : y + row;
        for (int64_t ox = 0; ox < pl.out_w; ++ox) {
          const float* xs = xrow + src_x[ox];
          const float* rs = r ? r + row + ox * c : nullptr;
          float* ys = yrow + ox * c;
          if (!r) {
            std::memcpy(ys, xs, c * sizeof(float));
          } else if (sc) {
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

  DDim in_dims_, out_dims_;
  dnnl::resampling_forward resample_;
};

// The op's interp_method (an attribute the op type only defaults) is
// nearest; a nearest_interp asking for bilinear stays on host.
bool NearestAccepts(const cpp::OpDesc& desc) {
  return desc.GetAttr<std::string>("interp_method", "nearest") == "nearest";
}

// int8_requantize_pass's form: an upscale + residual add writing levels.
bool NearestLevelsAccepts(const cpp::OpDesc& desc) {
  return NearestAccepts(desc) && desc.HasInput("ResidualData") &&
         desc.GetAttr<bool>("enable_int8", false) &&
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
      .BindInput("Scale", lite::Place(TARGET(kHost), PRECISION(kFloat)))                    \
      .SetAccepts(lite::kernels::x86::NearestAccepts)                                       \
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
    .BindInput("Scale", lite::Place(TARGET(kHost), PRECISION(kFloat)))
    .BindOutput("Out", lite::Place(TARGET(kX86), PRECISION(kInt8), DATALAYOUT(kNHWC)))
    .SetAccepts(lite::kernels::x86::NearestLevelsAccepts)
    .Finalize();
