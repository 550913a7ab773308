// What the own x86 kernels' microbenchmarks (*_bench.cc beside this file)
// share: a monotonic clock in seconds and the median of a run's timings.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace lite {
namespace x86 {
namespace bench {

inline double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace bench
}  // namespace x86
}  // namespace lite
