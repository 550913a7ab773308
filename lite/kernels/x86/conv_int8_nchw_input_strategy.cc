// The int8 conv's first-conv strategy (lite/backends/x86/nchw_input_int8.h,
// impl_info() "lite:nchw_input_int8"): a model's first conv, whose float
// Input is bound in NCHW (the fed image), quantizes the image rows itself
// by the op's rule (quant_math.h's QuantizeToInt8) instead of reading the
// context's NHWC levels.
//
// It takes the NCHW-input conv where it computes the geometry (1-4 input,
// 1-16 output channels, kw <= 4, stride_w 1 or 2, no dilation) and the
// activation. It is faster than the quantize pass plus oneDNN's jit_int8
// on the slim models' first convs (docs/performance.md).
#include <string>

#include "lite/backends/x86/nchw_input_int8.h"
#include "lite/kernels/x86/conv_int8_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using NI = lite::x86::NchwInputInt8;

class NchwInputStrategy : public ConvInt8Strategy {
 public:
  const char* name() const override { return "own_nchw_input"; }

  Verdict Accepts(const ConvInt8Context& c) const override {
    const operators::ConvParam& p = c.p;
    if (!c.nchw_input) return Verdict::Decline("Input is bound in NHWC");
    const std::string gap = ConvInt8OwnEpilogueGap(p, false);
    if (!gap.empty()) return Verdict::Decline(gap);
    if (!NI::Available()) return Verdict::Decline("not in this build or on this CPU");
    if (!NI::Supports(p.act)) return Verdict::Decline("activation it does not compute");
    const DDim& f = p.filter->dims();
    if (!NI::Fits(f[1], f[0], static_cast<int>(f[2]), static_cast<int>(f[3]), p.strides[1],
                  p.eff_dilations[0], p.eff_dilations[1], p.groups)) {
      return Verdict::Decline("geometry it does not compute");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& f = p.filter->dims();
    if (!planned_) {
      nchw_.SetFilter(p.filter->data<int8_t>(), f[0], f[1], static_cast<int>(f[2]),
                      static_cast<int>(f[3]));
      SetConvInt8Epilogue(p, &nchw_);
      planned_ = true;
    }
    return Status::OK();
  }

  Status Run(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    NI::Geometry g;
    g.n = in[0];
    g.ic = in[1];
    g.h = in[2];
    g.w = in[3];
    g.oh = out[2];
    g.ow = out[3];
    g.stride_h = p.strides[0];
    g.stride_w = p.strides[1];
    g.pad_top = p.eff_paddings[0];
    g.pad_left = p.eff_paddings[2];
    const float scale = p.input_scale;
    const int round_type = p.quant_round_type;
    const NI::QuantizeRow quantize = [scale, round_type](const float* x, int64_t n,
                                                         int8_t* levels) {
      operators::quant::QuantizeToInt8(x, levels, n, scale, 127, round_type);
    };
    nchw_.Run(g, p.input->data<float>(), quantize, ConvInt8OutputData(p), c.threads());
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:nchw_input_int8";
  bool planned_ = false;  // nchw_ holds the filter and epilogue
  NI nchw_;
};

}  // namespace

std::unique_ptr<ConvInt8Strategy> MakeConvInt8NchwInputStrategy() {
  return std::make_unique<NchwInputStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
