// The float conv's general strategy, last in its list: oneDNN's
// convolution primitive on the NHWC activations (oneDNN's brgconv kernels
// read and write it directly), with bias, ResidualData (a binary add
// post-op before the activation), the fused activation and the
// post-activation affine map (a linear post-op after it) inside the
// primitive. The weights are format_tag::any, so oneDNN picks its fastest
// weights layout; the filter is reordered into it once and again only if a
// new input shape makes oneDNN choose another. Should the primitive want
// other activation layouts than the tensors have, Run reorders through
// temporaries from the buffer pool.
//
// On small maps (12x12 up to kWinogradMinOutputPixels, 32+ -> 64+
// channels, none or relu, no ResidualData) oneDNN's own Winograd runs: it
// wants blocked activations, and there the reorders around it are cheap
// (thresholds in conv_compute.h, measurements in docs/performance.md).
//
// Depthwise 3x3 convs on fewer than 16 channels (PP-LCNet x0.25's first
// blocks: 8) take oneDNN's AVX2 jit_dw where its list offers it: the
// AVX-512 brdgmm_dw it would pick fills half of each 16-lane vector and
// took 1.8x jit_dw:avx2's time on those shapes (depthwise_conv_bench).
#include <string>

#include "lite/backends/x86/post_ops.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/conv_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using dnnl::memory;
using lite::x86::CpuEngine;
using lite::x86::WrapMemory;

// Smaller maps where oneDNN's Winograd with its reorders beats direct.
bool SmallMapWinogradFits(const operators::ConvParam& p) {
  using K = operators::FusedActivation;
  const DDim& out = p.output->dims();
  const int64_t pixels = out[2] * out[3];
  return lite::x86::CpuHasAvx512Core() && Dense3x3Stride1(p) &&
         pixels >= ConvCompute::kSmallMapWinogradMinOutputPixels &&
         pixels < ConvCompute::kWinogradMinOutputPixels &&
         p.input->dims()[1] >= ConvCompute::kSmallMapWinogradMinInChannels &&
         p.filter->dims()[0] >= ConvCompute::kSmallMapWinogradMinOutChannels &&
         (p.act.kind == K::kNone || p.act.kind == K::kRelu);
}

// A depthwise 3x3 conv on fewer channels than one AVX-512 vector holds.
bool NarrowDepthwise3x3(const operators::ConvParam& p) {
  const DDim& f = p.filter->dims();
  const int64_t c = p.input->dims()[1];
  return p.groups > 1 && c == p.groups && f[0] == c && f[1] == 1 && f[2] == 3 && f[3] == 3 &&
         c < 16;
}

// Moves `pd` to the first later implementation in oneDNN's list whose name
// starts with `prefix`; leaves it as it is when there is none. The
// operation descriptor `pd` was made from must still be alive: oneDNN's
// iterator keeps a pointer to it.
void PreferImpl(const std::string& prefix, dnnl::convolution_forward::primitive_desc* pd) {
  dnnl::convolution_forward::primitive_desc alt = *pd;
  do {
    if (std::string(alt.impl_info_str()).rfind(prefix, 0) == 0) {
      *pd = alt;
      return;
    }
  } while (alt.next_impl());
}

class DnnlStrategy : public ConvStrategy {
 public:
  const char* name() const override { return "onednn"; }

  Verdict Accepts(const ConvContext&) const override { return Verdict::Accept(); }

