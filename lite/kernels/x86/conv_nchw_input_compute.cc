// x86 conv2d and conv2d_max_pool for 1-4 input channels (a model's first
// layer, on the fed image): lite/backends/x86/nchw_input_conv.h reads Input
// in NCHW (bound so below; layout_cast_pass then inserts no reorder for it)
// and writes the output in NHWC like every x86 kernel.
// static_kernel_pick_pass picks it over the oneDNN conv (conv_compute.cc) by
// the filter's declared dims: exactly one of the two accepts a conv2d
// (NchwInputConvFits).
#include "lite/backends/x86/nchw_input_conv.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/operators/conv_max_pool_op.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

bool NchwInputConvFits(const cpp::OpDesc& desc, const VarDimsFn& var_dims) {
  if (!lite::x86::NchwInputConv::Available() || !desc.HasInput("Filter") ||
      desc.Input("Filter").size() != 1 || desc.GetAttr<int>("groups", 1) != 1 ||
      desc.GetAttr<std::string>("data_format", "NCHW") == "NHWC" ||
      desc.HasInput("ResidualData") || desc.HasAttr("fuse_post_scale") ||
      desc.HasAttr("fuse_post_bias") || !operators::FusedActivation::FromOpDesc(desc).ok()) {
    return false;
  }
  const std::vector<int64_t> f = var_dims(desc.Input("Filter")[0]);
  if (f.size() != 4 || f[0] <= 0 || f[1] < 1 || f[1] > kNchwInputMaxChannels || f[2] <= 0 ||
      f[3] <= 0) {
    return false;
  }
  if (!desc.HasInput("Input") || desc.Input("Input").size() != 1) return false;
  const std::vector<int64_t> in = var_dims(desc.Input("Input")[0]);
  return in.empty() || (in.size() == 4 && (in[1] == -1 || in[1] == f[1]));
}

namespace {

using lite::x86::NchwInputConv;

// The backend's geometry for `p`, its weights set on first use.
StatusOr<NchwInputConv::Shape> ShapeAndWeights(const operators::ConvParam& p,
                                               NchwInputConv* conv) {
  const DDim& in = p.input->dims();
  const DDim& f = p.filter->dims();
  const DDim& out = p.output->dims();
  if (in.size() != 4 || out.size() != 4 || f[1] != in[1] || p.groups != 1) {
    return InvalidArgument("conv2d (x86, NCHW input): wants a dense conv of a rank-4 input, "
                           "got input " + DimsToString(in) + ", filter " + DimsToString(f));
  }
  if (!conv->has_weights()) {
    conv->SetWeights(p.filter->data<float>(), p.bias ? p.bias->data<float>() : nullptr, f[0],
                     f[1], f[2], f[3]);
  }
  NchwInputConv::Shape s;
  s.n = in[0];
  s.ih = in[2];
  s.iw = in[3];
  s.oh = out[2];
  s.ow = out[3];
  s.stride_h = p.strides[0];
  s.stride_w = p.strides[1];
  s.pad_top = p.eff_paddings[0];
  s.pad_left = p.eff_paddings[2];
  s.dilation_h = p.eff_dilations[0];
  s.dilation_w = p.eff_dilations[1];
  return s;
}

class ConvNchwInputCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::ConvParam>();
    ASSIGN_OR_RETURN(NchwInputConv::Shape s, ShapeAndWeights(p, &conv_));
    conv_.Run(s, p.input->data<float>(), p.act, p.output->mutable_data<float>(), threads());
    return Status::OK();
  }

 private:
  NchwInputConv conv_;
};

// conv2d_max_pool (lite/operators/conv_max_pool_op.h): the pool runs on conv
// rows kept in cache; the op's intermediate var is never allocated.
class ConvMaxPoolNchwInputCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::ConvMaxPoolParam>();
    ASSIGN_OR_RETURN(NchwInputConv::Shape s, ShapeAndWeights(*p.conv, &conv_));
    const operators::PoolParam& pp = *p.pool;
    const DDim& out = pp.out->dims();
    NchwInputConv::Pool pool;
    pool.oh = out[2];
    pool.ow = out[3];
    pool.kh = pp.eff_ksize[0];
    pool.kw = pp.eff_ksize[1];
    pool.stride_h = pp.strides[0];
    pool.stride_w = pp.strides[1];
    pool.pad_top = pp.eff_paddings[0];
    pool.pad_left = pp.eff_paddings[2];
    conv_.RunMaxPooled(s, pool, p.conv->input->data<float>(), p.conv->act,
                       pp.out->mutable_data<float>(), threads());
    return Status::OK();
  }

 private:
  NchwInputConv conv_;
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(conv2d, kX86, kFloat, kNHWC, lite::kernels::x86::ConvNchwInputCompute,
                     nchw_input)
    .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))
    .SetAcceptsDims(lite::kernels::x86::NchwInputConvFits)
    .Finalize();
REGISTER_LITE_KERNEL(conv2d_max_pool, kX86, kFloat, kNHWC,
                     lite::kernels::x86::ConvMaxPoolNchwInputCompute, def)
    .BindInput("Input", lite::Place(TARGET(kX86), PRECISION(kFloat), DATALAYOUT(kNCHW)))
    .SetAcceptsDims(lite::kernels::x86::NchwInputConvFits)
    .Finalize();
