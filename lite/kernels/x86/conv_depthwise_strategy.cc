// The float conv's depthwise strategy: depthwise convs (groups == C_in ==
// C_out) on NHWC with a kernel at least 5x5, 5 or 7 wide at horizontal
// stride 1 or 2 and dilation 1 or 2 (on AVX2-only CPUs fewer: below), and
// no activation, relu, relu6 or hard_swish, run our kernel
// (lite/backends/x86/depthwise_conv.h, impl_info() "lite:depthwise_nhwc"),
// which adds the bias, ResidualData and the post-activation affine map in
// its epilogue and also writes channel slices, as WriteIntoChannelsOf needs.
//
// Where it is the faster one (docs/performance.md, "Own fp32 depthwise
// against oneDNN", depthwise_conv_bench): with AVX-512, 5x5 and 7x7 at 0.55
// to 0.97 of oneDNN's time (brdgmm_dw / jit_dw); 3x3 from 16 channels up
// except at multiples of 128 (0.83-1.10 of it, Own3x3Fits; at multiples of
// 128 ours loses, to 1.6). With AVX2 only, oneDNN's
// jit_dw:avx2 is faster than ours except at 5x5 stride 1 (ours 0.85-0.96 of
// its time) and dilated 7x7, where oneDNN falls back to a GEMM
// (x64:gemm:jit, 0.2-0.6 GFLOP/s against our 36): only those run ours
// there. The choice depends on shapes, attributes and the CPU's instruction
// set only, never on timing.
#include <string>

#include "lite/backends/x86/depthwise_conv.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/conv_strategy.h"
#include "lite/kernels/x86/depthwise_geometry.h"

namespace lite {
namespace kernels {
namespace x86 {

using DW = lite::x86::DepthwiseConv;

namespace {

// 3x3: ours where depthwise_conv_bench has it within 10% of oneDNN's time
// (AVX-512, 16 channels or more, stride 1 or 2 across, no dilation), which
// also spares a first sight of a new size oneDNN's per-shape JIT (JIT code
// generation for every new map size). Below 16 channels oneDNN's
// jit_dw:avx2 is faster (conv_dnnl_strategy.cc); at multiples of 128
// channels brdgmm_dw is (ours 1.1-1.6x its time: a pixel stride of 512
// bytes or a larger power of two puts a tile's input columns into few L1
// sets).
Verdict Own3x3Fits(int64_t channels, int64_t sw, int64_t dw, bool avx512) {
  if (!avx512) return Verdict::Decline("3x3 on AVX2 only: oneDNN's jit_dw:avx2 is faster");
  if (channels < 16) {
    return Verdict::Decline("3x3 on fewer than 16 channels: oneDNN's jit_dw:avx2 is faster");
  }
  if (channels % 128 == 0) {
    return Verdict::Decline("3x3 on a multiple of 128 channels: oneDNN's brdgmm_dw is faster");
  }
  if (!((sw == 1 || sw == 2) && dw == 1)) {
    return Verdict::Decline("3x3 not at stride 1 or 2 across without dilation");
  }
  return Verdict::Accept();
}

}  // namespace

Verdict OwnDepthwiseFits(const operators::ConvParam& p, bool avx512) {
  const DDim& in = p.input->dims();
  const DDim& f = p.filter->dims();
  if (!(p.groups > 1 && in[1] == p.groups && f[0] == p.groups && f[1] == 1)) {
    return Verdict::Decline("not depthwise (groups == C_in == C_out)");
  }
  if (p.input->dtype() != DataType::kFloat32 || p.filter->dtype() != DataType::kFloat32) {
    return Verdict::Decline("not float32");
  }
  if (!DW::Supports(p.act)) return Verdict::Decline("activation it does not compute");
  const int64_t sw = p.strides[1], dw = p.eff_dilations[1];
  if (f[2] == 3 && f[3] == 3) return Own3x3Fits(f[0], sw, dw, avx512);
  if (!((f[3] == 5 || f[3] == 7) && f[2] >= 5 && (sw == 1 || sw == 2) && (dw == 1 || dw == 2))) {
    return Verdict::Decline(
        "not a 3x3, or a 5x5+ kernel 5 or 7 wide at stride 1 or 2 and dilation 1 or 2");
  }
  if (!avx512 && !(f[3] == 7 && dw == 2) && !(f[3] == 5 && sw == 1 && dw == 1)) {
    return Verdict::Decline(
        "AVX2 only: oneDNN's jit_dw:avx2 is faster except at 5x5 stride 1 and dilated 7x7");
  }
  return Verdict::Accept();
}

namespace {

class DepthwiseStrategy : public ConvStrategy {
 public:
  const char* name() const override { return "own_depthwise"; }

  Verdict Accepts(const ConvContext& c) const override {
    const operators::ConvParam& p = c.p;
    if (!DW::Available()) return Verdict::Decline("not on this CPU (neither AVX-512 nor AVX2)");
    const Verdict fits = OwnDepthwiseFits(p, std::string(DW().isa_name()) == "avx512");
    if (!fits.accepted) return fits;
    if (!(c.kernel.Desc(*p.input) == lite::x86::NhwcDesc(p.input->dims()) &&
          c.kernel.Desc(*p.output) == lite::x86::NhwcDesc(p.output->dims()))) {
      return Verdict::Decline("not NHWC");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvContext& c) override {
    const DDim& f = c.p.filter->dims();
    if (!dw_.has_filter()) {
      dw_.SetFilter(c.p.filter->data<float>(), f[0], static_cast<int>(f[2]),
                    static_cast<int>(f[3]));
    }
    return Status::OK();
  }

  Status Run(ConvContext& c) override {
    const operators::ConvParam& p = c.p;
    const DW::Geometry g = DepthwiseGeometryOf<DW::Geometry>(p);
    DW::Epilogue e;
    e.bias = p.bias ? p.bias->data<float>() : nullptr;
    e.residual = p.residual ? p.residual->data<float>() : nullptr;
    e.act = p.act;
    e.post_scale = p.post_scale;
    e.post_bias = p.post_bias;
    dw_.Run(g, p.input->data<float>(), e, c.kernel.OutData(p), c.kernel.OutPixelStride(p),
            c.kernel.threads());
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:depthwise_nhwc";
  DW dw_;
};

}  // namespace

std::unique_ptr<ConvStrategy> MakeConvDepthwiseStrategy() {
  return std::make_unique<DepthwiseStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