  Status Plan(ConvContext& c) override {
    const operators::ConvParam& p = c.p;
    ConvCompute& k = c.kernel;
    const DDim& f = p.filter->dims();
    const int64_t g = p.groups;
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
    memory::desc src_md = k.Desc(*p.input);
    memory::desc dst_md = k.Desc(*p.output);
    const memory::desc user_dst_md = k.UserDstDesc(p);
    memory::desc w_any(wdims, f32, any);
    bias_md_ = p.bias ? memory::desc({f[0]}, f32, memory::format_tag::x) : memory::desc();
    const memory::desc& bias_md = bias_md_;
    // ResidualData joins as a binary add post-op, before the activation.
    dnnl::post_ops ops;
    if (p.residual) ops.append_binary(dnnl::algorithm::binary_add, k.Desc(*p.residual));
    lite::x86::AppendActivation(p.act, &ops);
    if (p.has_post_affine()) {
      ops.append_eltwise(1.f, dnnl::algorithm::eltwise_linear, p.post_scale, p.post_bias);
    }
    dnnl::primitive_attr attr;
    attr.set_post_ops(ops);
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::convolution_forward::primitive_desc pd;
    bool winograd = false;
    if (SmallMapWinogradFits(p) && !p.residual) {
      // oneDNN's Winograd on its blocked layout, reordered by Run: on
      // small maps the reorders are cheap.
      try {
        memory::desc src_any(src_md.dims(), f32, any), dst_any(dst_md.dims(), f32, any);
        dnnl::convolution_forward::desc wdesc(dnnl::prop_kind::forward_inference,
                                              dnnl::algorithm::convolution_winograd, src_any,
                                              w_any, bias_md, dst_any, strides, dilates, pad_l,
                                              pad_r);
        pd = dnnl::convolution_forward::primitive_desc(wdesc, attr, CpuEngine());
        winograd = true;
      } catch (const dnnl::error&) {
        // not implemented here (no AVX-512, a post-op it lacks): direct
      }
    }
    // Direct: writing a channel slice in place when an optimized oneDNN
    // kernel takes the strided destination, else a dense one copied into it.
    for (const memory::desc& md : {user_dst_md, dst_md}) {
      if (winograd) break;
      try {
        dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                             dnnl::algorithm::convolution_direct, src_md, w_any,
                                             bias_md, md, strides, dilates, pad_l, pad_r);
        pd = dnnl::convolution_forward::primitive_desc(desc, attr, CpuEngine());
        // (here: the iterator refers to desc)
        if (NarrowDepthwise3x3(p)) PreferImpl("jit_dw:avx2", &pd);
        if (md == dst_md || std::string(pd.impl_info_str()).rfind("ref", 0) != 0) break;
      } catch (const dnnl::error&) {
        if (md == dst_md) throw;
      }
    }
    c.winograd = winograd;
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
      dnnl::reorder(user_w, weights_).execute(k.stream(), user_w, weights_);
      k.stream().wait();
    }
    return Status::OK();
  }

  Status Run(ConvContext& c) override {
    const operators::ConvParam& p = c.p;
    ConvCompute& k = c.kernel;
    memory user_src = k.Mem(DNNL_ARG_SRC, user_src_md_, p.input->data<float>());
    memory user_dst = k.Mem(DNNL_ARG_DST, user_dst_md_, k.OutData(p));
    memory src = user_src, dst = user_dst;
    if (src_md_ != user_src_md_) {
      src = k.Temp(src_md_);
      dnnl::reorder(user_src, src).execute(k.stream(), user_src, src);
    }
    if (dst_md_ != user_dst_md_) dst = k.Temp(dst_md_);
    if (p.bias) k.AddArg(DNNL_ARG_BIAS, k.Mem(DNNL_ARG_BIAS, bias_md_, p.bias->data<float>()));
    if (p.residual) {
      constexpr int kResidualArg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
      k.AddArg(kResidualArg, k.Mem(kResidualArg, k.Desc(*p.residual), p.residual->data<float>()));
    }
    k.Execute(conv_, {{DNNL_ARG_SRC, src},
                      {DNNL_ARG_WEIGHTS, weights_},
                      {DNNL_ARG_DST, dst},
                      {DNNL_ARG_SCRATCHPAD, k.Temp(scratch_md_)}});
    if (dst != user_dst) dnnl::reorder(dst, user_dst).execute(k.stream(), dst, user_dst);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  dnnl::convolution_forward conv_;
  memory::desc user_src_md_, user_dst_md_, src_md_, dst_md_, scratch_md_, bias_md_;
  memory::desc weights_md_;
  memory weights_;  // the filter in weights_md_ (owned)
  std::string impl_info_;
};

}  // namespace

std::unique_ptr<ConvStrategy> MakeConvDnnlStrategy() { return std::make_unique<DnnlStrategy>(); }

}  // namespace x86
}  // namespace kernels
}  // namespace lite
