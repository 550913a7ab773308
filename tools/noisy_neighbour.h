// NoisyNeighbour: another process that keeps one CPU busy, for measuring
// how a predictor behaves on a shared machine (benchmark --noisy_neighbour).
//
// Start() forks a child that busy-loops on one CPU at the lowest priority
// (nice 19) in its own autogroup (setsid), as an unrelated service would
// run: on Linux with autogroup scheduling, nice only orders threads within
// one autogroup, so against our process it gets a fair share of its CPU. The child ends
// when the NoisyNeighbour is destroyed, when this process dies
// (PR_SET_PDEATHSIG), or after `max_seconds`, whichever comes first: it
// never outlives the benchmark. The caller owns the object.
#pragma once

#include <sys/types.h>

#include <memory>

#include "lite/utils/status.h"

namespace lite {
namespace tools {

class NoisyNeighbour {
 public:
  static StatusOr<std::unique_ptr<NoisyNeighbour>> Start(int cpu, double max_seconds);
  ~NoisyNeighbour();
  NoisyNeighbour(const NoisyNeighbour&) = delete;
  NoisyNeighbour& operator=(const NoisyNeighbour&) = delete;

  int cpu() const { return cpu_; }

 private:
  NoisyNeighbour(pid_t pid, int cpu) : pid_(pid), cpu_(cpu) {}
  pid_t pid_;
  int cpu_;
};

}  // namespace tools
}  // namespace lite
