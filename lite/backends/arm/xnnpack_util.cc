#include "lite/backends/arm/xnnpack_util.h"

#include <cmath>
#include <map>
#include <mutex>

namespace lite {
namespace arm {

Status InitXnnpack() {
  static const xnn_status status = xnn_initialize(nullptr);
  return XnnCheck(status, "arm target", "xnn_initialize");
}

pthreadpool_t SharedThreadPool(int threads) {
  if (threads <= 1) return nullptr;
  static std::mutex mu;
  static auto* pools = new std::map<int, pthreadpool_t>;
  std::lock_guard<std::mutex> lock(mu);
  pthreadpool_t& pool = (*pools)[threads];
  if (!pool) pool = pthreadpool_create(static_cast<size_t>(threads));
  return pool;
}

Status XnnCheck(xnn_status status, const std::string& what, const char* call) {
  if (status == xnn_status_success) return Status::OK();
  return Unimplemented(what + ": XNNPACK " + call + " failed (xnn_status " +
                       std::to_string(static_cast<int>(status)) + ")");
}

Status CheckFp16Arithmetic() {
  static const xnn_status status = [] {
    if (xnn_initialize(nullptr) != xnn_status_success) return xnn_status_uninitialized;
    // The smallest f16 operator the fp16 kernels use: XNNPACK answers
    // xnn_status_unsupported_hardware where the CPU lacks f16 arithmetic.
    xnn_operator_t op = nullptr;
    const uint16_t w = 0;
    const xnn_status s = xnn_create_fully_connected_nc_f16(1, 1, 1, 1, &w, nullptr, -INFINITY,
                                                           INFINITY, 0, &op);
    if (op) xnn_delete_operator(op);
    return s;
  }();
  if (status == xnn_status_success) return Status::OK();
  if (status == xnn_status_unsupported_hardware) {
    return FailedPrecondition(
        "fp16: this CPU lacks the half-precision arithmetic XNNPACK's f16 operators need "
        "(ARMv8.2-A FP16 on arm64, F16C on x86-64); run without enable_fp16");
  }
  return XnnCheck(status, "fp16 probe", "xnn_create_fully_connected_nc_f16");
}

Status ToHalf(const float* src, size_t n, std::vector<uint16_t>* dst) {
  dst->resize(n);
  if (n == 0) return Status::OK();
  xnn_operator_t raw = nullptr;
  RETURN_IF_ERROR(XnnCheck(xnn_create_convert_nc_f32_f16(1, 1, 1, 0, &raw), "fp16 weights",
                           "xnn_create_convert_nc_f32_f16"));
  XnnOperator op(raw);
  RETURN_IF_ERROR(XnnCheck(xnn_setup_convert_nc_f32_f16(op.get(), n, src, dst->data(), nullptr),
                           "fp16 weights", "xnn_setup_convert_nc_f32_f16"));
  return XnnCheck(xnn_run_operator(op.get(), nullptr), "fp16 weights", "xnn_run_operator");
}

bool ClampOf(const operators::FusedActivation& act, Clamp* clamp) {
  using A = operators::FusedActivation;
  *clamp = Clamp();
  switch (act.kind) {
    case A::kNone: return true;
    case A::kRelu: clamp->lo = 0.f; return true;
    case A::kRelu6:
      clamp->lo = 0.f;
      clamp->hi = act.alpha;
      return true;
    default: return false;
  }
}

}  // namespace arm
}  // namespace lite
