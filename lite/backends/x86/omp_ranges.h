// OmpForRanges: how the own x86 kernels (Winograd, 1x1 GEMM, first conv)
// and the x86 kernels' own loops split work over threads. They use OpenMP,
// the runtime oneDNN's primitives around them use (Debian's oneDNN is built
// with it): a second pool of threads would compete with libgomp's workers
// spinning between x86 ops.
// The thread count is the predictor's (the kernel passes its threads()).
#pragma once

#include <cstdint>
#include <functional>

#include "lite/base/parallel_work.h"

namespace lite {
namespace x86 {

// True when OmpForRanges splits `work` (more than one thread asked for and
// at least kMinParallelWork).
bool OmpSplits(int threads, int64_t work);

// fn(i0, i1) over ranges covering [0, n): all of it on this thread unless
// OmpSplits(threads, work), else an equal share per OpenMP thread.
void OmpForRanges(int threads, int64_t n, int64_t work,
                  const std::function<void(int64_t, int64_t)>& fn);

// The same with the caller's rule: split only when `split` and threads > 1.
// Unsplit, no OpenMP region is entered: a `#pragma omp parallel ... if`
// whose condition is false still costs about 0.85 us (libgomp builds and
// frees a one-thread team), which small ops such as the PP-OCR classifier's
// SE blocks (two loops each) would pay on every run.
void OmpForRangesIf(bool split, int threads, int64_t n,
                    const std::function<void(int64_t, int64_t)>& fn);

}  // namespace x86
}  // namespace lite
