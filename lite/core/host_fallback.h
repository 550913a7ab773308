// HostFallback: a device kernel's way out for shapes its library would not
// compute as Paddle does (e.g. x86: Paddle's broadcast of X in oneDNN; x86
// and arm: non-integer nearest-resize ratios). It runs the op's host
// kernel, bound to the same param and KernelContext, so the output is
// exactly the host target's. Refusals that depend on attributes only are made at kernel pick
// instead (KernelDef::SetAccepts); this is for shapes known only at run time.
// Owned by the device kernel that holds it; the host kernel is created on
// first use.
#pragma once

#include <memory>

#include "lite/core/kernel.h"

namespace lite {

class HostFallback {
 public:
  // Runs the host kernel of owner's op type on `param` (owner's own when
  // null; the same pointer on every call) and owner's context. NHWC
  // kernels pass a copy of their param pointing at NCHW tensors.
  Status Run(const KernelBase& owner, OpParam* param = nullptr);
  bool used() const { return kernel_ != nullptr; }

 private:
  std::unique_ptr<KernelBase> kernel_;
};

}  // namespace lite
