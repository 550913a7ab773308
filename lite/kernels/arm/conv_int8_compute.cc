// arm conv2d / depthwise_conv2d of the int8 form (conv_op.h: int8 Filter
// levels, Filter_scales per output channel, Input_scale, and the levels
// forms int8_requantize_pass sets: Input_dtype / Output_dtype), NHWC.
//
// Where the output is levels and the fused activation is a clamp (none,
// relu, relu6) without ResidualData, the conv is XNNPACK's
// convolution2d_nhwc_qc8 (per-channel weight scales; depthwise convs get its
// dwconv kernels; XNNPACK picks NEON or, where the CPU and its build have
// them, dotprod microkernels): s8
// levels in (the float input quantized by the op's rule first, or the
// producer's levels), int32 sums, s8 levels out requantized by XNNPACK
// (fp32 requantization: (sum + bias_q) * scale, rounded to nearest even,
// as x86 rounds its levels). Two differences from the x86 arithmetic:
// the bias is rounded to int32 units of Input_scale / 127 * Filter_scale /
// 127 (half a unit of the sum at most), and the three scales are applied
// as one float product. A negative Filter_scale (batch norm folded) becomes
// its magnitude with negated levels, a zero one zero levels.
//
// Where the output is levels and the activation is Paddle's default
// hard_swish (no ResidualData), qc8 writes the pre-activation value as s8
// levels of its own scale and zero point, and a 256-entry table maps them
// to the output levels (CreateQc8HardSwish: one rounding more than the
// simulation, so a level can be one off).
//
// XNNPACK's int8 convolution writes int8 only, so every other form (float
// output, other non-clamp activations, ResidualData, a
// requantization scale XNNPACK refuses) runs the simulation's float
// arithmetic as the x86 int8 path defines it: the input's levels times
// Input_scale / 127, the filter's levels times Filter_scales[c] / 127,
// XNNPACK's convolution2d_nhwc_f32 with the bias, the residual add
// (add_nd_f32) and the activation (epilogue.h), then, for levels output,
// x * 127 / Output_scale rounded to nearest even and clipped as x86 does.
// On aarch64, float-form depthwise convs and (on CPUs with SDOT) convs with
// one group (1x1 directly, others by its window form) instead sum the input levels times the
// filter levels exactly in int32 with the engine's own NEON loops
// (lite/backends/arm/int8_depthwise.h: widening multiplies; int8_gemm.h:
// SDOT) and apply fma(sum, Input_scale / 127 * Filter_scales[c] / 127, bias), the
// x86 int8 kernels' epilogue, before the same residual add, activation and
// requantization: the same values up to float rounding, without
// dequantizing the input or running a float conv.
// Filter and bias must be constants (packed at the first run).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm.h"
#include "lite/base/quant_math.h"
#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/kernels/arm/int8_loops.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

bool IsLevels(DataType t) { return t == DataType::kInt8 || t == DataType::kUInt8; }

// The lowest level of the output's rounding rule (x86: [-127, 127] for
// round_type 1, [-128, 127] for round_type 0).
float LowestLevel(int round_type) { return round_type == 0 ? -128.f : -127.f; }

// [O, I/g, KH, KW] -> [O, KH, KW, I/g], XNNPACK's filter order; `map`
// converts each element.
template <typename T, typename U, typename F>
std::vector<U> RepackFilter(const T* src, const DDim& f, F map) {
  const int64_t oc = f[0], icg = f[1], khw = f[2] * f[3];
  std::vector<U> w(static_cast<size_t>(oc * icg * khw));
  for (int64_t o = 0; o < oc; ++o)
    for (int64_t i = 0; i < icg; ++i)
      for (int64_t k = 0; k < khw; ++k) w[(o * khw + k) * icg + i] = map(o, src[(o * icg + i) * khw + k]);
  return w;
}

