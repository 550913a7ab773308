#include "lite/backends/arm/xnnpack_util.h"

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
