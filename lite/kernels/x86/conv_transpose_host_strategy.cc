// The transposed conv's last strategy: whatever the others decline
// (overlapping strided windows, a negative right padding) runs the host
// kernel on NCHW copies of Input and Output (host_fallback.h), so the result
// is exactly the host target's. impl_info() "host:nchw_copies".
#include <string>

#include "lite/kernels/x86/conv_transpose_compute.h"
#include "lite/core/host_fallback.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

class HostStrategy : public ConvTransposeStrategy {
 public:
  const char* name() const override { return "host"; }

  Verdict Accepts(const ConvTransposeContext&) const override { return Verdict::Accept(); }

  Status Plan(ConvTransposeContext&) override { return Status::OK(); }

  Status Run(ConvTransposeContext& c) override {
    nchw_param_ = c.p;
    nchw_param_.input = c.kernel.NchwInput(*c.p.input);
    nchw_param_.output = c.kernel.NchwOutput(c.p.output);
    RETURN_IF_ERROR(fallback_.Run(c.kernel, &nchw_param_));
    c.kernel.StoreNchwOutput(*nchw_param_.output, c.p.output);
    return Status::OK();
  }

  const std::string& impl_info() const override { return impl_info_; }

 private:
  const std::string impl_info_ = "host:nchw_copies";
  operators::ConvTransposeParam nchw_param_;
  HostFallback fallback_;
};

}  // namespace

std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeHostStrategy() {
  return std::make_unique<HostStrategy>();
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
