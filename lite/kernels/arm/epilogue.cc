#include "lite/kernels/arm/epilogue.h"

namespace lite {
namespace kernels {
namespace arm {

using operators::FusedActivation;

Status Epilogue::Init(const FusedActivation& act, const std::string& what) {
  act_ = act;
  what_ = what;
  folded_ = lite::arm::ClampOf(act, &clamp_);
  if (folded_) return Status::OK();
  clamp_ = lite::arm::Clamp();
  xnn_operator_t op = nullptr;
  xnn_status s = xnn_status_success;
  const char* call = "";
  switch (act.kind) {
    case FusedActivation::kHardSwish:
      if (act.alpha != 6.f || act.beta != 6.f || act.gamma != 3.f) break;
      s = xnn_create_hardswish_nc_f32(1, 1, 1, 0, &op);
      call = "xnn_create_hardswish_nc_f32";
      break;
    case FusedActivation::kSigmoid:
      s = xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &op);
      call = "xnn_create_sigmoid_nc_f32";
      break;
    case FusedActivation::kLeakyRelu:
      s = xnn_create_leaky_relu_nc_f32(1, 1, 1, act.alpha, 0, &op);
      call = "xnn_create_leaky_relu_nc_f32";
      break;
    default: break;
  }
  RETURN_IF_ERROR(lite::arm::XnnCheck(s, what_ + " fused " + act.name(), call));
  op_.reset(op);
  n_ = 0;
  data_ = nullptr;
  return Status::OK();
}

std::string Epilogue::What() const { return what_ + " fused " + act_.name(); }

Status Epilogue::Run(float* data, size_t n, pthreadpool_t pool) {
  if (folded_) return Status::OK();
  if (!op_) {
    act_.ApplyInPlace(data, static_cast<int64_t>(n));
    return Status::OK();
  }
  if (n != n_ || data != data_ || pool != pool_) {
    xnn_status s = xnn_status_success;
    const char* call = "";
    switch (act_.kind) {
      case FusedActivation::kHardSwish:
        s = xnn_setup_hardswish_nc_f32(op_.get(), n, data, data, pool);
        call = "xnn_setup_hardswish_nc_f32";
        break;
      case FusedActivation::kSigmoid:
        s = xnn_setup_sigmoid_nc_f32(op_.get(), n, data, data, pool);
        call = "xnn_setup_sigmoid_nc_f32";
        break;
      default:
        s = xnn_setup_leaky_relu_nc_f32(op_.get(), n, data, data, pool);
        call = "xnn_setup_leaky_relu_nc_f32";
        break;
    }
    if (s != xnn_status_success) return lite::arm::XnnCheck(s, What(), call);
    n_ = n;
    data_ = data;
    pool_ = pool;
  }
  const xnn_status s = xnn_run_operator(op_.get(), pool);
  if (s != xnn_status_success) return lite::arm::XnnCheck(s, What(), "xnn_run_operator");
  return Status::OK();
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
