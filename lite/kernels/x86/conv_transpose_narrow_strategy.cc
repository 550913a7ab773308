// The transposed conv's first strategy: a non-overlapping strided transpose
// whose whole kh x kw x C_out block of an input pixel fits 16 values (det's
// last 24 -> 1 layer) runs our own AVX-512 kernel
// (lite/backends/x86/narrow_deconv.h: no scattering reorder, one
// accumulator per output value, impl_info() "lite:narrow_deconv"); the
// activation runs after it in place (oneDNN eltwise).
#include <string>

#include "lite/backends/x86/narrow_deconv.h"
#include "lite/kernels/x86/conv_transpose_compute.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

using ND = lite::x86::NarrowDeconv;

class NarrowStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "own_narrow"; }

  Verdict Accepts(const ConvTransposeContext& c) const override {
    Verdict v = NonOverlappingStrided(c);
    if (!v.accepted) return v;
    if (!ND::Available()) return Verdict::Decline("not in this build or on this CPU");
    const DDim& f = c.p.filter->dims();  // [C_in, C_out, kh, kw]
    if (!ND::Fits(f[1], f[2], f[3])) return Verdict::Decline("kh x kw x C_out over 16 values");
    return Verdict::Accept();
  }

  Status Plan(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    const DDim& f = p.filter->dims();
    if (!ready_) {
      narrow_.SetFilter(p.filter->data<float>(), p.bias ? p.bias->data<float>() : nullptr, f[0],
                        f[1], static_cast<int>(f[2]), static_cast<int>(f[3]));
      ready_ = true;
    }
    return Status::OK();
  }

  Status Run(ConvTransposeContext& c) override {
    const operators::ConvTransposeParam& p = c.p;
    const DDim& in = p.input->dims();
    narrow_.Run(in[0], in[2], in[3], p.input->data<float>(), p.output->mutable_data<float>(),
                c.kernel.threads());
    c.kernel.ActivateInPlace(p.act, p.output);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "lite:narrow_deconv";
  ND narrow_;
  bool ready_ = false;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeNarrowStrategy() {
  return std::make_unique<NarrowStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
