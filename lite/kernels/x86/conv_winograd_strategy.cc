// The float conv's Winograd strategy: dense 3x3 stride-1 undilated convs
// with at least kWinogradMinInChannels inputs, kWinogradMinOutChannels
// outputs and kWinogradMinOutputPixels output pixels, or fewer than
// kSmallMapWinogradMinOutputPixels (below oneDNN's own Winograd's range,
// where its direct kernel was the alternative: the DQN stand-in's 7x7 conv,
// the whole net 4% faster in A/B runs) (conv_compute.h), no
// activation, relu or relu6 and no post-activation affine map, on NHWC, run
// our own Winograd F(4x4, 3x3) (lite/backends/x86/winograd_nhwc.h; AVX-512
// builds and CPUs, impl_info() "lite:winograd_nhwc_4x3"). ResidualData is
// one pass after it (its output stage has no residual input). The
// thresholds come from measurements kept in docs/performance.md (x86
// target), where tools/benchmark re-measures them.
#include <string>

#include "lite/backends/x86/winograd_nhwc.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/conv_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using K = operators::FusedActivation;
using WN = lite::x86::WinogradNhwc;

class WinogradStrategy : public ConvStrategy {
 public:
  const char* name() const override { return "own_winograd"; }

  Verdict Accepts(const ConvContext& c) const override {
    const operators::ConvParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    if (!WN::Available()) return Verdict::Decline("not in this build or on this CPU");
    if (!Dense3x3Stride1(p)) return Verdict::Decline("not a dense 3x3 stride-1 undilated conv");
    const int64_t pixels = out[2] * out[3];
    if (!(in[1] >= ConvCompute::kWinogradMinInChannels &&
          p.filter->dims()[0] >= ConvCompute::kWinogradMinOutChannels &&
          (pixels >= ConvCompute::kWinogradMinOutputPixels ||
           pixels < ConvCompute::kSmallMapWinogradMinOutputPixels))) {
      return Verdict::Decline("below its channel or map thresholds");
    }
    if (!(p.act.kind == K::kNone || p.act.kind == K::kRelu || p.act.kind == K::kRelu6)) {
      return Verdict::Decline("activation it does not compute");
    }
    if (p.has_post_affine()) return Verdict::Decline("a post-activation affine map");
    if (p.input->dtype() != DataType::kFloat32 || p.filter->dtype() != DataType::kFloat32) {
      return Verdict::Decline("not float32");
    }
    if (!(c.kernel.Desc(*p.input) == lite::x86::NhwcDesc(in) &&
          c.kernel.Desc(*p.output) == lite::x86::NhwcDesc(out))) {
      return Verdict::Decline("not NHWC");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvContext& c) override {
    const DDim& f = c.p.filter->dims();
    if (!own_.has_filter()) own_.SetFilter(c.p.filter->data<float>(), f[0], f[1]);
    c.winograd = true;
    return Status::OK();
  }

  Status Run(ConvContext& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    using Act = WN::Act;
    // With ResidualData: the conv and bias, then act(out + residual) in
    // one more pass (the Winograd output stage has no residual input).
    const Act act = p.residual ? Act::kNone
                    : p.act.kind == K::kRelu ? Act::kRelu
                    : p.act.kind == K::kRelu6 ? Act::kRelu6 : Act::kNone;
    own_.Run(in[0], in[2], in[3], p.eff_paddings[0], p.eff_paddings[2], out[2], out[3],
             p.input->data<float>(), p.bias ? p.bias->data<float>() : nullptr, act, p.act.alpha,
             c.kernel.OutData(p), c.kernel.OutPixelStride(p), c.kernel.threads());
    if (p.residual) c.kernel.AddResidual(p);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:winograd_nhwc_4x3";
  WN own_;
};

}  // namespace

std::unique_ptr<ConvStrategy> MakeConvWinogradStrategy() {
  return std::make_unique<WinogradStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
