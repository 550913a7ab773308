#include "lite/kernels/x86/conv_compute.h"

#include <algorithm>
#include <limits>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/post_ops.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

using dnnl::memory;
using lite::x86::CpuEngine;
using lite::x86::WrapMemory;

namespace {
// A dense 3x3 conv with stride 1 and no dilation: what Winograd F(m, 3)
// computes.
bool Dense3x3Stride1(const operators::ConvParam& p) {
  const DDim& f = p.filter->dims();
  return p.groups == 1 && f[2] == 3 && f[3] == 3 && p.strides[0] == 1 && p.strides[1] == 1 &&
         p.eff_dilations[0] == 1 && p.eff_dilations[1] == 1;
}
}  // namespace

bool ConvCompute::OwnWinogradFits(const operators::ConvParam& p) const {
  using K = operators::FusedActivation;
  const DDim& in = p.input->dims();
  const DDim& out = p.output->dims();
  return lite::x86::WinogradNhwc::Available() && Dense3x3Stride1(p) &&
         in[1] >= kWinogradMinInChannels && p.filter->dims()[0] >= kWinogradMinOutChannels &&
         out[2] * out[3] >= kWinogradMinOutputPixels &&
         (p.act.kind == K::kNone || p.act.kind == K::kRelu || p.act.kind == K::kRelu6) &&
         !p.has_post_affine() && p.input->dtype() == DataType::kFloat32 &&
         p.filter->dtype() == DataType::kFloat32 && Desc(*p.input) == lite::x86::NhwcDesc(in) &&
         Desc(*p.output) == lite::x86::NhwcDesc(out);
}

bool ConvCompute::OwnPointwiseFits(const operators::ConvParam& p) const {
  const DDim& f = p.filter->dims();
  return lite::x86::PointwiseConv::Available() && p.groups == 1 && f[2] == 1 && f[3] == 1 &&
         p.strides[0] == 1 && p.strides[1] == 1 &&
         std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(), [](int v) { return v == 0; }) &&
         lite::x86::PointwiseConv::Supports(p.act) && p.input->dtype() == DataType::kFloat32 &&
         p.filter->dtype() == DataType::kFloat32 &&
         Desc(*p.input) == lite::x86::NhwcDesc(p.input->dims()) &&
         Desc(*p.output) == lite::x86::NhwcDesc(p.output->dims());
}

bool ConvCompute::SmallMapWinogradFits(const operators::ConvParam& p) const {
  using K = operators::FusedActivation;
  const DDim& out = p.output->dims();
  const int64_t pixels = out[2] * out[3];
  return lite::x86::CpuHasAvx512Core() && Dense3x3Stride1(p) &&
         pixels >= kSmallMapWinogradMinOutputPixels && pixels < kWinogradMinOutputPixels &&
         p.input->dims()[1] >= kSmallMapWinogradMinInChannels &&
         p.filter->dims()[0] >= kSmallMapWinogradMinOutChannels &&
         (p.act.kind == K::kNone || p.act.kind == K::kRelu);
}

int64_t ConvCompute::OutPixelStride(const operators::ConvParam& p) const {
  return whole_ ? whole_->dims()[1] : p.output->dims()[1];
}

dnnl::memory::desc ConvCompute::UserDstDesc(const operators::ConvParam& p) const {
  if (!whole_) return Desc(*p.output);
  const DDim& d = p.output->dims();  // [n, c, h, w] with NHWC element order
  const int64_t ld = OutPixelStride(p);
  return memory::desc({d[0], d[1], d[2], d[3]}, memory::data_type::f32,
                      memory::dims{d[2] * d[3] * ld, 1, d[3] * ld, ld});
}

float* ConvCompute::OutData(const operators::ConvParam& p) const {
  return whole_ ? whole_->mutable_data<float>() + whole_offset_ : p.output->mutable_data<float>();
}

Status ConvCompute::InitDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims().size() != 4 || p.output->dims().size() != 4) return Status::OK();
  return Plan();
}

