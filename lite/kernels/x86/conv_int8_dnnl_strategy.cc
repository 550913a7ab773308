// The int8 conv's general strategy, last in its list: oneDNN's int8
// convolution, which takes every conv the kernel is registered for except
// conv2d_resize_add (only the 1x1 strategy computes it).
//
// oneDNN convolves the NHWC levels s8 x s8 (or u8 after a non-negative
// activation: the VNNI path without the s8 compensation) with int32
// accumulation (VNNI kernels where the CPU has them: impl_info() names what
// the primitive got, e.g. "brg:avx512_core_vnni") and writes float32 NHWC
// through per-channel output scales Input_scale / 127 * Filter_scales[c] /
// 127 (the bias joins the int32 sums before them, as oneDNN 2.x does, so
// it is passed divided by them), a float32 ResidualData
// (conv_residual_fuse_pass) and the fused activation as post-ops. The int32
// sums are exact, so the result differs from the float32 simulation only by
// float rounding. Between int8 convs (int8_requantize_pass, see conv_op.h)
// the output is requantized in the post-ops: activation, x * 127 /
// Output_scale, clip to the level range, then oneDNN's conversion rounds to
// nearest even (round_type 0 exactly; round_type 1 differs only at exact
// halves) and writes s8 / u8. Filter levels are reordered once into the
// layout oneDNN picks, again only when a new shape makes it pick another.
#include <string>
#include <vector>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_int8_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using dnnl::memory;
using lite::x86::CpuEngine;
using lite::x86::WrapMemory;

// float32 input is quantized here to s8; levels come as they are.
memory::data_type DnnlType(DataType t, bool is_input) {
  switch (t) {
    case DataType::kInt8: return memory::data_type::s8;
    case DataType::kUInt8: return memory::data_type::u8;
    default: return is_input ? memory::data_type::s8 : memory::data_type::f32;
  }
}

// ResidualData (float32, added after the output scales and bias), the fused
// activation, the post-activation affine map, then for a levels output the
// consumer's quantization: x * 127 / Output_scale clipped to [-127, 127]
// (round_type 1: x clipped to [-s, s]) or [-128, 127] (round_type 0); the
// conversion to s8 / u8 rounds (u8 takes only non-negative activations).
dnnl::primitive_attr RequantizingAttr(const operators::ConvParam& p,
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

class DnnlStrategy : public ConvInt8Strategy {
 public:
  const char* name() const override { return "onednn"; }

  Verdict Accepts(const ConvInt8Context& c) const override {
    if (c.p.addend) return Verdict::Decline("conv2d_resize_add runs only on the 1x1 kernel");
    return Verdict::Accept();
  }

  Status Plan(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
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
    for (size_t ch = 0; ch < scales.size(); ++ch) {
      scales[ch] = p.input_scale / 127.f * (p.filter_scales[ch] / 127.f);
      if (scales[ch] == 0.f) scales[ch] = 1.f;
      if (p.bias) scaled_bias_[ch] = p.bias->data<float>()[ch] / scales[ch];
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
      dnnl::reorder(user_w, weights_).execute(c.kernel.stream(), user_w, weights_);
      c.kernel.stream().wait();
    }
    return Status::OK();
  }

  Status Run(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    DnnlKernel& k = c.kernel;
    const void* levels = nullptr;
    RETURN_IF_ERROR(c.Levels(&levels));
    memory src = k.Mem(DNNL_ARG_SRC, src_md_, levels);
    memory dst = k.Mem(DNNL_ARG_DST, dst_md_, ConvInt8OutputData(p));
    if (p.bias) k.AddArg(DNNL_ARG_BIAS, k.Mem(DNNL_ARG_BIAS, bias_md_, scaled_bias_.data()));
    if (p.residual) {
      constexpr int kResidualArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
      k.AddArg(kResidualArg, k.Mem(kResidualArg, residual_md_, p.residual->data<float>()));
    }
    k.Execute(conv_, {{DNNL_ARG_SRC, src},
                      {DNNL_ARG_WEIGHTS, weights_},
                      {DNNL_ARG_DST, dst},
                      {DNNL_ARG_SCRATCHPAD, k.Temp(scratch_md_)}});
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  dnnl::convolution_forward conv_;
  memory::desc src_md_, dst_md_, bias_md_, scratch_md_, weights_md_, residual_md_;
  memory weights_;
  std::vector<float> scaled_bias_;  // Bias / output scale, per channel
  std::string impl_info_;
};

}  // namespace

std::unique_ptr<ConvInt8Strategy> MakeConvInt8DnnlStrategy() {
  return std::make_unique<DnnlStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
