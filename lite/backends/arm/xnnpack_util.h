// What every arm kernel needs from XNNPACK, kept out of the kernels.
//
// InitXnnpack() initialises XNNPACK once per process (thread-safe; later
// calls return the first result). SharedThreadPool(n) is the pthreadpool of
// n threads that every arm kernel of the process uses (null for one thread:
// XNNPACK then runs on the caller); pools are created on first use, one per
// thread count, and live until exit, so kernels of different predictors
// share their workers instead of each owning a spinning pool (see
// lite/core/thread_governor.h for why spinning workers are costly).
// XnnOperator owns an xnn_operator_t. ClampOf maps a fused activation to the
// [min, max] clamp XNNPACK operators apply to their output, where one exists.
// CheckFp16Arithmetic says whether this CPU runs XNNPACK's f16 operators
// (opt --enable_fp16 and the fp16 kernels refuse with its error otherwise);
// ToHalf converts float32 to IEEE half with XNNPACK's convert operator.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <limits>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/base/fused_activation.h"
#include "lite/utils/status.h"

namespace lite {
namespace arm {

Status InitXnnpack();

pthreadpool_t SharedThreadPool(int threads);

struct XnnOperatorDeleter {
  void operator()(xnn_operator_t op) const {
    if (op) xnn_delete_operator(op);
  }
};
using XnnOperator = std::unique_ptr<xnn_operator, XnnOperatorDeleter>;

// OK for xnn_status_success, else an error "<what>: XNNPACK <call> failed
// (xnn_status N)".
Status XnnCheck(xnn_status status, const std::string& what, const char* call);

// OK where XNNPACK creates f16 operators here (arm64 with ARMv8.2-A FP16
// arithmetic; x86-64 with F16C), else a FailedPrecondition naming the missing
// CPU feature. The probe runs once per process.
Status CheckFp16Arithmetic();

// `n` floats as IEEE half (bit patterns) in *dst, on the calling thread.
Status ToHalf(const float* src, size_t n, std::vector<uint16_t>* dst);

struct Clamp {
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
};
// The clamp equal to `act` (none, relu, relu6); false for other kinds.
bool ClampOf(const operators::FusedActivation& act, Clamp* clamp);

}  // namespace arm
}  // namespace lite
