// x86 int8 conv2d / depthwise_conv2d (the int8 form of conv_op.h, made by
// quant_dequant_fuse_pass) on oneDNN's int8 convolution.
//
// The float32 NHWC input is quantized here to int8 levels with Input_scale,
// by the same rule the fake quant op computes (operators/quant_math.h), into
// a temporary; oneDNN convolves s8 x s8 with int32 accumulation (VNNI
// kernels where the CPU has them: impl_info() names what the primitive got,
// e.g. "brg:avx512_core_vnni") and writes float32 NHWC through per-channel
// output scales Input_scale / 127 * Filter_scales[c] / 127 (the bias joins
// the int32 sums before them, as oneDNN 2.x does, so it is passed divided by
// them), a float32 ResidualData (conv_residual_fuse_pass) and the fused
// activation as post-ops. The int32 sums are exact, so the
// result differs from the float32 simulation only by float rounding.
// Between int8 convs (int8_requantize_pass, see conv_op.h) the input is
// already levels (s8, or u8 after a non-negative activation: the VNNI path
// without the s8 compensation) and the output is requantized in the post-ops:
// activation, x * 127 / Output_scale, clip to the level range, then oneDNN's
// conversion rounds to nearest even (round_type 0 exactly; round_type 1
// differs only at exact halves) and writes s8 / u8.
// Filter levels are reordered once into the layout oneDNN picks. Plan per
// input shape, as the float conv. Depthwise convs with a wide window for
// their stride run our own kernel instead (lite/backends/x86/
// depthwise_int8_nhwc.h, impl_info() "lite:dw_int8_nhwc"; see OwnDepthwise
// for which and why), and dense convs with few output channels run our
// AVX512-VNNI kernel (lite/backends/x86/conv_int8_smalln.h, impl_info()
// "lite:conv_int8_smalln"; see OwnSmalln), and 1x1 convs on shallow inputs
// run our AVX512-VNNI GEMM (lite/backends/x86/pointwise_int8.h, impl_info()
// "lite:pointwise_int8"; see OwnPointwise), on the same quantized input and
// with the same output forms. A model's first conv reading the NCHW image
// runs our kernel that quantizes the image rows itself (lite/backends/x86/
// nchw_input_int8.h, impl_info() "lite:nchw_input_int8"; see OwnNchwInput).
#include <string>
#include <vector>

#include "lite/backends/x86/conv_int8_smalln.h"
#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/backends/x86/nchw_input_int8.h"
#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/pointwise_int8.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/conv_op.h"
#include "lite/operators/interpolate_op.h"
#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace x86 {

using dnnl::memory;
using lite::x86::CpuEngine;
using lite::x86::WrapMemory;

// The quantized input of the int8 conv running on this thread, grown to
// the largest input seen and kept: a fresh buffer per run (the buffer pool
// hands large ones back to the system) costs a page fault per 4 KB, which
// would be most of the kernel's time. One op at a time runs on a thread.
int8_t* QuantizedInputBuffer(int64_t n) {
  thread_local std::vector<int8_t> buffer;
  if (static_cast<int64_t>(buffer.size()) < n) buffer.resize(n);
  return buffer.data();
}

#if defined(__AVX512F__) && defined(__AVX512VBMI__)
// 16 floats at x as 16 levels (bytes).
inline __m128i Levels16(const operators::quant::Quantizer16& q16, const float* x) {
  return q16.LevelBytes(_mm512_loadu_ps(x));
}
#endif

// Quantizes NCHW float32 input [n, C, hw] (C <= 4, a model's first conv on
// the fed image) by the op's rule into NHWC levels [n, hw, C]: the layout
// change and the quantization in one pass. 16 pixels a step: each plane's
// 16 levels packed to bytes, the C x 16 bytes interleaved by one byte
// permutation (AVX512-VBMI); the scalar rule elsewhere.
template <int C>
void QuantizeNchwToNhwc(const float* x, int64_t n, int64_t hw, float scale, int round_type,
                        int8_t* q) {
  const operators::quant::Quantizer scalar(scale, 127, round_type);
#if defined(__AVX512F__) && defined(__AVX512VBMI__)
  const operators::quant::Quantizer16 q16(scale, 127, round_type);
  alignas(64) uint8_t order[64] = {};  // output byte j: pixel j / C, channel j % C
  for (int j = 0; j < 16 * C; ++j) order[j] = static_cast<uint8_t>((j % C) * 16 + j / C);
  const __m512i idx = _mm512_load_si512(order);
  const __mmask64 bytes = C == 4 ? ~__mmask64{0} : (__mmask64{1} << (16 * C)) - 1;
#endif
  for (int64_t b = 0; b < n; ++b) {
    const float* xb = x + b * C * hw;
    int8_t* qb = q + b * C * hw;
    int64_t p = 0;
#if defined(__AVX512F__) && defined(__AVX512VBMI__)
    for (; p + 16 <= hw; p += 16) {
      __m512i planes = _mm512_setzero_si512();
      planes = _mm512_inserti32x4(planes, Levels16(q16, xb + p), 0);
      if (C > 1) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + hw + p), 1);
      if (C > 2) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + 2 * hw + p), 2);
      if (C > 3) planes = _mm512_inserti32x4(planes, Levels16(q16, xb + 3 * hw + p), 3);
      _mm512_mask_storeu_epi8(qb + p * C, bytes, _mm512_permutexvar_epi8(idx, planes));
    }