class ConvInt8Compute : public ArmKernel {
 public:
  Status Init() override {
    RETURN_IF_ERROR(ArmKernel::Init());
    const auto& p = Param<operators::ConvParam>();
    RETURN_IF_ERROR(CheckConstantWeights(p.filter, p.bias));
    if (p.filter->dtype() != DataType::kInt8) {
      return InvalidArgument(What() + ": int8 form with a " +
                             std::string(DataTypeName(p.filter->dtype())) + " Filter");
    }
    return Status::OK();
  }

  Status Run() override {
    const auto& p = Param<operators::ConvParam>();
    if (p.input->dtype() != p.input_dtype) {
      return InvalidArgument(What() + ": Input holds " +
                             std::string(DataTypeName(p.input->dtype())) + ", Input_dtype says " +
                             DataTypeName(p.input_dtype));
    }
    if ((!conv_ && !gemm_on_ && !dw_on_) || p.eff_paddings != paddings_) RETURN_IF_ERROR(Create(p));
    if (gemm_on_ || dw_on_) return RunOwn(p);
    return qc8_ ? RunQc8(p) : RunFloat(p);
  }

  // The own loops' forms name the loop (and XNNPACK's add, if any).
  const std::string& impl_info() const override {
    return gemm_on_ || dw_on_ ? own_impl_ : ArmKernel::impl_info();
  }

 private:
  Status Create(const operators::ConvParam& p) {
    const DDim& f = p.filter->dims();
    if (f.size() != 4 || p.groups < 1 || f[0] % p.groups != 0 ||
        p.filter_scales.size() != static_cast<size_t>(f[0])) {
      return InvalidArgument(What() + ": filter dims " + DimsToString(f) + " with groups " +
                             std::to_string(p.groups) + " and " +
                             std::to_string(p.filter_scales.size()) + " Filter_scales");
    }
    RETURN_IF_ERROR(epilogue_.Init(p.act, What()));
    paddings_ = p.eff_paddings;
    dims_.clear();
    conv_.reset();
    gemm_on_ = dw_on_ = false;
    lite::arm::Clamp clamp;
    lut_.clear();
    const bool levels_out = IsLevels(p.output_dtype) && !p.residual;
    qc8_ = levels_out && (lite::arm::ClampOf(p.act, &clamp) || IsDefaultHardSwish(p.act));
    if (qc8_) {
      RETURN_IF_ERROR(lite::arm::ClampOf(p.act, &clamp) ? CreateQc8(p, clamp)
                                                          : CreateQc8HardSwish(p));
      if (conv_) return Status::OK();
      qc8_ = false;  // XNNPACK refused the scales: the float arithmetic below
      lut_.clear();
    }
    RETURN_IF_ERROR(CreateGemm(p));
    if (!gemm_on_) RETURN_IF_ERROR(CreateDepthwise(p));
    return gemm_on_ || dw_on_ ? Status::OK() : CreateFloat(p);
  }

  // x86's per-channel factor of the int32 sums (conv_int8_strategy.h:
  // ConvInt8ChannelScales).
  static std::vector<float> SumScales(const operators::ConvParam& p) {
    std::vector<float> scale(p.filter_scales.size());
    for (size_t c = 0; c < scale.size(); ++c)
      scale[c] = p.input_scale / 127.f * (p.filter_scales[c] / 127.f);
    return scale;
  }

  // The clamp the own loops apply: none before a residual add (the add
  // applies it: act(conv + b + r)), else the epilogue's.
  lite::arm::Clamp OwnClamp(const operators::ConvParam& p) const {
    return p.residual ? lite::arm::Clamp() : epilogue_.clamp();
  }

  // After an own loop is packed: its profile name, and the residual add.
  Status OwnLoopReady(const operators::ConvParam& p, const char* name) {
    own_impl_ = std::string("lite:") + name;
    if (p.residual) {
      RETURN_IF_ERROR(CreateResidualAdd(epilogue_.clamp(), &add_));
      own_impl_ += "+xnnpack:add_nd_f32";
    }
    return Status::OK();
  }

