// The int8 conv's own depthwise strategy (lite/backends/x86/
// depthwise_int8_nhwc.h, impl_info() "lite:dw_int8_nhwc").
//
// It takes groups == C_in == C_out convs whose activation it computes and
// whose window keeps its sums exact, where it is the faster one: at least 9
// taps per input pixel of stride (kh * kw >= 9 * sh * sw: 3x3 at stride 1,
// 5x5 at stride 1 or (2, 1)), or 2 where it sums in quads (UsesQuads: then
// also 5x5 and 3x3 at stride 2) or has at most 8 channels (3x3 at stride
// 2). Below that density a converted input level feeds too few taps for the
// conversion to pay. The quad form wins at 3x3 stride 2 only because its
// sums stay in registers (DotAdd, int8_epilogue.h); the float form (no
// quads) keeps least 9. Measurements per shape: docs/performance.md, "Own
// int8 kernels against oneDNN".
#include <string>

#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/kernels/x86/conv_int8_strategy.h"
#include "lite/kernels/x86/depthwise_geometry.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using DW = lite::x86::DepthwiseInt8Nhwc;

DW::Levels LevelsOf(const operators::ConvParam& p) {
  return p.input_dtype == DataType::kUInt8 ? DW::Levels::kU8 : DW::Levels::kS8;
}

class DepthwiseStrategy : public ConvInt8Strategy {
 public:
  const char* name() const override { return "own_depthwise"; }

  Verdict Accepts(const ConvInt8Context& c) const override {
    const operators::ConvParam& p = c.p;
    const std::string gap = ConvInt8OwnEpilogueGap(p, false);
    if (!gap.empty()) return Verdict::Decline(gap);
    if (!DW::Available()) return Verdict::Decline("not in this build or on this CPU");
    const DDim& in = p.input->dims();
    const DDim& f = p.filter->dims();
    if (!(p.groups > 1 && in[1] == p.groups && f[0] == p.groups && f[1] == 1)) {
      return Verdict::Decline("not depthwise (groups == C_in == C_out)");
    }
    if (!DW::Supports(p.act)) return Verdict::Decline("activation it does not compute");
    if (!DW::ExactSums(f[2], f[3], LevelsOf(p))) {
      return Verdict::Decline("window too large for exact sums");
    }
    const int64_t taps_per_pixel_of_stride = f[2] * f[3] / (p.strides[0] * p.strides[1]);
    DW::Geometry g;
    g.c = in[1];
    g.stride_h = p.strides[0];
    g.stride_w = p.strides[1];
    g.dilation_w = p.eff_dilations[1];
    const int64_t least = in[1] <= 8 || DW().UsesQuads(g) ? 2 : 9;
    if (taps_per_pixel_of_stride < least) {
      return Verdict::Decline(std::to_string(taps_per_pixel_of_stride) +
                              " taps per input pixel of stride, below " + std::to_string(least));
    }
    return Verdict::Accept();
  }

  Status Plan(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& f = p.filter->dims();
    if (!planned_) {
      dw_.SetFilter(p.filter->data<int8_t>(), f[0], static_cast<int>(f[2]),
                    static_cast<int>(f[3]));
      SetConvInt8Epilogue(p, &dw_);
      planned_ = true;
    }
    return Status::OK();
  }

  Status Run(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const void* levels = nullptr;
    RETURN_IF_ERROR(c.Levels(&levels));
    const DW::Geometry g = DepthwiseGeometryOf<DW::Geometry>(p);
    dw_.Run(g, levels, LevelsOf(p), ConvInt8OutputData(p), c.threads());
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:dw_int8_nhwc";
  bool planned_ = false;  // dw_ holds the filter and epilogue
  DW dw_;
};

}  // namespace

std::unique_ptr<ConvInt8Strategy> MakeConvInt8DepthwiseStrategy() {
  return std::make_unique<DepthwiseStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