#endif
    for (; p < hw; ++p)
      for (int c = 0; c < C; ++c)
        qb[p * C + c] = static_cast<int8_t>(scalar.Level(xb[c * hw + p]));
  }
}

class ConvInt8Compute : public DnnlKernel {
 public:
  const std::string& impl_info() const override { return impl_info_; }

 protected:
  Status InitDnnl() override {
    const auto& p = Param<operators::ConvParam>();
    if (p.input->dims().size() != 4 || p.output->dims().size() != 4) return Status::OK();
    return Plan();
  }

  Status RunDnnl() override {
    const auto& p = Param<operators::ConvParam>();
    if (p.input->dims() != planned_dims_) RETURN_IF_ERROR(Plan());
    if (p.input->dtype() != p.input_dtype) {
      return InvalidArgument("int8 conv: Input holds " +
                             std::string(DataTypeName(p.input->dtype())) + ", Input_dtype says " +
                             DataTypeName(p.input_dtype));
    }
    memory src;
    if (own_nchw_) return RunOwnNchwInput();
    if (p.input_dtype == DataType::kFloat32) {
      // Quantize the input (element order is irrelevant: one scale).
      int8_t* q = QuantizedInputBuffer(p.input->numel());
      if (nchw_input_) {
        RETURN_IF_ERROR(QuantizeNchwInput(q));
      } else {
        operators::quant::QuantizeToInt8(p.input->data<float>(), q, p.input->numel(),
                                         p.input_scale, 127, p.quant_round_type);
      }
      if (own_dw_) return RunOwnDepthwise(q);
      if (own_smalln_) return RunOwnSmalln(q);
      if (own_pointwise_) return RunOwnPointwise(q);
      src = Mem(DNNL_ARG_SRC, src_md_, q);
    } else if (own_dw_) {
      return RunOwnDepthwise(p.input->raw_data());
    } else if (own_smalln_) {
      return RunOwnSmalln(p.input->raw_data());
    } else if (own_pointwise_) {
      return RunOwnPointwise(p.input->raw_data());
    } else {
      src = Mem(DNNL_ARG_SRC, src_md_, const_cast<void*>(p.input->raw_data()));
    }
    memory dst = Mem(DNNL_ARG_DST, dst_md_, OutputData(p));
    if (p.bias) AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, bias_md_, scaled_bias_.data()));
    if (p.residual) {
      constexpr int kResidualArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
      AddArg(kResidualArg, Mem(kResidualArg, residual_md_, p.residual->data<float>()));
    }
    Execute(conv_, {{DNNL_ARG_SRC, src},
                    {DNNL_ARG_WEIGHTS, weights_},
                    {DNNL_ARG_DST, dst},
                    {DNNL_ARG_SCRATCHPAD, Temp(scratch_md_)}});
    return Status::OK();
  }

 private:
  using DW = lite::x86::DepthwiseInt8Nhwc;
  using CS = lite::x86::ConvInt8Smalln;
  using PW = lite::x86::PointwiseInt8;
  using NI = lite::x86::NchwInputInt8;

  // Output's buffer: float32, or s8 / u8 levels (Output_dtype).
  static void* OutputData(const operators::ConvParam& p) {
    switch (p.output_dtype) {
      case DataType::kInt8: return p.output->mutable_data<int8_t>();
      case DataType::kUInt8: return p.output->mutable_data<uint8_t>();
      default: return p.output->mutable_data<float>();
    }
  }

  // Our depthwise kernel (lite/backends/x86/depthwise_int8_nhwc.h) takes
  // groups == C_in == C_out convs whose activation it computes and whose
  // window keeps its sums exact, where it is the faster one: at least 9
  // taps per input pixel of stride (kh * kw >= 9 * sh * sw: 3x3 at stride
  // 1, 5x5 at stride 1 or (2, 1)), or 2 where it sums in quads (UsesQuads:
  // then also 5x5 and 3x3 at stride 2) or has at most 8 channels (3x3 at
  // stride 2). Below that density a converted input level feeds too few
  // taps for the conversion to pay. The quad form wins at 3x3 stride 2
  // only because its sums stay in registers (DotAdd, int8_epilogue.h); the
  // float form (no quads) keeps least 9. Measurements per shape:
  // docs/performance.md, "Own int8 kernels against oneDNN".
  static bool OwnDepthwise(const operators::ConvParam& p) {
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    const DW::Levels levels =
        p.input_dtype == DataType::kUInt8 ? DW::Levels::kU8 : DW::Levels::kS8;
    const bool exact = DW::Available() && p.groups > 1 && in[1] == p.groups &&
                       f[0] == p.groups && f[1] == 1 && DW::Supports(p.act) &&
                       DW::ExactSums(f[2], f[3], levels);
    const int64_t taps_per_pixel_of_stride = f[2] * f[3] / (p.strides[0] * p.strides[1]);
    DW::Geometry g;
    g.c = in[1];
    g.stride_h = p.strides[0];
    g.stride_w = p.strides[1];
    g.dilation_w = p.eff_dilations[1];
    const int64_t least = in[1] <= 8 || DW().UsesQuads(g) ? 2 : 9;
    return exact && taps_per_pixel_of_stride >= least;
  }

  Status RunOwnDepthwise(const void* levels) {
    const auto& p = Param<operators::ConvParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    const DDim& f = p.filter->dims();
    DW::Geometry g;
    g.n = in[0];
    g.c = in[1];
    g.h = in[2];
    g.w = in[3];
    g.oh = out[2];
    g.ow = out[3];
    g.kh = static_cast<int>(f[2]);
    g.kw = static_cast<int>(f[3]);
    g.stride_h = p.strides[0];
    g.stride_w = p.strides[1];
    g.pad_top = p.eff_paddings[0];
    g.pad_left = p.eff_paddings[2];
    g.dilation_h = p.eff_dilations[0];
    g.dilation_w = p.eff_dilations[1];
    dw_.Run(g, levels, p.input_dtype == DataType::kUInt8 ? DW::Levels::kU8 : DW::Levels::kS8,
            OutputData(p), threads());
    return Status::OK();
  }

  // Per-channel scales Input_scale / 127 * Filter_scales[c] / 127.
  static std::vector<float> ChannelScales(const operators::ConvParam& p) {
    std::vector<float> scales(p.filter_scales.size());
    for (size_t c = 0; c < scales.size(); ++c)
      scales[c] = p.input_scale / 127.f * (p.filter_scales[c] / 127.f);
    return scales;
  }

  // An own kernel's epilogue from the op: per-channel scales, the bias, the
  // activation, the output form and the requantization factor.
  template <typename Kernel>
  void SetOwnEpilogue(Kernel* kernel) const {
    const auto& p = Param<operators::ConvParam>();
    const std::vector<float> scales = ChannelScales(p);
    kernel->SetEpilogue(scales.data(), p.bias ? p.bias->data<float>() : nullptr, p.act,
                        OwnOut<typename Kernel::Out>(p),
                        127.f * operators::quant::InverseScale(p.output_scale),
                        p.output_round_type);
  }

  // The own kernels' output form (their Out enums list the same three).
  template <typename Out>
  static Out OwnOut(const operators::ConvParam& p) {
    return p.output_dtype == DataType::kInt8    ? Out::kS8
           : p.output_dtype == DataType::kUInt8 ? Out::kU8
                                                : Out::kFloat;
  }

  Status PlanOwnDepthwise() {
    const auto& p = Param<operators::ConvParam>();
    const DDim& f = p.filter->dims();
    if (!dw_planned_) {
      dw_.SetFilter(p.filter->data<int8_t>(), f[0], static_cast<int>(f[2]),
                    static_cast<int>(f[3]));
      SetOwnEpilogue(&dw_);
      dw_planned_ = true;
    }
    impl_info_ = "lite:dw_int8_nhwc";
    planned_dims_ = p.input->dims();
    return Status::OK();
  }

  // Our few-output-channel kernel (lite/backends/x86/conv_int8_smalln.h)
  // takes groups == 1 convs at stride 1 with at least a 3x3 window, at most
  // 24 output channels of which oneDNN's 16-channel blocks leave at least a
  // quarter of the lanes idle (1-12 or 17-24 channels), at least 64 output
  // columns, and an activation its epilogue computes: where it is the
  // faster one (conv_int8_smalln_bench; docs/performance.md). Kept on
  // oneDNN: 16 channels (no idle lanes), small maps such as 40x40 (oneDNN's
  // jit_int8) and 1x1 windows.
  static bool OwnSmalln(const operators::ConvParam& p) {
    const DDim& f = p.filter->dims();
    const DDim& out = p.output->dims();
    const int64_t oc = f[0], blocks = (oc + 15) / 16 * 16;
    return CS::Available() && p.groups == 1 && p.strides[0] == 1 && p.strides[1] == 1 &&
           f[2] * f[3] >= 9 && oc <= 24 && (blocks - oc) * 4 >= blocks && out[3] >= 64 &&
           CS::Supports(p.act);
  }

  Status RunOwnSmalln(const void* levels) {
    const auto& p = Param<operators::ConvParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    CS::Geometry g;
    g.n = in[0];
    g.ic = in[1];
    g.h = in[2];
    g.w = in[3];
    g.oh = out[2];
    g.ow = out[3];
    g.stride_h = p.strides[0];
    g.pad_top = p.eff_paddings[0];
    g.pad_left = p.eff_paddings[2];
    g.dilation_h = p.eff_dilations[0];
    g.dilation_w = p.eff_dilations[1];
    smalln_.Run(g, levels, p.input_dtype == DataType::kUInt8 ? CS::Levels::kU8 : CS::Levels::kS8,
                OutputData(p), threads());
    return Status::OK();
  }

  Status PlanOwnSmalln() {
    const auto& p = Param<operators::ConvParam>();
    const DDim& f = p.filter->dims();
    if (!smalln_planned_) {
      smalln_.SetFilter(p.filter->data<int8_t>(), f[0], f[1], static_cast<int>(f[2]),
                        static_cast<int>(f[3]));
      SetOwnEpilogue(&smalln_);
      smalln_planned_ = true;
    }
    impl_info_ = "lite:conv_int8_smalln";
    planned_dims_ = p.input->dims();
    return Status::OK();
  }

  // Our 1x1 kernel (lite/backends/x86/pointwise_int8.h) takes 1x1 convs at
  // stride 1 without padding whose activation it computes, where it is the
  // faster one in whole-model --profile_ops runs (own / oneDNN's
  // brgconv_1x1 or jit_int8_1x1; the numbers are in docs/performance.md):
  // - s8 input, every shape: oneDNN's s8 compensation path is slow, while
  //   ours keeps its sums in registers (DotAdd), broadcasts the input from
  //   memory, reads its store arguments once per tile and, for deep inputs,
  //   broadcasts inside the vpdpbusd (InDot);
  // - at most 8 output channels in its pair mode;
  // - maps of at most 4 pixels (pooled SE convs: oneDNN's per-call cost
  //   dominates there).
  // Kept on oneDNN: other u8 input, which it does not win as a class.
  static bool OwnPointwise(const operators::ConvParam& p) {
    const DDim& f = p.filter->dims();
    const DDim& in = p.input->dims();
    bool no_pad = true;
    for (int v : p.eff_paddings) no_pad = no_pad && v == 0;
    if (!PW::Available() || p.groups != 1 || f[2] != 1 || f[3] != 1 || p.strides[0] != 1 ||
        p.strides[1] != 1 || !no_pad || !PW::Supports(p.act)) {
      return false;
    }
    const bool s8_in = p.input_dtype != DataType::kUInt8;  // float input is quantized to s8
    return s8_in || PW::PairMode(f[0], f[1]) || in[0] * in[2] * in[3] <= 4;
  }

  Status RunOwnPointwise(const void* levels) {
    const auto& p = Param<operators::ConvParam>();
    if (p.addend) return RunResizeAdd(levels);
    const DDim& in = p.input->dims();
    pointwise_.Run(in[0] * in[2] * in[3], levels,
                   p.input_dtype == DataType::kUInt8 ? PW::Levels::kU8 : PW::Levels::kS8,
                   OutputData(p), threads(), p.residual ? p.residual->data<float>() : nullptr);
    return Status::OK();
  }

  // conv2d_resize_add (conv_resize_add_op.h) on the 1x1 kernel: per image,
  // the epilogue's scale and bias take ConvScale's factors ((sum * scale +
  // bias) * s as sum * (scale * s) + bias * s); per output row, the kernel
  // adds Addend row y / fh as its residual, pixel x / fw for pixel x.
  Status RunResizeAdd(const void* levels) {
    const auto& p = Param<operators::ConvParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    const DDim& a = p.addend->dims();
    const int64_t oc = out[1], ic = in[1], oh = out[2], ow = out[3];
    const int64_t fh = p.addend_factor_h, fw = p.addend_factor_w;
    const size_t out_bytes = p.output_dtype == DataType::kFloat32 ? sizeof(float) : 1;
    const PW::Levels in_type =
        p.input_dtype == DataType::kUInt8 ? PW::Levels::kU8 : PW::Levels::kS8;
    const std::vector<float> base_scale = ChannelScales(p);
    std::vector<float> scale(oc), bias(oc);
    const float* addend = p.addend->data<float>();
    char* dst = static_cast<char*>(OutputData(p));
    const char* src = static_cast<const char*>(levels);
    for (int64_t n = 0; n < out[0]; ++n) {
      for (int64_t c = 0; c < oc; ++c) {
        const float s = p.conv_scale ? p.conv_scale->data<float>()[operators::ResidualScaleIndex(
                                           *p.conv_scale, n, c, oc)]
                                     : 1.f;
        scale[c] = base_scale[c] * s;
        bias[c] = p.bias ? p.bias->data<float>()[c] * s : 0.f;
      }
      pointwise_.SetEpilogue(scale.data(), bias.data(), p.act, OwnOut<PW::Out>(p),
                             127.f * operators::quant::InverseScale(p.output_scale),
                             p.output_round_type);
      lite::x86::OmpForRangesIf(true, threads(), oh, [&](int64_t y0, int64_t y1) {
        for (int64_t y = y0; y < y1; ++y) {
          const float* arow = addend + ((n * a[2] + y / fh) * a[3]) * oc;
          const int64_t pixel = (n * oh + y) * ow;
          pointwise_.Run(ow, src + pixel * ic, in_type, dst + pixel * oc * out_bytes, 1, arow, fw);
        }
      });
    }
    return Status::OK();
  }

  // Our first-conv kernel (lite/backends/x86/nchw_input_int8.h) takes the
  // NCHW-input conv where it computes the geometry (1-4 input, 1-16 output
  // channels, kw <= 4, stride_w 1 or 2, no dilation) and the activation.
  // It is faster than the quantize pass plus oneDNN's jit_int8 on the
  // slim models' first convs (docs/performance.md).
  static bool OwnNchwInput(const operators::ConvParam& p) {
    const DDim& f = p.filter->dims();
    return NI::Available() && NI::Supports(p.act) &&
           NI::Fits(f[1], f[0], static_cast<int>(f[2]), static_cast<int>(f[3]), p.strides[1],
                    p.eff_dilations[0], p.eff_dilations[1], p.groups);
  }

  Status PlanOwnNchwInput() {
    const auto& p = Param<operators::ConvParam>();
    const DDim& f = p.filter->dims();
    if (!nchw_planned_) {
      nchw_.SetFilter(p.filter->data<int8_t>(), f[0], f[1], static_cast<int>(f[2]),
                      static_cast<int>(f[3]));
      SetOwnEpilogue(&nchw_);
      nchw_planned_ = true;
    }
    impl_info_ = "lite:nchw_input_int8";
    planned_dims_ = p.input->dims();
    return Status::OK();
  }

  // The image's rows are quantized by the op's rule (quant_math.h's
  // QuantizeToInt8, as QuantizeNchwToNhwc computes it).
  Status RunOwnNchwInput() {
    const auto& p = Param<operators::ConvParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    NI::Geometry g;
    g.n = in[0];
    g.ic = in[1];
    g.h = in[2];
    g.w = in[3];
    g.oh = out[2];
    g.ow = out[3];
    g.stride_h = p.strides[0];
    g.stride_w = p.strides[1];
    g.pad_top = p.eff_paddings[0];
    g.pad_left = p.eff_paddings[2];
    const float scale = p.input_scale;
    const int round_type = p.quant_round_type;
    const NI::QuantizeRow quantize = [scale, round_type](const float* x, int64_t n,
                                                         int8_t* levels) {
      operators::quant::QuantizeToInt8(x, levels, n, scale, 127, round_type);
    };
    nchw_.Run(g, p.input->data<float>(), quantize, OutputData(p), threads());
    return Status::OK();
  }

  Status PlanOwnPointwise() {
    const auto& p = Param<operators::ConvParam>();
    const DDim& f = p.filter->dims();
    if (!pointwise_planned_) {
      pointwise_.SetFilter(p.filter->data<int8_t>(), f[0], f[1]);
      SetOwnEpilogue(&pointwise_);
      pointwise_planned_ = true;
    }
    impl_info_ = "lite:pointwise_int8";
    planned_dims_ = p.input->dims();
    return Status::OK();
  }

  Status Plan() {
    const auto& p = Param<operators::ConvParam>();
    // ResidualData: the 1x1 kernel adds it in its epilogue; the other own
    // kernels have no residual input, so oneDNN (a binary post-op) runs.
    // The post-activation affine map (fuse_post_*) only oneDNN computes.
    own_nchw_ = nchw_input_ && !p.residual && !p.has_post_affine() && OwnNchwInput(p);
    if (own_nchw_) return PlanOwnNchwInput();
    own_dw_ = !p.residual && !p.has_post_affine() && OwnDepthwise(p);
    if (own_dw_) return PlanOwnDepthwise();
    own_smalln_ = !p.residual && !p.has_post_affine() && OwnSmalln(p);
    if (own_smalln_) return PlanOwnSmalln();
    own_pointwise_ = !p.has_post_affine() && OwnPointwise(p);
    if (p.addend) {
      // conv2d_resize_add: only the 1x1 kernel computes it (its accept
      // function asks for it; a model optimized on another CPU may still
      // carry the op here).
      if (!PW::Available()) {
        return Unimplemented("x86 conv2d_resize_add needs AVX512-VNNI on this CPU");
      }
      own_pointwise_ = true;
    }
    if (own_pointwise_) return PlanOwnPointwise();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    const DDim& f = p.filter->dims();
    const int64_t g = p.groups;
    const memory::dims strides{p.strides[0], p.strides[1]};
    const memory::dims dilates{p.eff_dilations[0] - 1, p.eff_dilations[1] - 1};
    const memory::dims pad_l{p.eff_paddings[0], p.eff_paddings[2]};
    const memory::dims pad_r{p.eff_paddings[1], p.eff_paddings[3]};
    const auto nhwc = memory::format_tag::nhwc;
    const memory::dims wdims = g > 1 ? memory::dims{g, f[0] / g, f[1], f[2], f[3]}
                                     : memory::dims{f[0], f[1], f[2], f[3]};
    src_md_ = memory::desc({in[0], in[1], in[2], in[3]}, DnnlType(p.input_dtype, true), nhwc);
    dst_md_ = memory::desc({out[0], out[1], out[2], out[3]}, DnnlType(p.output_dtype, false),
                           nhwc);
    bias_md_ = p.bias ? memory::desc({f[0]}, memory::data_type::f32, memory::format_tag::x)
                      : memory::desc();
    const memory::desc w_any(wdims, memory::data_type::s8, memory::format_tag::any);

    residual_md_ = memory::desc({out[0], out[1], out[2], out[3]}, memory::data_type::f32, nhwc);
    dnnl::primitive_attr attr = RequantizingAttr(p, residual_md_);
    // oneDNN 2.x adds an int8 conv's bias to the int32 sums before the
    // output scale: the bias goes in divided by its channel's scale. A
    // channel with scale 0 has only zero levels: scale 1 gives the bias.
    std::vector<float> scales(p.filter_scales.size());
    scaled_bias_.assign(scales.size(), 0.f);
    for (size_t c = 0; c < scales.size(); ++c) {
      scales[c] = p.input_scale / 127.f * (p.filter_scales[c] / 127.f);
      if (scales[c] == 0.f) scales[c] = 1.f;
      if (p.bias) scaled_bias_[c] = p.bias->data<float>()[c] / scales[c];
    }
    attr.set_output_scales(1 << 1, scales);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                         dnnl::algorithm::convolution_direct, src_md_, w_any,
                                         bias_md_, dst_md_, strides, dilates, pad_l, pad_r);
    dnnl::convolution_forward::primitive_desc pd(desc, attr, CpuEngine());
    impl_info_ = pd.impl_info_str();
    conv_ = dnnl::convolution_forward(pd);
    scratch_md_ = pd.scratchpad_desc();
    if (!weights_ || pd.weights_desc() != weights_md_) {
      weights_md_ = pd.weights_desc();
      weights_ = memory(weights_md_, CpuEngine());
      memory user_w = WrapMemory(memory::desc(wdims, memory::data_type::s8,
                                              g > 1 ? memory::format_tag::goihw
                                                    : memory::format_tag::oihw),
                                 p.filter->data<int8_t>());
      dnnl::reorder(user_w, weights_).execute(stream(), user_w, weights_);
      stream().wait();
    }
    planned_dims_ = in;
    return Status::OK();
  }

  // float32 input is quantized here to s8; levels come as they are.
  static memory::data_type DnnlType(DataType t, bool is_input) {
    switch (t) {
      case DataType::kInt8: return memory::data_type::s8;
      case DataType::kUInt8: return memory::data_type::u8;
      default: return is_input ? memory::data_type::s8 : memory::data_type::f32;
    }
  }

  // ResidualData (float32, added after the output scales and bias), the
  // fused activation, the post-activation affine map, then for a levels
  // output the consumer's
  // quantization: x * 127 / Output_scale clipped to [-127, 127] (round_type
  // 1: x clipped to [-s, s]) or [-128, 127] (round_type 0); the conversion
  // to s8 / u8 rounds (u8 takes only non-negative activations).
  static dnnl::primitive_attr RequantizingAttr(const operators::ConvParam& p,
                                               const memory::desc& residual_md) {
    dnnl::post_ops ops;
    if (p.residual) ops.append_binary(dnnl::algorithm::binary_add, residual_md);
    lite::x86::AppendActivation(p.act, &ops);
    if (p.output_dtype == DataType::kFloat32 && p.has_post_affine()) {
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, p.post_scale, p.post_bias);
    }
    if (p.output_dtype != DataType::kFloat32) {
      // The post-activation map and the requantization as one linear step:
      // oneDNN 2.6 got two consecutive linear post-ops wrong on this path
      // (every level off; conv_scale_fuse_pass_test's int8 chain).
      const float factor = 127.f * operators::quant::InverseScale(p.output_scale);
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, factor * p.post_scale,
                         factor * p.post_bias);
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_clip,
                         p.output_round_type == 0 ? -128.f : -127.f, 127.f);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    return attr;
  }

  // The NCHW input of ConvInt8NchwInputCompute into NHWC levels at q.
  Status QuantizeNchwInput(int8_t* q) const {
    const auto& p = Param<operators::ConvParam>();
    const DDim& in = p.input->dims();
    const float* x = p.input->data<float>();
    const int64_t hw = in[2] * in[3];
    const float s = p.input_scale;
    const int r = p.quant_round_type;
    switch (in[1]) {
      case 1: QuantizeNchwToNhwc<1>(x, in[0], hw, s, r, q); break;
      case 2: QuantizeNchwToNhwc<2>(x, in[0], hw, s, r, q); break;
      case 3: QuantizeNchwToNhwc<3>(x, in[0], hw, s, r, q); break;
      case 4: QuantizeNchwToNhwc<4>(x, in[0], hw, s, r, q); break;
      default:
        return InvalidArgument("int8 conv reading NCHW input: " + std::to_string(in[1]) +
                               " channels, at most 4");
    }
    return Status::OK();
  }

 protected:
  bool nchw_input_ = false;  // Input is bound in NCHW (ConvInt8NchwInputCompute)

 private:
  DDim planned_dims_;
  bool own_dw_ = false;      // this shape runs dw_, not conv_
  bool dw_planned_ = false;  // dw_ holds the filter and epilogue
  DW dw_;
  bool own_smalln_ = false;      // this shape runs smalln_, not conv_
  bool smalln_planned_ = false;  // smalln_ holds the filter and epilogue
  CS smalln_;
  bool own_pointwise_ = false;      // this shape runs pointwise_, not conv_
  bool pointwise_planned_ = false;  // pointwise_ holds the filter and epilogue
  PW pointwise_;
  bool own_nchw_ = false;      // this shape runs nchw_, not QuantizeNchwInput + conv_
  bool nchw_planned_ = false;  // nchw_ holds the filter and epilogue
  NI nchw_;
  dnnl::convolution_forward conv_;
  memory::desc src_md_, dst_md_, bias_md_, scratch_md_, weights_md_, residual_md_;
  memory weights_;
  std::vector<float> scaled_bias_;  // Bias / output scale, per channel
  std::string impl_info_;
};

