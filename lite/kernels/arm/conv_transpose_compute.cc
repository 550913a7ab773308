// arm conv2d_transpose / depthwise_conv2d_transpose (float32, NHWC) on
// XNNPACK's deconvolution2d_nhwc_f32: strides, dilations, groups, paddings
// and output_padding / output_size (XNNPACK's adjustment: the output
// rows and columns beyond the last full stride, below the stride), with any
// fused activation (epilogue.h). The filter [I, O/g, KH, KW] is repacked
// once to XNNPACK's [g][O/g][KH][KW][I/g] and packed when the operator is
// created (first run; again when the resolved paddings change). Set up again
// when the input dims, a pointer or the thread count change. Declines at
// kernel pick: NHWC data_format, ResidualData.
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/kernels/arm/epilogue.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class ConvTransposeCompute : public ArmKernel {
 public:
  Status Init() override {
    RETURN_IF_ERROR(ArmKernel::Init());
    const auto& p = Param<operators::ConvTransposeParam>();
    return CheckConstantWeights(p.filter, p.bias);
  }

  Status Run() override {
    const auto& p = Param<operators::ConvTransposeParam>();
    if (!op_ || p.eff_paddings != paddings_) RETURN_IF_ERROR(Create(p));
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    const int64_t kh = p.filter->dims()[2], kw = p.filter->dims()[3];
    const auto& pad = p.eff_paddings;
    // Output beyond (in - 1) * stride + the dilated kernel - paddings.
    const int64_t adj_h = out[2] - ((in[2] - 1) * p.strides[0] +
                                    p.eff_dilations[0] * (kh - 1) + 1 - pad[0] - pad[1]);
    const int64_t adj_w = out[3] - ((in[3] - 1) * p.strides[1] +
                                    p.eff_dilations[1] * (kw - 1) + 1 - pad[2] - pad[3]);
    if (adj_h < 0 || adj_w < 0 || adj_h >= p.strides[0] || adj_w >= p.strides[1]) {
      return Unimplemented(What() + ": output " + DimsToString(out) + " for input " +
                           DimsToString(in) + " needs an adjustment XNNPACK does not take");
    }
    const float* x = p.input->data<float>();
    float* y = p.output->mutable_data<float>();
    if (in != dims_ || x != x_ || y != y_ || adj_h != adj_h_ || adj_w != adj_w_ || PoolChanged()) {
      RETURN_IF_ERROR(Check(xnn_setup_deconvolution2d_nhwc_f32(op_.get(), in[0], in[2], in[3],
                                                               adj_h, adj_w, x, y, pool()),
                            "xnn_setup_deconvolution2d_nhwc_f32"));
      dims_ = in;
      x_ = x;
      y_ = y;
      adj_h_ = adj_h;
      adj_w_ = adj_w;
    }
    RETURN_IF_ERROR(Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (deconv)"));
    return epilogue_.Run(y, static_cast<size_t>(p.output->numel()), pool());
  }

 private:
  Status Create(const operators::ConvTransposeParam& p) {
    const DDim& f = p.filter->dims();
    const int64_t g = p.groups;
    if (f.size() != 4 || g < 1 || f[0] % g != 0) {
      return InvalidArgument(What() + ": filter dims " + DimsToString(f) + " with groups " +
                             std::to_string(p.groups));
    }
    RETURN_IF_ERROR(epilogue_.Init(p.act, What()));
    const lite::arm::Clamp c = epilogue_.clamp();
    const int64_t ic = f[0], icg = ic / g, ocg = f[1], kh = f[2], kw = f[3], k = kh * kw;
    // [I, O/g, KH, KW] -> [g][O/g][KH][KW][I/g].
    std::vector<float> w(static_cast<size_t>(p.filter->numel()));
    const float* src = p.filter->data<float>();
    for (int64_t gi = 0; gi < g; ++gi)
      for (int64_t i = 0; i < icg; ++i)
        for (int64_t o = 0; o < ocg; ++o)
          for (int64_t s = 0; s < k; ++s)
            w[((gi * ocg + o) * k + s) * icg + i] = src[(((gi * icg + i) * ocg) + o) * k + s];
    const auto& pad = p.eff_paddings;  // top, bottom, left, right
    xnn_operator_t op = nullptr;
    RETURN_IF_ERROR(Check(
        xnn_create_deconvolution2d_nhwc_f32(
            pad[0], pad[3], pad[1], pad[2], kh, kw, p.strides[0], p.strides[1],
            p.eff_dilations[0], p.eff_dilations[1], g, icg, ocg, ic, ocg * g, w.data(),
            p.bias ? p.bias->data<float>() : nullptr, c.lo, c.hi, 0, &op),
        "xnn_create_deconvolution2d_nhwc_f32"));
    op_.reset(op);
    paddings_ = p.eff_paddings;
    dims_.clear();
    return Status::OK();
  }

  lite::arm::XnnOperator op_;
  Epilogue epilogue_;
  std::vector<int> paddings_;
  DDim dims_;
  int64_t adj_h_ = -1, adj_w_ = -1;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

bool ConvTransposeAccepts(const cpp::OpDesc& desc) {
  return operators::FusedActivation::FromOpDesc(desc).ok() && !desc.HasInput("ResidualData") &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC" &&
         desc.GetAttr<float>("fuse_post_scale", 1.f) == 1.f &&
         desc.GetAttr<float>("fuse_post_bias", 0.f) == 0.f;
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d_transpose, kARM, kFloat, kNHWC,
                     lite::kernels::arm::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::arm::ConvTransposeAccepts)
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d_transpose, kARM, kFloat, kNHWC,
                     lite::kernels::arm::ConvTransposeCompute, def)
    .SetAccepts(lite::kernels::arm::ConvTransposeAccepts)
    .Finalize();