Status ConvCompute::Plan() {
  const auto& p = Param<operators::ConvParam>();
  // Filter and bias are packed once, here: they must be weights. A model that
  // computes them at run time (a weight quant-dequant left unfolded) gets an
  // error instead of a read of data that does not exist yet.
  if (!p.filter->IsInitialized() || (p.bias != nullptr && !p.bias->IsInitialized())) {
    return Unimplemented(
        "the x86 conv needs a constant Filter and Bias, but this model computes them at run "
        "time; keep constant_folding_pass enabled or run this op on host");
  }
  const DDim& in = p.input->dims();
  const DDim& f = p.filter->dims();
  const int64_t g = p.groups;
  has_bias_ = p.bias != nullptr;
  const memory::dims strides{p.strides[0], p.strides[1]};
  const memory::dims dilates{p.eff_dilations[0] - 1, p.eff_dilations[1] - 1};
  const memory::dims pad_l{p.eff_paddings[0], p.eff_paddings[2]};
  const memory::dims pad_r{p.eff_paddings[1], p.eff_paddings[3]};
  const auto f32 = memory::data_type::f32;
  const auto any = memory::format_tag::any;
  memory::dims wdims = g > 1 ? memory::dims{g, f[0] / g, f[1], f[2], f[3]}
                             : memory::dims{f[0], f[1], f[2], f[3]};
  // Activations in this kernel's layout (NHWC): oneDNN's brgconv kernels
  // read and write it directly.
  memory::desc src_md = Desc(*p.input);
  memory::desc dst_md = Desc(*p.output);
  const memory::desc user_dst_md = UserDstDesc(p);
  memory::desc w_any(wdims, f32, any);
  bias_md_ = has_bias_ ? memory::desc({f[0]}, f32, memory::format_tag::x) : memory::desc();
  const memory::desc& bias_md = bias_md_;
  winograd_ = own_winograd_ = own_pointwise_ = false;
  if (OwnPointwiseFits(p)) {
    if (!pointwise_.has_filter()) pointwise_.SetFilter(p.filter->data<float>(), f[0], f[1]);
    own_pointwise_ = true;
    impl_info_ = "lite:pointwise_nhwc";
    planned_dims_ = in;
    return Status::OK();
  }
  if (OwnWinogradFits(p)) {
    if (!own_.has_filter()) own_.SetFilter(p.filter->data<float>(), f[0], f[1]);
    winograd_ = own_winograd_ = true;
    impl_info_ = "lite:winograd_nhwc_4x3";
    planned_dims_ = in;
    return Status::OK();
  }
  // ResidualData joins as a binary add post-op, before the activation.
  dnnl::post_ops ops;
  if (p.residual) ops.append_binary(dnnl::algorithm::binary_add, Desc(*p.residual));
  lite::x86::AppendActivation(p.act, &ops);
  if (p.has_post_affine()) {
    ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, p.post_scale, p.post_bias);
  }
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::convolution_forward::primitive_desc pd;
  if (SmallMapWinogradFits(p) && !p.residual) {
    // oneDNN's Winograd on its blocked layout, reordered by RunDnnl: on
    // small maps the reorders are cheap.
    try {
      memory::desc src_any(src_md.dims(), f32, any), dst_any(dst_md.dims(), f32, any);
      dnnl::convolution_forward::desc wdesc(dnnl::prop_kind::forward_inference,
                                            dnnl::algorithm::convolution_winograd, src_any,
                                            w_any, bias_md, dst_any, strides, dilates, pad_l,
                                            pad_r);
      pd = dnnl::convolution_forward::primitive_desc(wdesc, attr, CpuEngine());
      winograd_ = true;
    } catch (const dnnl::error&) {
      // not implemented here (no AVX-512, a post-op it lacks): direct
    }
  }
  // Direct: writing a channel slice in place when an optimized oneDNN
  // kernel takes the strided destination, else a dense one copied into it.
  for (const memory::desc& md : {user_dst_md, dst_md}) {
    if (winograd_) break;
    try {
      dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                           dnnl::algorithm::convolution_direct, src_md, w_any,
                                           bias_md, md, strides, dilates, pad_l, pad_r);
      pd = dnnl::convolution_forward::primitive_desc(desc, attr, CpuEngine());
      if (md == dst_md || std::string(pd.impl_info_str()).rfind("ref", 0) != 0) break;
    } catch (const dnnl::error&) {
      if (md == dst_md) throw;
    }
  }
  impl_info_ = pd.impl_info_str();
  conv_ = dnnl::convolution_forward(pd);
  user_src_md_ = src_md;
  user_dst_md_ = user_dst_md;
  src_md_ = pd.src_desc();
  dst_md_ = pd.dst_desc();
  scratch_md_ = pd.scratchpad_desc();
  if (!weights_ || pd.weights_desc() != weights_md_) {
    weights_md_ = pd.weights_desc();
    weights_ = memory(weights_md_, CpuEngine());
    memory user_w = WrapMemory(memory::desc(wdims, f32, g > 1 ? memory::format_tag::goihw
                                                              : memory::format_tag::oihw),
                               p.filter->data<float>());
    dnnl::reorder(user_w, weights_).execute(stream(), user_w, weights_);
    stream().wait();
  }
  planned_dims_ = in;
  return Status::OK();
}