// A model's first int8 conv (1-4 input channels, float input): Input is
// bound in NCHW, so no layout op runs before it; the kernel quantizes and
// reorders the fed image in one pass (QuantizeNchwToNhwc).
class ConvInt8NchwInputCompute : public ConvInt8Compute {
 public:
  ConvInt8NchwInputCompute() { nchw_input_ = true; }
};

// The int8 conv reads float input of 1-4 channels (NchwInputConvFits's
// geometry): ConvInt8NchwInputCompute takes it, the NHWC bindings decline.
bool Int8NchwInputFits(const cpp::OpDesc& desc, const VarDimsFn& dims) {
  const std::string in = desc.GetAttr<std::string>("Input_dtype", "float32");
  return in != "int8" && in != "uint8" && desc.Type() == "conv2d" &&
         NchwInputConvFits(desc, dims);
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite

namespace {
// The int8 form, NCHW attributes, an activation oneDNN can fuse.
bool ConvInt8Accepts(const lite::cpp::OpDesc& desc) {
  auto act = lite::operators::FusedActivation::FromOpDesc(desc);
  return desc.GetAttr<bool>("enable_int8", false) && act.ok() &&
         lite::x86::DnnlExpressible(*act) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC";
}
// Whether the int8 conv's `attr` (Input_dtype / Output_dtype) names levels.
bool HoldsLevels(const lite::cpp::OpDesc& desc, const char* attr) {
  const std::string t = desc.GetAttr<std::string>(attr, "float32");
  return t == "int8" || t == "uint8";
}
// The int8 form with Input / Output as levels exactly when asked: the
// accept function of each of the four bindings.
template <bool kInLevels, bool kOutLevels>
bool Int8FormAccepts(const lite::cpp::OpDesc& desc) {
  return ConvInt8Accepts(desc) && HoldsLevels(desc, "Input_dtype") == kInLevels &&
         HoldsLevels(desc, "Output_dtype") == kOutLevels;
}
}  // namespace

// One kernel, four bindings: Input and Output float32 ("def") or int8
// levels (int8_requantize_pass sets Input_dtype / Output_dtype).
#define LITE_REGISTER_X86_INT8_CONV(op, alias, in_p, out_p, in_levels, out_levels)           \
  REGISTER_LITE_KERNEL(op, kX86, kInt8, kNHWC, lite::kernels::x86::ConvInt8Compute, alias)   \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(in_p), DATALAYOUT(kNHWC)))    \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))   \
      .BindInput("ResidualData",                                                             \
                 lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))            \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC))) \
      .SetAccepts(Int8FormAccepts<(in_levels), (out_levels)>)                                 \
      .SetAcceptsDims([](const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {       \
        return !lite::kernels::x86::Int8NchwInputFits(desc, dims);                           \
      })                                                                                     \
      .Finalize()

// The first conv's bindings: float Input in NCHW, Output float or levels.
#define LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(alias, out_p, out_levels)                       \
  REGISTER_LITE_KERNEL(conv2d, kX86, kInt8, kNHWC, lite::kernels::x86::ConvInt8NchwInputCompute, \
                       alias)                                                                  \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))      \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))       \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC)))     \
      .SetAccepts([](const lite::cpp::OpDesc& desc) {                                            \
        return ConvInt8Accepts(desc) && HoldsLevels(desc, "Output_dtype") == (out_levels);       \
      })                                                                                         \
      .SetAcceptsDims(lite::kernels::x86::Int8NchwInputFits)                                     \
      .Finalize()

