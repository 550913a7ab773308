// x86 conv2d_transpose / depthwise_conv2d_transpose on oneDNN's
// deconvolution primitive, bias and fused activation as post-ops, weights
// (Paddle's [C_in, C_out / groups, kh, kw], oneDNN's iohw / giohw) reordered
// once into the layout oneDNN picks, primitive per input shape. The output
// size the op inferred (output_padding / output_size included) becomes the
// right/bottom padding; when that would be negative the run goes to the host
// kernel on NCHW copies. Registered at layout NHWC.
// Strided transposes do not use the deconvolution primitive: oneDNN 2.6's
// (a backward-data convolution) is far slower on PP-OCR det's 24-channel
// 2x2 stride-2 layer than even the host kernel, in NHWC and more so in
// nChw16c (docs/performance.md, x86 target). When the windows do not overlap (kernel ==
// stride, no padding or dilation, one group: det's upsampling layers) the
// layer is kh batched matmuls, one per kernel row i: [N*H, W, C_in] x
// [C_in, kw*C_out] (bias and activation as post-ops) written through a
// strided destination straight into NHWC output rows h*kh + i, where the
// kw x C_out block of each input pixel is contiguous. (One matmul into a
// temporary plus a scattering reorder makes an extra pass over the output;
// that form stays for narrow outputs, kMinStridedCols.) With no activation,
// relu or relu6 our own 1x1 GEMM (lite/backends/x86/pointwise_conv.h)
// replaces those matmuls, one call per input row and kernel row writing
// into the output row the same way (faster than oneDNN's batched matmul on
// det's 160x160 24 -> 24 layer: it runs near the core's fp32 roof). When a
// whole kh x kw x C_out block of an input pixel fits 16 values (det's last
// 24 -> 1 layer) our own AVX-512 kernel computes it
// (lite/backends/x86/narrow_deconv.h: no scattering reorder, one
// accumulator per output value) and the activation runs after it in
// place (oneDNN eltwise). Measurements: docs/performance.md, x86 target. Other strided cases run the host kernel on NCHW
// copies. conv2d_transpose_pair (two such transposes in a row) runs the
// second on bands of the first's output (conv_transpose_pair_compute.cc).
#include <algorithm>

#include "lite/backends/x86/narrow_deconv.h"
#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/pointwise_conv.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_transpose_util.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/core/host_fallback.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using dnnl::memory;

class ConvTransposeCompute : public InPlaceActivationKernel {
 protected:
  // Below this many columns per kernel row (kw * C_out) oneDNN's strided
  // batched matmul (gemm:jit) is slower than the scattered form (det's last
  // 24 -> 1 layer at 320x320; docs/performance.md, x86 target).
  static constexpr int64_t kMinStridedCols = 16;

