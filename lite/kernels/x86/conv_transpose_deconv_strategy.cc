// The transposed conv's oneDNN deconvolution strategy: stride-1 transposes
// (any kernel, padding, dilation, groups) on oneDNN's deconvolution
// primitive, bias and fused activation as post-ops, weights (Paddle's
// [C_in, C_out / groups, kh, kw], oneDNN's iohw / giohw) reordered once into
// the layout oneDNN picks. The output size the op inferred (output_padding
// / output_size included) becomes the right/bottom padding; a transpose
// where that would be negative is declined (the host strategy takes it).
// Strided transposes are declined: oneDNN 2.6's strided deconvolution is
// slower than the host kernel (conv_transpose_compute.h). impl_info() is the
// primitive's oneDNN name.
#include <string>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_transpose_compute.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using dnnl::memory;

class DeconvStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "onednn_deconv"; }

  Verdict Accepts(const ConvTransposeContext& c) const override {
    const operators::ConvTransposeParam& p = c.p;
    if (p.strides[0] != 1 || p.strides[1] != 1) {
      return Verdict::Decline("strided (oneDNN's strided deconvolution is slow)");
    }
    memory::dims pad_r;
    if (!RightPadding(p, &pad_r)) {
      return Verdict::Decline("output larger than the windows reach (negative padding)");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    ConvTransposeCompute& kernel = c.kernel;
    memory::dims pad_r;
    RightPadding(p, &pad_r);
    const DDim& f = p.filter->dims();  // [C_in, C_out / g, kh, kw]
    const int64_t g = p.groups, c_out = p.output->dims()[1];
    const auto f32 = memory::data_type::f32;
    memory::dims wdims = g > 1 ? memory::dims{g, f[1], f[0] / g, f[2], f[3]}
                               : memory::dims{f[1], f[0], f[2], f[3]};
    memory::desc bias_md =
        p.bias ? memory::desc({c_out}, f32, memory::format_tag::x) : memory::desc();
    dnnl::deconvolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
        kernel.Desc(*p.input), memory::desc(wdims, f32, memory::format_tag::any), bias_md,
        kernel.Desc(*p.output), {p.strides[0], p.strides[1]},
        {p.eff_dilations[0] - 1, p.eff_dilations[1] - 1},
        {p.eff_paddings[0], p.eff_paddings[2]}, pad_r);
    dnnl::primitive_attr attr = lite::x86::ActivationAttr(p.act);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::deconvolution_forward::primitive_desc pd(desc, attr, lite::x86::CpuEngine());
    impl_info_ = pd.impl_info_str();
    deconv_ = dnnl::deconvolution_forward(pd);
    scratch_md_ = pd.scratchpad_desc();
    if (!weights_ || pd.weights_desc() != weights_md_) {
      weights_md_ = pd.weights_desc();
      weights_ = memory(weights_md_, lite::x86::CpuEngine());
      memory user = lite::x86::WrapMemory(
          memory::desc(wdims, f32, g > 1 ? memory::format_tag::giohw : memory::format_tag::iohw),
          p.filter->data<float>());
      dnnl::reorder(user, weights_).execute(kernel.stream(), user, weights_);
      kernel.stream().wait();
    }
    return Status::OK();
  }

  Status Run(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    ConvTransposeCompute& kernel = c.kernel;
    if (p.bias) {
      kernel.AddArg(DNNL_ARG_BIAS,
                    kernel.Mem(DNNL_ARG_BIAS,
                               memory::desc({p.output->dims()[1]}, memory::data_type::f32,
                                            memory::format_tag::x),
                               p.bias->data<float>()));
    }
    kernel.Execute(
        deconv_,
        {{DNNL_ARG_SRC, kernel.Mem(DNNL_ARG_SRC, kernel.Desc(*p.input), p.input->data<float>())},
         {DNNL_ARG_WEIGHTS, weights_},
         {DNNL_ARG_DST,
          kernel.Mem(DNNL_ARG_DST, kernel.Desc(*p.output), p.output->mutable_data<float>())},
         {DNNL_ARG_SCRATCHPAD, kernel.Temp(scratch_md_)}});
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  // The right/bottom padding that makes oneDNN's output the size the op
  // inferred; false when it would be negative.
  static bool RightPadding(const operators::ConvTransposeParam& p, memory::dims* pad_r) {
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    pad_r->assign(2, 0);
    for (int i = 0; i < 2; ++i) {
      const int64_t dk = static_cast<int64_t>(p.eff_dilations[i]) * (p.filter->dims()[2 + i] - 1) + 1;
      (*pad_r)[i] = (in[2 + i] - 1) * p.strides[i] + dk - p.eff_paddings[2 * i] - out[2 + i];
      if ((*pad_r)[i] < 0) return false;
    }
    return true;
  }

  std::string impl_info_;
  dnnl::deconvolution_forward deconv_;
  memory::desc weights_md_, scratch_md_;
  memory weights_;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeDeconvStrategy() {
  return std::make_unique<DeconvStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
