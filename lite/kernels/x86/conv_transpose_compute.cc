// x86 conv2d_transpose / depthwise_conv2d_transpose on oneDNN's
// deconvolution primitive, bias and fused activation as post-ops, weights
// (Paddle's [C_in, C_out / groups, kh, kw], oneDNN's iohw / giohw) reordered
// once into the layout oneDNN picks, primitive per input shape. The output
// size the op inferred (output_padding / output_size included) becomes the
// right/bottom padding; when that would be negative the run goes to the host
// kernel on NCHW copies. Registered at layout NHWC.
// Strided transposes decline at kernel pick: oneDNN 2.6's deconvolution
// (a backward-data convolution) takes ~450 ms on PP-OCR det's 24-channel
// 2x2 stride-2 layer at 160x160 in NHWC and longer in nChw16c, against
// ~10 ms for the host kernel; the kernel stays correct for them (tested).
#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/host_fallback.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using dnnl::memory;

class ConvTransposeCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::ConvTransposeParam>();
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    memory::dims pad_r(2);
    for (int i = 0; i < 2; ++i) {
      const int64_t dk = static_cast<int64_t>(p.eff_dilations[i]) * (p.filter->dims()[2 + i] - 1) + 1;
      pad_r[i] = (in[2 + i] - 1) * p.strides[i] + dk - p.eff_paddings[2 * i] - out[2 + i];
      if (pad_r[i] < 0) return RunOnHost(p);
    }
    if (in != dims_) RETURN_IF_ERROR(Plan(p, pad_r));
    const auto f32 = memory::data_type::f32;
    std::unordered_map<int, memory> args{
        {DNNL_ARG_SRC, lite::x86::WrapMemory(Desc(*p.input), p.input->data<float>())},
        {DNNL_ARG_WEIGHTS, weights_},
        {DNNL_ARG_DST, lite::x86::WrapMemory(Desc(*p.output), p.output->mutable_data<float>())},
        {DNNL_ARG_SCRATCHPAD, Temp(scratch_md_)}};
    if (p.bias) {
      args[DNNL_ARG_BIAS] = lite::x86::WrapMemory(
          memory::desc({out[1]}, f32, memory::format_tag::x), p.bias->data<float>());
    }
    deconv_.execute(stream(), args);
    return Status::OK();
  }

 private:
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
  HostFallback fallback_;
};

bool ConvTransposeAccepts(const cpp::OpDesc& desc) {
  auto act = operators::FusedActivation::FromOpDesc(desc);
  return act.ok() && lite::x86::DnnlExpressible(*act) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC" &&
         !desc.HasInput("OutputSize") &&
         desc.GetAttr<std::vector<int>>("strides", {1, 1}) == std::vector<int>{1, 1};
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