  // The float form of a depthwise conv (groups == input channels == output
  // channels) as the exact int8 depthwise loop, on aarch64; dw_on_ stays
  // false for other convs, off aarch64 (only the scalar form there: x86
  // builds keep XNNPACK's f32 conv) and where Pack refuses the filter (a
  // level of -128).
  Status CreateDepthwise(const operators::ConvParam& p) {
    if (lite::arm::Int8Depthwise::CpuForm() == lite::arm::Int8Depthwise::Form::kScalar) {
      return Status::OK();
    }
    const Geometry g = Geo(p);
    if (g.icg != 1 || g.ocg != 1) return Status::OK();
    const std::vector<float> scale = SumScales(p);
    const lite::arm::Clamp clamp = OwnClamp(p);
    const lite::arm::Int8Depthwise::Geometry dg{g.oc, g.kh, g.kw, g.sh, g.sw, g.dh, g.dw,
                                                g.top, g.bottom, g.left, g.right};
    if (!dw_.Pack(p.filter->data<int8_t>(), dg, scale.data(),
                  p.bias ? p.bias->data<float>() : nullptr, lite::arm::Int8Depthwise::CpuForm(),
                  clamp.lo, clamp.hi)) {
      return Status::OK();
    }
    RETURN_IF_ERROR(OwnLoopReady(p, dw_.name()));
    dw_on_ = true;
    return Status::OK();
  }

  // The float form of a conv with one group as the exact int8 GEMM, on
  // CPUs with SDOT: a 1x1 conv (stride 1, no padding) on the input levels
  // as they are, any other by the GEMM's window form (its taps read from a
  // zero-bordered copy of the input, no im2col rows); gemm_on_ stays
  // false for grouped convs, other CPUs and where Pack refuses the filter
  // (a level of -128).
  // Without SDOT (Cortex-A72) the widening form counted more instructions
  // than XNNPACK's f32 GEMM on the slim detector's 1x1 convs (docs/arm.md),
  // and off aarch64 only the scalar form exists.
  Status CreateGemm(const operators::ConvParam& p) {
    if (lite::arm::Int8Gemm::CpuForm() != lite::arm::Int8Gemm::Form::kDot) return Status::OK();
    const DDim& f = p.filter->dims();
    if (p.groups != 1) return Status::OK();
    const auto& pad = p.eff_paddings;
    window_ = f[2] != 1 || f[3] != 1 || p.strides[0] != 1 || p.strides[1] != 1 ||
              std::any_of(pad.begin(), pad.end(), [](int v) { return v != 0; });
    const std::vector<float> scale = SumScales(p);
    const lite::arm::Clamp clamp = OwnClamp(p);
    // [O, KH, KW, I]: a window's taps in order, each tap's channels.
    const std::vector<int8_t> w = RepackFilter<int8_t, int8_t>(
        p.filter->data<int8_t>(), f, [](int64_t, int8_t v) { return v; });
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    const auto form = lite::arm::Int8Gemm::CpuForm();
    const size_t n = static_cast<size_t>(f[0]);
    if (window_) {
      const Geometry g = Geo(p);
      const lite::arm::Int8Gemm::Window win{g.ic, g.kh, g.kw, g.sh, g.sw, g.dh, g.dw,
                                            g.top, g.bottom, g.left, g.right};
      if (!gemm_.PackWindow(w.data(), n, win, scale.data(), bias, form, clamp.lo, clamp.hi)) {
        return Status::OK();
      }
    } else if (!gemm_.Pack(w.data(), n, static_cast<size_t>(f[1] * f[2] * f[3]), scale.data(),
                           bias, form, clamp.lo, clamp.hi)) {
      return Status::OK();
    }
    RETURN_IF_ERROR(OwnLoopReady(p, gemm_.name()));
    gemm_on_ = true;
    return Status::OK();
  }

  // Paddle's default hard_swish (threshold 6, scale 6, offset 3):
  // x * min(max(x + 3, 0), 6) / 6.
  static bool IsDefaultHardSwish(const operators::FusedActivation& a) {
    return a.kind == operators::FusedActivation::kHardSwish && a.alpha == 6.f && a.beta == 6.f &&
           a.gamma == 3.f;
  }

