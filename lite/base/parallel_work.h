// kMinParallelWork: below this rough cost (in multiply-adds or element
// operations) a job stays on the calling thread, since waking a worker costs
// more. Shared by the kernels' ThreadPool loops (lite/core/kernel.h) and the
// OpenMP loops of lite/backends/x86. A constant, owned by no one.
#pragma once

#include <cstdint>

namespace lite {

constexpr int64_t kMinParallelWork = 64 * 1024;

}  // namespace lite