  Status RunDnnl() override {
    auto& p = Param<operators::ConvTransposeParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    if (p.strides[0] != 1 || p.strides[1] != 1) {
      return NonOverlapping(p) ? RunAsMatmul(p) : RunOnHost(p);
    }
    memory::dims pad_r(2);
    for (int i = 0; i < 2; ++i) {
      const int64_t dk = static_cast<int64_t>(p.eff_dilations[i]) * (p.filter->dims()[2 + i] - 1) + 1;
      pad_r[i] = (in[2 + i] - 1) * p.strides[i] + dk - p.eff_paddings[2 * i] - out[2 + i];
      if (pad_r[i] < 0) return RunOnHost(p);
    }
    if (in != dims_) RETURN_IF_ERROR(Plan(p, pad_r));
    const auto f32 = memory::data_type::f32;
    if (p.bias) {
      AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, memory::desc({out[1]}, f32, memory::format_tag::x),
                                p.bias->data<float>()));
    }
    Execute(deconv_,
            {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, Desc(*p.input), p.input->data<float>())},
             {DNNL_ARG_WEIGHTS, weights_},
             {DNNL_ARG_DST, Mem(DNNL_ARG_DST, Desc(*p.output), p.output->mutable_data<float>())},
             {DNNL_ARG_SCRATCHPAD, Temp(scratch_md_)}});
    return Status::OK();
  }

 private:
  // Mem() slots of the scatter reorder (its FROM / TO are the matmul's SRC /
  // DST numbers, with other descriptors).
  static constexpr int kScatterFrom = 1 << 19;
  static constexpr int kScatterTo = kScatterFrom + 1;

  bool NonOverlapping(const operators::ConvTransposeParam& p) const {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const DDim& out = p.output->dims();
    for (int v : p.eff_paddings) {
      if (v != 0) return false;
    }
    return p.groups == 1 && nhwc() && !p.input->persistable() && p.strides[0] == f[2] &&
           p.strides[1] == f[3] && p.eff_dilations[0] == 1 && p.eff_dilations[1] == 1 &&
           out[2] == in[2] * f[2] && out[3] == in[3] * f[3];
  }

  // See the file comment: per kernel row i, one batched matmul writes
  // straight into output rows h * kh + i.
  Status RunAsMatmul(const operators::ConvTransposeParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    if (lite::x86::NarrowDeconv::Available() &&
        lite::x86::NarrowDeconv::Fits(f[1], f[2], f[3])) {
      return RunNarrow(p);
    }
    if (f[3] * f[1] < kMinStridedCols) return RunAsScatteredMatmul(p);
    if (lite::x86::PointwiseConv::Available() && lite::x86::PointwiseConv::Supports(p.act)) {
      return RunAsPointwise(p);
    }
    const int64_t rows = in[0] * in[2], wd = in[3], k = f[0], oc = f[1], kh = f[2], kw = f[3];
    const int64_t cols = kw * oc;  // (j, oc) of one kernel row
    const auto f32 = memory::data_type::f32;
    if (in != mm_dims_) {
      if (mm_weights_.empty()) {  // per i: [C_in, (j, oc)]; bias repeated per j
        mm_weights_.resize(kh * k * cols);
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t c = 0; c < k; ++c)
            for (int64_t j = 0; j < kw; ++j)
              for (int64_t o = 0; o < oc; ++o)
                mm_weights_[(i * k + c) * cols + j * oc + o] =
                    p.filter->data<float>()[((c * oc + o) * kh + i) * kw + j];
        if (p.bias) {
          mm_bias_.resize(cols);
          for (int64_t j = 0; j < kw; ++j)
            for (int64_t o = 0; o < oc; ++o) mm_bias_[j * oc + o] = p.bias->data<float>()[o];
        }
      }
      mm_src_ = memory::desc({rows, wd, k}, f32, memory::format_tag::abc);
      mm_w_ = memory::desc({1, k, cols}, f32, memory::format_tag::abc);
      mm_bias_md_ = memory::desc({1, 1, cols}, f32, memory::format_tag::abc);
      // Input row r = (n, h) writes output row r * kh + i: [w, (j, oc)] is
      // contiguous there.
      mm_dst_ = memory::desc({rows, wd, cols}, f32, memory::dims{kh * wd * cols, cols, 1});
      dnnl::matmul::desc d = p.bias ? dnnl::matmul::desc(mm_src_, mm_w_, mm_bias_md_, mm_dst_)
                                    : dnnl::matmul::desc(mm_src_, mm_w_, mm_dst_);
      matmul_ = dnnl::matmul(dnnl::matmul::primitive_desc(d, lite::x86::ActivationAttr(p.act),
                                                          lite::x86::CpuEngine()));
      mm_dims_ = in;
    }
    float* out = p.output->mutable_data<float>();
    for (int64_t i = 0; i < kh; ++i) {
      if (p.bias) AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, mm_bias_md_, mm_bias_.data()));
      Execute(matmul_,
              {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, mm_src_, p.input->data<float>())},
               {DNNL_ARG_WEIGHTS, Mem(DNNL_ARG_WEIGHTS, mm_w_, mm_weights_.data() + i * k * cols)},
               {DNNL_ARG_DST, Mem(DNNL_ARG_DST, mm_dst_, out + i * wd * cols)}});
    }
    return Status::OK();
  }

  // See the file comment: per input row and kernel row i, our 1x1 GEMM
  // (lite/backends/x86/pointwise_conv.h) writes the row's kw x C_out blocks
  // straight into output row h * kh + i. Rows are split over threads here,
  // each GEMM runs on one.
  Status RunAsPointwise(const operators::ConvTransposeParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    const int64_t k = f[0], kh = f[2], wd = in[3], cols = f[3] * f[1];
    if (!row_gemms_.ready()) row_gemms_.Pack(p);
    const float* x = p.input->data<float>();
    float* out = p.output->mutable_data<float>();
    const int64_t rows = in[0] * in[2];
    const int64_t work = rows * wd * k * cols * kh;
    lite::x86::OmpForRanges(threads(), rows, work, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        row_gemms_.RunRow(p, x + r * wd * k, wd, out + r * kh * wd * cols);
      }
    });
    return Status::OK();
  }

  // See the file comment: the own kernel, then the activation in place.
  Status RunNarrow(const operators::ConvTransposeParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    if (!narrow_ready_) {
      narrow_.SetFilter(p.filter->data<float>(), p.bias ? p.bias->data<float>() : nullptr, f[0],
                        f[1], static_cast<int>(f[2]), static_cast<int>(f[3]));
      narrow_ready_ = true;
    }
    narrow_.Run(in[0], in[2], in[3], p.input->data<float>(), p.output->mutable_data<float>(),
                threads());
    ActivateInPlace(p.act, p.output);
    return Status::OK();
  }

  // Narrow outputs (kw * C_out < kMinStridedCols): one matmul and a
  // scattering reorder.
  Status RunAsScatteredMatmul(const operators::ConvTransposeParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();  // [C_in, C_out, kh, kw]
    const int64_t m = in[0] * in[2] * in[3], k = f[0], oc = f[1], kh = f[2], kw = f[3];
    const int64_t cols = kh * kw * oc;
    using lite::x86::PlainDesc;
    if (in != sc_dims_) {
      if (sc_weights_.empty()) {  // [C_in, (i, j, oc)], bias repeated per (i, j)
        sc_weights_.resize(k * cols);
        for (int64_t c = 0; c < k; ++c)
          for (int64_t o = 0; o < oc; ++o)
            for (int64_t ij = 0; ij < kh * kw; ++ij)
              sc_weights_[c * cols + ij * oc + o] = p.filter->data<float>()[(c * oc + o) * kh * kw + ij];
        if (p.bias) {
          sc_bias_.resize(cols);
          for (int64_t ij = 0; ij < kh * kw; ++ij)
            for (int64_t o = 0; o < oc; ++o) sc_bias_[ij * oc + o] = p.bias->data<float>()[o];
        }
      }
      const DDim src{m, k}, w{k, cols}, dst{m, cols}, bias{1, cols};
      dnnl::matmul::desc d = p.bias ? dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                         PlainDesc(bias), PlainDesc(dst))
                                    : dnnl::matmul::desc(PlainDesc(src), PlainDesc(w),
                                                         PlainDesc(dst));
      sc_matmul_ = dnnl::matmul(dnnl::matmul::primitive_desc(d, lite::x86::ActivationAttr(p.act),
                                                          lite::x86::CpuEngine()));
      // The same 6-D view (n, h, i, w, j, oc) of the matmul result and of
      // the NHWC output [n, h * kh + i, w * kw + j, oc].
      const memory::dims six{in[0], in[2], kh, in[3], kw, oc};
      const int64_t h = in[2], wd = in[3];
      scatter_src_ = memory::desc(six, memory::data_type::f32,
                                  memory::dims{h * wd * cols, wd * cols, kw * oc, cols, oc, 1});
      scatter_dst_ = memory::desc(six, memory::data_type::f32, memory::format_tag::abcdef);
      scatter_ = dnnl::reorder(dnnl::reorder::primitive_desc(
          lite::x86::CpuEngine(), scatter_src_, lite::x86::CpuEngine(), scatter_dst_));
      sc_dims_ = in;
    }
    memory tmp = Temp(PlainDesc({m, cols}));
    if (p.bias) AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, PlainDesc({1, cols}), sc_bias_.data()));
    Execute(sc_matmul_,
            {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, PlainDesc({m, k}), p.input->data<float>())},
             {DNNL_ARG_WEIGHTS, Mem(DNNL_ARG_WEIGHTS, PlainDesc({k, cols}), sc_weights_.data())},
             {DNNL_ARG_DST, tmp}});
    Execute(scatter_,
            {{DNNL_ARG_FROM, Mem(kScatterFrom, scatter_src_, tmp.get_data_handle())},
             {DNNL_ARG_TO, Mem(kScatterTo, scatter_dst_, p.output->mutable_data<float>())}});
    return Status::OK();
  }

  Status Plan(const operators::ConvTransposeParam& p, const memory::dims& pad_r) {
    const DDim& f = p.filter->dims();  // [C_in, C_out / g, kh, kw]
    const int64_t g = p.groups, c_out = p.output->dims()[1];
    const auto f32 = memory::data_type::f32;
    memory::dims wdims = g > 1 ? memory::dims{g, f[1], f[0] / g, f[2], f[3]}
                               : memory::dims{f[1], f[0], f[2], f[3]};
    memory::desc bias_md =
        p.bias ? memory::desc({c_out}, f32, memory::format_tag::x) : memory::desc();
    dnnl::deconvolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
        Desc(*p.input), memory::desc(wdims, f32, memory::format_tag::any), bias_md,
        Desc(*p.output), {p.strides[0], p.strides[1]},
        {p.eff_dilations[0] - 1, p.eff_dilations[1] - 1},
        {p.eff_paddings[0], p.eff_paddings[2]}, pad_r);
    dnnl::primitive_attr attr = lite::x86::ActivationAttr(p.act);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::deconvolution_forward::primitive_desc pd(desc, attr, lite::x86::CpuEngine());
    deconv_ = dnnl::deconvolution_forward(pd);
    scratch_md_ = pd.scratchpad_desc();
    if (!weights_ || pd.weights_desc() != weights_md_) {
      weights_md_ = pd.weights_desc();
      weights_ = memory(weights_md_, lite::x86::CpuEngine());
      memory user = lite::x86::WrapMemory(
          memory::desc(wdims, f32, g > 1 ? memory::format_tag::giohw : memory::format_tag::iohw),
          p.filter->data<float>());
      dnnl::reorder(user, weights_).execute(stream(), user, weights_);
      stream().wait();
    }
    dims_ = p.input->dims();
    return Status::OK();
  }

  // The host kernel on NCHW views of Input and Output.
  Status RunOnHost(const operators::ConvTransposeParam& p) {
    nchw_param_ = p;
    nchw_param_.input = NchwInput(*p.input);
    nchw_param_.output = NchwOutput(p.output);
    RETURN_IF_ERROR(fallback_.Run(*this, &nchw_param_));
    StoreNchwOutput(*nchw_param_.output, p.output);
    return Status::OK();
  }

  DDim dims_;
  dnnl::deconvolution_forward deconv_;
  memory::desc weights_md_, scratch_md_;
  memory weights_;
  operators::ConvTransposeParam nchw_param_;
  // The non-overlapping strided path.
  DDim mm_dims_;
  std::vector<float> mm_weights_, mm_bias_;
  dnnl::matmul matmul_;
  memory::desc mm_src_, mm_w_, mm_bias_md_, mm_dst_;
  // The narrow-output form.
  DDim sc_dims_;
  std::vector<float> sc_weights_, sc_bias_;
  dnnl::matmul sc_matmul_;
  memory::desc scatter_src_, scatter_dst_;
  dnnl::reorder scatter_;
  // The own 1x1 GEMM per kernel row.
  RowGemms row_gemms_;
  // The own narrow kernel.
  lite::x86::NarrowDeconv narrow_;
  bool narrow_ready_ = false;
  HostFallback fallback_;
};

bool ConvTransposeAccepts(const cpp::OpDesc& desc) {
  auto act = operators::FusedActivation::FromOpDesc(desc);
  return act.ok() && lite::x86::DnnlExpressible(*act) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC" &&
         !desc.HasInput("OutputSize");
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::x86::ConvTransposeAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d_transpose, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::x86::ConvTransposeAccepts)
    .Finalize();