  // The operator's geometry, shared by both creations.
  struct Geometry {
    uint32_t top, right, bottom, left, kh, kw, sh, sw, dh, dw, groups;
    size_t icg, ocg, ic, oc;
  };
  Geometry Geo(const operators::ConvParam& p) const {
    const DDim& f = p.filter->dims();
    const auto& pad = p.eff_paddings;  // top, bottom, left, right
    const uint32_t g = static_cast<uint32_t>(p.groups);
    return {static_cast<uint32_t>(pad[0]), static_cast<uint32_t>(pad[3]),
            static_cast<uint32_t>(pad[1]), static_cast<uint32_t>(pad[2]),
            static_cast<uint32_t>(f[2]), static_cast<uint32_t>(f[3]),
            static_cast<uint32_t>(p.strides[0]), static_cast<uint32_t>(p.strides[1]),
            static_cast<uint32_t>(p.eff_dilations[0]), static_cast<uint32_t>(p.eff_dilations[1]),
            g, static_cast<size_t>(f[1]), static_cast<size_t>(f[0] / g),
            static_cast<size_t>(f[1] * g), static_cast<size_t>(f[0])};
  }

  // The clamp forms: XNNPACK writes the output levels (Output_scale / 127,
  // zero point 0), the activation as its clamp in levels.
  Status CreateQc8(const operators::ConvParam& p, const lite::arm::Clamp& clamp) {
    // The clamp in levels: rounding is monotonic, so clamping the rounded
    // levels equals rounding the clamped values.
    const float factor = 127.f / p.output_scale;
    float lo = LowestLevel(p.output_round_type), hi = 127.f;
    if (std::isfinite(clamp.lo)) lo = std::max(lo, operators::quant::RoundTiesToEven(clamp.lo * factor));
    if (std::isfinite(clamp.hi)) hi = std::min(hi, operators::quant::RoundTiesToEven(clamp.hi * factor));
    return CreateQc8Levels(p, p.output_scale / 127.f, 0, static_cast<int8_t>(lo),
                           static_cast<int8_t>(hi));
  }

  // The hard_swish form: XNNPACK writes the pre-activation value z as s8
  // levels of its own (z = (l - zero) * step, l = -128 at z = -3, l = 127 at
  // z = max(3, Output_scale * 128 / 127)); a 256-entry table then maps each
  // level to hard_swish(z) requantized by x86's rule. Below -3 hard_swish
  // is 0, above the top its output level is 127, so saturating z there
  // changes nothing. Not the simulation's exact arithmetic: z is rounded
  // once more, to a step of (top + 3) / 255 (at most half a step, times
  // hard_swish's slope <= 1.5), so an output level can differ by one from
  // the float form's; docs/arm.md gives the models' results.
  Status CreateQc8HardSwish(const operators::ConvParam& p) {
    const float top = std::max(3.f, p.output_scale * 128.f / 127.f);
    const float step = (top + 3.f) / 255.f;
    const float zero = std::nearbyint(-128.f + 3.f / step);
    RETURN_IF_ERROR(CreateQc8Levels(p, step, static_cast<int8_t>(zero), -128, 127));
    if (!conv_) return Status::OK();
    std::vector<float> z(256);
    for (int l = -128; l <= 127; ++l) z[l + 128] = (static_cast<float>(l) - zero) * step;
    p.act.ApplyInPlace(z.data(), 256);
    lut_.resize(256);
    RequantizeLevels(z.data(), lut_.data(), 256, 127.f / p.output_scale,
                     LowestLevel(p.output_round_type));
    return Status::OK();
  }

