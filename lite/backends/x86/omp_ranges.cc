#include "lite/backends/x86/omp_ranges.h"

#include <omp.h>

#include <algorithm>

namespace lite {
namespace x86 {

bool OmpSplits(const KernelContext* ctx, int64_t work) {
  return ctx && ctx->threads > 1 && work >= kMinParallelWork;
}

void OmpForRanges(const KernelContext* ctx, int64_t n, int64_t work,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (!OmpSplits(ctx, work)) {
    fn(0, n);
    return;
  }
#pragma omp parallel num_threads(ctx->threads)
  {
    const int64_t nt = omp_get_num_threads(), id = omp_get_thread_num();
    fn(n * id / nt, n * (id + 1) / nt);
  }
}

}  // namespace x86
}  // namespace lite
