// The float conv's 1x1 strategy: dense 1x1 stride-1 unpadded convs with no
// activation, relu or relu6 on NHWC run our register-blocked GEMM
// (lite/backends/x86/pointwise_conv.h; AVX-512 builds and CPUs,
// impl_info() "lite:pointwise_nhwc"), which adds ResidualData and the
// post-activation affine map in its epilogue and also writes channel
// slices, as WriteIntoChannelsOf needs.
#include <algorithm>
#include <string>

#include "lite/backends/x86/pointwise_conv.h"
#include "lite/kernels/x86/conv_compute.h"
#include "lite/kernels/x86/conv_strategy.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using PC = lite::x86::PointwiseConv;

class PointwiseStrategy : public ConvStrategy {
 public:
  const char* name() const override { return "own_pointwise"; }

  Verdict Accepts(const ConvContext& c) const override {
    const operators::ConvParam& p = c.p;
    if (!PC::Available()) return Verdict::Decline("not in this build or on this CPU");
    const DDim& f = p.filter->dims();
    if (!(p.groups == 1 && f[2] == 1 && f[3] == 1 && p.strides[0] == 1 && p.strides[1] == 1 &&
          std::all_of(p.eff_paddings.begin(), p.eff_paddings.end(),
                      [](int v) { return v == 0; }))) {
      return Verdict::Decline("not a dense 1x1 stride-1 unpadded conv");
    }
    if (!PC::Supports(p.act)) return Verdict::Decline("activation it does not compute");
    if (p.input->dtype() != DataType::kFloat32 || p.filter->dtype() != DataType::kFloat32) {
      return Verdict::Decline("not float32");
    }
    if (!(c.kernel.Desc(*p.input) == lite::x86::NhwcDesc(p.input->dims()) &&
          c.kernel.Desc(*p.output) == lite::x86::NhwcDesc(p.output->dims()))) {
      return Verdict::Decline("not NHWC");
    }
    return Verdict::Accept();
  }

  Status Plan(ConvContext& c) override {
    const DDim& f = c.p.filter->dims();
    if (!pointwise_.has_filter()) pointwise_.SetFilter(c.p.filter->data<float>(), f[0], f[1]);
    return Status::OK();
  }

  Status Run(ConvContext& c) override {
    const operators::ConvParam& p = c.p;
    const DDim& in = p.input->dims();
    pointwise_.Run(in[0] * in[2] * in[3], p.input->data<float>(), in[1],
                   p.bias ? p.bias->data<float>() : nullptr, p.act, c.kernel.OutData(p),
                   c.kernel.OutPixelStride(p), c.kernel.threads(),
                   p.residual ? p.residual->data<float>() : nullptr, p.output->dims()[1],
                   p.post_scale, p.post_bias);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:pointwise_nhwc";
  PC pointwise_;
};

}  // namespace

std::unique_ptr<ConvStrategy> MakeConvPointwiseStrategy() {
  return std::make_unique<PointwiseStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