  // convolution2d_nhwc_qc8 writing s8 levels of `out_scale` and `out_zero`,
  // clamped to [lo, hi]; conv_ stays empty where XNNPACK refuses the scales.
  Status CreateQc8Levels(const operators::ConvParam& p, float out_scale, int8_t out_zero,
                         int8_t lo, int8_t hi) {
    const Geometry g = Geo(p);
    const float in_scale = p.input_scale / 127.f;
    std::vector<float> kernel_scale(g.oc);
    std::vector<int8_t> sign(g.oc);
    for (size_t c = 0; c < g.oc; ++c) {
      const float s = p.filter_scales[c];
      sign[c] = s > 0.f ? 1 : s < 0.f ? -1 : 0;
      kernel_scale[c] = sign[c] == 0 ? 1.f : std::fabs(s) / 127.f;
    }
    const std::vector<int8_t> w = RepackFilter<int8_t, int8_t>(
        p.filter->data<int8_t>(), p.filter->dims(),
        [&](int64_t o, int8_t v) { return static_cast<int8_t>(sign[o] * v); });
    std::vector<int32_t> bias(g.oc, 0);
    if (p.bias) {
      const float* b = p.bias->data<float>();
      for (size_t c = 0; c < g.oc; ++c) {
        const double q = std::nearbyint(double(b[c]) / (double(in_scale) * kernel_scale[c]));
        bias[c] = static_cast<int32_t>(std::min(std::max(q, -2147483648.0), 2147483647.0));
      }
    }
    xnn_operator_t op = nullptr;
    const xnn_status s = xnn_create_convolution2d_nhwc_qc8(
        g.top, g.right, g.bottom, g.left, g.kh, g.kw, g.sh, g.sw, g.dh, g.dw, g.groups, g.icg,
        g.ocg, g.ic, g.oc, 0, in_scale, kernel_scale.data(), w.data(), bias.data(), out_zero,
        out_scale, lo, hi, 0, &op);
    // XNNPACK refuses requantization scales (in * kernel / out) of 256 and
    // more as unsupported: those convs take the float arithmetic instead.
    if (s == xnn_status_unsupported_parameter) return Status::OK();
    RETURN_IF_ERROR(Check(s, "xnn_create_convolution2d_nhwc_qc8"));
    conv_.reset(op);
    return Status::OK();
  }

  Status CreateFloat(const operators::ConvParam& p) {
    const Geometry g = Geo(p);
    // Levels times Filter_scales[c] / 127: the simulation's weights.
    const std::vector<float> w = RepackFilter<int8_t, float>(
        p.filter->data<int8_t>(), p.filter->dims(), [&](int64_t o, int8_t v) {
          return static_cast<float>(v) * p.filter_scales[o] / 127.f;
        });
    // Clamp after the residual add, when there is one (act(conv + b + r)).
    const lite::arm::Clamp clamp = epilogue_.clamp();
    const lite::arm::Clamp conv_clamp = p.residual ? lite::arm::Clamp() : clamp;
    xnn_operator_t op = nullptr;
    RETURN_IF_ERROR(Check(xnn_create_convolution2d_nhwc_f32(
                              g.top, g.right, g.bottom, g.left, g.kh, g.kw, g.sh, g.sw, g.dh, g.dw,
                              g.groups, g.icg, g.ocg, g.ic, g.oc, w.data(),
                              p.bias ? p.bias->data<float>() : nullptr, conv_clamp.lo,
                              conv_clamp.hi, 0, &op),
                          "xnn_create_convolution2d_nhwc_f32"));
    conv_.reset(op);
    if (p.residual) RETURN_IF_ERROR(CreateResidualAdd(clamp, &add_));
    return Status::OK();
  }

  // s8 levels of the input: the producer's, or the float input quantized
  // by the op's rule.
  const int8_t* InputLevels(const operators::ConvParam& p) {
    if (IsLevels(p.input_dtype)) return static_cast<const int8_t*>(p.input->raw_data());
    levels_.resize(static_cast<size_t>(p.input->numel()));
    QuantizeLevels(p.input->data<float>(), levels_.data(), levels_.size(), p.input_scale,
                   p.quant_round_type);
    return levels_.data();
  }

