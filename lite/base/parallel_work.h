// kMinParallelWork: below this rough cost (in multiply-adds or element
// operations) a job stays on the calling thread, since waking a worker costs
// more. Shared by the kernels' ThreadPool loops (lite/core/kernel.h) and the
// OpenMP loops of lite/backends/x86. A constant, owned by no one.
//
// ThreadsForWork: how many of the `threads` a job of `work` uses. A fork and
// join costs a few microseconds more per extra thread on a many-core machine,
// so a job gets one more thread only per kMinWorkPerThread of work (about
// 5-10 us of arithmetic on one core). Two threads are never capped, so a
// 2-thread predictor splits exactly as before; the cap matters from 3 threads
// up, where sub-millisecond models stopped getting faster after 4 threads.
// Which rows a thread gets never changes an element's arithmetic, so outputs
// do not depend on the cap.
#pragma once

#include <algorithm>
#include <cstdint>

namespace lite {

constexpr int64_t kMinParallelWork = 64 * 1024;
constexpr int64_t kMinWorkPerThread = 4 * kMinParallelWork;

inline int ThreadsForWork(int threads, int64_t work) {
  if (threads <= 1 || work < kMinParallelWork) return 1;
  const int64_t useful = std::max<int64_t>(2, work / kMinWorkPerThread);
  return static_cast<int>(std::min<int64_t>(threads, useful));
}

}  // namespace lite
