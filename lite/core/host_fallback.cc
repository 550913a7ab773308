#include "lite/core/host_fallback.h"

namespace lite {

Status HostFallback::Run(const KernelBase& owner, OpParam* param) {
  if (!kernel_) {
    const KernelDef* host = nullptr;
    for (const KernelDef* d : KernelRegistry::Global().Find(owner.def().op_type)) {
      if (d->place.target == TargetType::kHost &&
          (d->place.precision == PrecisionType::kFloat || d->place.precision == PrecisionType::kAny)) {
        host = d;
        break;
      }
    }
    if (!host) return NotFound("no host kernel to fall back to for op " + owner.def().op_type);
    kernel_ = host->factory();
    kernel_->Bind(host, param ? param : owner.raw_param(), owner.ctx());
    RETURN_IF_ERROR(kernel_->Init());
    RETURN_IF_ERROR(kernel_->Prepare());
  }
  return kernel_->Run();
}

}  // namespace lite