  // Sets the conv up again when the dims, a buffer or the pool changed
  // (XNNPACK binds them at setup), then runs it.
  template <typename X, typename Y, typename SetupFn>
  Status SetupAndRun(const DDim& in, const X* x, Y* y, SetupFn setup, const char* call) {
    const bool pool_changed = PoolChanged();
    if (in != dims_ || x != x_ || y != y_ || pool_changed) {
      RETURN_IF_ERROR(Check(setup(conv_.get(), in[0], in[2], in[3], x, y, pool()), call));
      dims_ = in;
      x_ = x;
      y_ = y;
    }
    return Check(xnn_run_operator(conv_.get(), pool()), "xnn_run_operator (conv)");
  }

  Status RunQc8(const operators::ConvParam& p) {
    const DDim& in = p.input->dims();
    const int8_t* x = InputLevels(p);
    int8_t* y = static_cast<int8_t*>(p.output->mutable_data(p.output_dtype));
    RETURN_IF_ERROR(SetupAndRun(in, x, y, xnn_setup_convolution2d_nhwc_qc8,
                                "xnn_setup_convolution2d_nhwc_qc8"));
    if (!lut_.empty()) {
      LookupLevels(y, y, static_cast<size_t>(p.output->numel()), lut_.data());
    }
    return Status::OK();
  }

  Status RunFloat(const operators::ConvParam& p) {
    const DDim& in = p.input->dims();
    // The simulation's input: level * Input_scale / 127.
    const size_t n_in = static_cast<size_t>(p.input->numel());
    input_.resize(n_in);
    if (p.input_dtype == DataType::kUInt8) {
      DequantizeLevels(p.input->data<uint8_t>(), input_.data(), n_in, p.input_scale);
    } else if (p.input_dtype == DataType::kInt8) {
      DequantizeLevels(p.input->data<int8_t>(), input_.data(), n_in, p.input_scale);
    } else {
      QuantDequantLevels(p.input->data<float>(), input_.data(), n_in, p.input_scale,
                         p.quant_round_type);
    }
    float* y = FloatOutput(p);
    const float* x = input_.data();
    RETURN_IF_ERROR(SetupAndRun(in, x, y, xnn_setup_convolution2d_nhwc_f32,
                                "xnn_setup_convolution2d_nhwc_f32"));
    return Finish(p, y);
  }

  // The exact int8 GEMM or depthwise loop on the input's levels (the float
  // input quantized by the op's rule first), then the float form's
  // remaining steps.
  Status RunOwn(const operators::ConvParam& p) {
    const int8_t* x = InputLevels(p);
    const DDim& in = p.input->dims();
    float* y = FloatOutput(p);
    if (gemm_on_ && window_) {
      gemm_.RunWindow(x, static_cast<size_t>(in[0]), static_cast<size_t>(in[2]),
                      static_cast<size_t>(in[3]), y, pool());
    } else if (gemm_on_) {
      const DDim& out = p.output->dims();
      gemm_.Run(x, static_cast<size_t>(out[0] * out[2] * out[3]), y, pool());
    } else {
      dw_.Run(x, static_cast<size_t>(in[0]), static_cast<size_t>(in[2]),
              static_cast<size_t>(in[3]), y, pool());
    }
    return Finish(p, y);
  }

  // Where the float form writes the conv's float values: the output, or
  // for levels output a buffer Finish requantizes from.
  float* FloatOutput(const operators::ConvParam& p) {
    if (!IsLevels(p.output_dtype)) return p.output->mutable_data<float>();
    output_.resize(static_cast<size_t>(p.output->numel()));
    return output_.data();
  }

