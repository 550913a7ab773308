#include "lite/backends/x86/omp_ranges.h"

#include <omp.h>

#include <algorithm>

namespace lite {
namespace x86 {

bool OmpSplits(int threads, int64_t work) {
  return threads > 1 && work >= kMinParallelWork;
}

void OmpForRanges(int threads, int64_t n, int64_t work,
                  const std::function<void(int64_t, int64_t)>& fn) {
  OmpForRangesIf(OmpSplits(threads, work), threads, n, fn);
}

void OmpForRangesIf(bool split, int threads, int64_t n,
                    const std::function<void(int64_t, int64_t)>& fn) {
  if (!split || threads <= 1) {
    fn(0, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const int64_t nt = omp_get_num_threads(), id = omp_get_thread_num();
    fn(n * id / nt, n * (id + 1) / nt);
  }
}

}  // namespace x86
}  // namespace lite