namespace {
// conv2d_resize_add runs on the 1x1 kernel: a 1x1 filter, stride 1, no
// padding, one group, and a build and CPU with the kernel's AVX512-VNNI
// code (else conv_resize_add_fuse_pass declines: a portable build or an
// older CPU keeps the ops unfused).
bool ResizeAddAccepts(const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {
  if (!lite::x86::PointwiseInt8::Available()) return false;
  if (!desc.HasInput("Filter") || desc.Input("Filter").size() != 1) return false;
  const lite::DDim f = dims(desc.Input("Filter")[0]);
  bool unit = f.size() == 4 && f[2] == 1 && f[3] == 1 &&
              desc.GetAttr<int32_t>("groups", 1) == 1 &&
              desc.GetAttr<std::string>("padding_algorithm", "EXPLICIT") != "SAME";
  for (int v : desc.GetAttr<std::vector<int>>("strides", {1, 1})) unit = unit && v == 1;
  for (int v : desc.GetAttr<std::vector<int>>("paddings", {0, 0})) unit = unit && v == 0;
  return unit;
}
}  // namespace

// conv2d_resize_add (conv_resize_add_op.h): the int8 conv's four bindings
// plus the float Addend and ConvScale.
#define LITE_REGISTER_X86_INT8_RESIZE_ADD(alias, in_p, out_p, in_levels, out_levels)          \
  REGISTER_LITE_KERNEL(conv2d_resize_add, kX86, kInt8, kNHWC,                                \
                       lite::kernels::x86::ConvInt8Compute, alias)                           \
      .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(in_p), DATALAYOUT(kNHWC)))    \
      .BindInput("Bias", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))   \
      .BindInput("Addend", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC))) \
      .BindInput("ConvScale",                                                                \
                 lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNHWC)))            \
      .BindOutput("Output", lite::Place(TARGET(kX86), PRECISION(out_p), DATALAYOUT(kNHWC))) \
      .SetAccepts(Int8FormAccepts<(in_levels), (out_levels)>)                                 \
      .SetAcceptsDims(ResizeAddAccepts)                                                      \
      .Finalize()

LITE_REGISTER_X86_INT8_RESIZE_ADD(def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_RESIZE_ADD(levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_CONV(conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_CONV(conv2d, levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_X86_INT8_CONV(depthwise_conv2d, levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(nchw_input, kFloat, false);
LITE_REGISTER_X86_INT8_NCHW_INPUT_CONV(nchw_input_levels_out, kInt8, true);