  // The float form's steps after the conv: the residual add, the
  // activation the clamp does not cover, and for levels output x86's
  // requantization of y into the output.
  Status Finish(const operators::ConvParam& p, float* y) {
    const size_t n = static_cast<size_t>(p.output->numel());
    if (p.residual) RETURN_IF_ERROR(RunResidualAdd(add_.get(), *p.residual, p.output->dims(), y));
    RETURN_IF_ERROR(epilogue_.Run(y, n, pool()));
    if (!IsLevels(p.output_dtype)) return Status::OK();
    // x86's levels: x * 127 / Output_scale, nearest even, clipped. (A
    // first version rounded with RoundTiesToEven's floor / ceil compare per
    // value: cls then took 11x the simulation's time.)
    int8_t* q = static_cast<int8_t*>(p.output->mutable_data(p.output_dtype));
    RequantizeLevels(y, q, n, 127.f / p.output_scale, LowestLevel(p.output_round_type));
    return Status::OK();
  }

  lite::arm::XnnOperator conv_, add_;
  bool qc8_ = false;
  lite::arm::Int8Gemm gemm_;        // the float form of convs with one group
  lite::arm::Int8Depthwise dw_;     // the float form of depthwise convs
  bool gemm_on_ = false, dw_on_ = false;
  bool window_ = false;        // the GEMM's window form (not a plain 1x1 conv)
  std::string own_impl_;
  Epilogue epilogue_;
  std::vector<int> paddings_;
  DDim dims_;
  std::vector<int8_t> levels_;  // the quantized float input (qc8, own loops)
  std::vector<int8_t> lut_;     // the hard_swish form's table (qc8)
  std::vector<float> input_, output_;  // the float arithmetic's buffers
  const void* x_ = nullptr;  // the buffers of the last setup
  const void* y_ = nullptr;
};

// The int8 form with NCHW attributes and a fused activation the float
// arithmetic computes; Input / Output as levels exactly when the binding says.
template <bool kInLevels, bool kOutLevels>
bool ConvInt8Accepts(const cpp::OpDesc& desc) {
  auto levels = [&](const char* attr) {
    const std::string t = desc.GetAttr<std::string>(attr, "float32");
    return t == "int8" || t == "uint8";
  };
  return desc.GetAttr<bool>("enable_int8", false) &&
         operators::FusedActivation::FromOpDesc(desc).ok() &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC" &&
         desc.GetAttr<float>("fuse_post_scale", 1.f) == 1.f &&
         desc.GetAttr<float>("fuse_post_bias", 0.f) == 0.f && levels("Input_dtype") == kInLevels &&
         levels("Output_dtype") == kOutLevels;
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

// One kernel, four bindings: Input and Output float32 ("def") or levels
// (int8_requantize_pass sets Input_dtype / Output_dtype), as on x86.
#define LITE_REGISTER_ARM_INT8_CONV(op, alias, in_p, out_p, in_levels, out_levels)          \
  REGISTER_LITE_KERNEL(op, kARM, kInt8, kNHWC, lite::kernels::arm::ConvInt8Compute, alias)  \
      .BindInput("Input", lite::Place(TARGET(kARM), PRECISION(in_p), DATALAYOUT(kNHWC)))   \
      .BindInput("Bias", lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))  \
      .BindInput("ResidualData",                                                            \
                 lite::Place(TARGET(kARM), PRECISION(kFloat), DATALAYOUT(kNHWC)))           \
      .BindOutput("Output", lite::Place(TARGET(kARM), PRECISION(out_p), DATALAYOUT(kNHWC))) \
      .SetAccepts(lite::kernels::arm::ConvInt8Accepts<(in_levels), (out_levels)>)           \
      .Finalize()

LITE_REGISTER_ARM_INT8_CONV(conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_ARM_INT8_CONV(conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_ARM_INT8_CONV(conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_ARM_INT8_CONV(conv2d, levels_in_out, kInt8, kInt8, true, true);
LITE_REGISTER_ARM_INT8_CONV(depthwise_conv2d, def, kFloat, kFloat, false, false);
LITE_REGISTER_ARM_INT8_CONV(depthwise_conv2d, levels_in, kInt8, kFloat, true, false);
LITE_REGISTER_ARM_INT8_CONV(depthwise_conv2d, levels_out, kFloat, kInt8, false, true);
LITE_REGISTER_ARM_INT8_CONV(depthwise_conv2d, levels_in_out, kInt8, kInt8, true, true);
