// The int8 conv's few-output-channel strategy (lite/backends/x86/
// conv_int8_smalln.h, AVX512-VNNI, impl_info() "lite:conv_int8_smalln").
//
// It takes groups == 1 convs at stride 1 with at least a 3x3 window, at
// most 24 output channels of which oneDNN's 16-channel blocks leave at
// least a quarter of the lanes idle (1-12 or 17-24 channels), at least 64
// output columns, and an activation its epilogue computes: where it is the
// faster one (conv_int8_smalln_bench; docs/performance.md). Kept on oneDNN:
// 16 channels (no idle lanes), small maps such as 40x40 (oneDNN's jit_int8)
// and 1x1 windows.
#include <string>

#include "lite/backends/x86/conv_int8_smalln.h"
#include "lite/kernels/x86/conv_int8_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using CS = lite::x86::ConvInt8Smalln;

class SmallnStrategy : public ConvInt8Strategy {
 public:
  const char* name() const override { return "own_smalln"; }

  Verdict Accepts(const ConvInt8Context& c) const override {
    const operators::ConvParam& p = c.p;
    const std::string gap = ConvInt8OwnEpilogueGap(p, false);
    if (!gap.empty()) return Verdict::Decline(gap);
    if (!CS::Available()) return Verdict::Decline("not in this build or on this CPU");
    const DDim& f = p.filter->dims();
    const DDim& out = p.output->dims();
    const int64_t oc = f[0], blocks = (oc + 15) / 16 * 16;
    if (p.groups != 1) return Verdict::Decline("grouped");
    if (p.strides[0] != 1 || p.strides[1] != 1) return Verdict::Decline("stride above 1");
    if (f[2] * f[3] < 9) return Verdict::Decline("window below 3x3");
    if (!(oc <= 24 && (blocks - oc) * 4 >= blocks)) {
      return Verdict::Decline(std::to_string(oc) + " output channels (takes 1-12 or 17-24)");
    }
    if (out[3] < 64) return Verdict::Decline("fewer than 64 output columns");
    if (!CS::Supports(p.act)) return Verdict::Decline("activation it does not compute");
    return Verdict::Accept();
  }

  Status Plan(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& f = p.filter->dims();
    if (!planned_) {
      smalln_.SetFilter(p.filter->data<int8_t>(), f[0], f[1], static_cast<int>(f[2]),
                        static_cast<int>(f[3]));
      SetConvInt8Epilogue(p, &smalln_);
      planned_ = true;
    }
    return Status::OK();
  }

  Status Run(ConvInt8Context& c) override {
    const operators::ConvParam& p = c.p;
    const void* levels = nullptr;
    RETURN_IF_ERROR(c.Levels(&levels));
    const DDim& in = p.input->dims();
    const DDim& out = p.output->dims();
    CS::Geometry g;
    g.n = in[0];
    g.ic = in[1];
    g.h = in[2];
    g.w = in[3];
    g.oh = out[2];
    g.ow = out[3];
    g.stride_h = p.strides[0];
    g.pad_top = p.eff_paddings[0];
    g.pad_left = p.eff_paddings[2];
    g.dilation_h = p.eff_dilations[0];
    g.dilation_w = p.eff_dilations[1];
    smalln_.Run(g, levels, p.input_dtype == DataType::kUInt8 ? CS::Levels::kU8 : CS::Levels::kS8,
                ConvInt8OutputData(p), c.threads());
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:conv_int8_smalln";
  bool planned_ = false;  // smalln_ holds the filter and epilogue
  CS smalln_;
};

}  // namespace

std::unique_ptr<ConvInt8Strategy> MakeConvInt8SmallnStrategy() {
  return std::make_unique<SmallnStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