void ConvCompute::AddResidual(const operators::ConvParam& p) const {
  const float* r = p.residual->data<float>();
  float* out = OutData(p);
  const int64_t pixels = p.output->numel() / p.output->dims()[1], c = p.output->dims()[1];
  const int64_t ld = OutPixelStride(p);
  const float hi = p.act.kind == operators::FusedActivation::kRelu6
                       ? p.act.alpha
                       : std::numeric_limits<float>::infinity();
  const float lo = p.act.enabled() ? 0.f : -std::numeric_limits<float>::infinity();
  const bool split = pixels * c > (1 << 16);
  lite::x86::OmpForRangesIf(split, threads(), pixels, [&](int64_t px0, int64_t px1) {
    for (int64_t px = px0; px < px1; ++px) {
      float* o = out + px * ld;
      const float* rr = r + px * c;
#pragma omp simd
      for (int64_t i = 0; i < c; ++i) o[i] = std::min(std::max(o[i] + rr[i], lo), hi);
    }
  });
}

Status ConvCompute::RunDnnl() {
  const auto& p = Param<operators::ConvParam>();
  if (p.input->dims() != planned_dims_) RETURN_IF_ERROR(Plan());
  using K = operators::FusedActivation;
  if (own_pointwise_) {
    const DDim& in = p.input->dims();
    pointwise_.Run(in[0] * in[2] * in[3], p.input->data<float>(), in[1],
                   p.bias ? p.bias->data<float>() : nullptr, p.act, OutData(p),
                   OutPixelStride(p), threads(), p.residual ? p.residual->data<float>() : nullptr,
                   p.output->dims()[1], p.post_scale, p.post_bias);
    return Status::OK();
  }
  if (own_winograd_) {
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    using Act = lite::x86::WinogradNhwc::Act;
    // With ResidualData: the conv and bias, then act(out + residual) in
    // one more pass (the Winograd output stage has no residual input).
    const Act act = p.residual ? Act::kNone
                    : p.act.kind == K::kRelu ? Act::kRelu
                    : p.act.kind == K::kRelu6 ? Act::kRelu6 : Act::kNone;
    own_.Run(in[0], in[2], in[3], p.eff_paddings[0], p.eff_paddings[2], out[2], out[3],
             p.input->data<float>(), p.bias ? p.bias->data<float>() : nullptr, act, p.act.alpha,
             OutData(p), OutPixelStride(p), threads());
    if (p.residual) AddResidual(p);
    return Status::OK();
  }
  memory user_src = Mem(DNNL_ARG_SRC, user_src_md_, p.input->data<float>());
  memory user_dst = Mem(DNNL_ARG_DST, user_dst_md_, OutData(p));
  memory src = user_src, dst = user_dst;
  if (src_md_ != user_src_md_) {
    src = Temp(src_md_);
    dnnl::reorder(user_src, src).execute(stream(), user_src, src);
  }
  if (dst_md_ != user_dst_md_) dst = Temp(dst_md_);
  if (has_bias_) AddArg(DNNL_ARG_BIAS, Mem(DNNL_ARG_BIAS, bias_md_, p.bias->data<float>()));
  if (p.residual) {
    constexpr int kResidualArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
    AddArg(kResidualArg, Mem(kResidualArg, Desc(*p.residual), p.residual->data<float>()));
  }
  Execute(conv_, {{DNNL_ARG_SRC, src},
                  {DNNL_ARG_WEIGHTS, weights_},
                  {DNNL_ARG_DST, dst},
                  {DNNL_ARG_SCRATCHPAD, Temp(scratch_md_)}});
  if (dst != user_dst) dnnl::reorder(dst, user_dst).execute(stream(), dst, user_dst);
  return Status::OK();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite

namespace {
bool ConvAccepts(const lite::cpp::OpDesc& desc) {
  auto act = lite::operators::FusedActivation::FromOpDesc(desc);
  return act.ok() && lite::x86::DnnlExpressible(*act) &&
         desc.GetAttr<std::string>("data_format", "NCHW") != "NHWC";
}
}  // namespace

bool lite::kernels::x86::ConvComputeTakes(const lite::cpp::OpDesc& desc,
                                          const lite::VarDimsFn& dims) {
  return ConvAccepts(desc) && !NchwInputConvFits(desc, dims);
}

REGISTER_LITE_KERNEL(conv2d, kX86, kFloat, kNHWC, lite::kernels::x86::ConvCompute, def)
    .SetAccepts(ConvAccepts)
    .SetAcceptsDims([](const lite::cpp::OpDesc& desc, const lite::VarDimsFn& dims) {
      return !lite::kernels::x86::NchwInputConvFits(desc, dims);
    })
    .Finalize();
REGISTER_LITE_KERNEL(depthwise_conv2d, kX86, kFloat, kNHWC, lite::kernels::x86::ConvCompute, def)
    .SetAccepts(ConvAccepts)
    .Finalize();
