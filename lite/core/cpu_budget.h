// What the operating system lets this process use and how busy it is.
//
// UsableCpus() is the number of CPUs the process may run on: the CPUs of its
// affinity mask (sched_getaffinity, set by taskset or a container's cpuset),
// further capped by a CFS bandwidth quota (a container's `--cpus`: cgroup v2
// cpu.max or v1 cpu.cfs_quota_us / cpu.cfs_period_us), rounded up. CapThreads
// applies it to a requested thread count and says why when it lowers it.
//
// ProcessRunDelayNs() and IdleNs() are the two counters ThreadGovernor reads:
// the time this process's threads spent runnable but waiting for a CPU
// (/proc/self/task/*/schedstat, field 2), and the idle time of the CPUs the
// process may use (/proc/stat). Both return -1 when the kernel does not
// provide them. Nothing here keeps state; every call reads the files again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lite {

// The CPUs of this process's affinity mask, ascending (all online CPUs when
// the mask cannot be read).
std::vector<int> AffinityCpus();

// The quota in CPUs from cgroup files' contents: `cpu_max` is a v2 cpu.max
// ("max 100000" or "150000 100000"); `quota_us` / `period_us` are v1's
// (quota "-1" = none). Returns 0 when there is no quota. Pure, for tests.
double ParseCpuQuota(const std::string& cpu_max, const std::string& quota_us,
                     const std::string& period_us);

// min(affinity CPUs, ceil(cgroup quota)), at least 1.
int UsableCpus();

struct ThreadCap {
  int threads = 1;
  std::string note;  // "" when nothing was capped
};
// `requested` lowered to `usable` CPUs when above, with a one-line note
// naming both. Pure, for tests; CapThreads(requested) uses UsableCpus().
ThreadCap CapThreads(int requested, int usable);
ThreadCap CapThreads(int requested);

// Sum over this process's threads of the time they waited on a run queue,
// in ns; -1 when /proc/self/task/*/schedstat is unavailable.
int64_t ProcessRunDelayNs();

// Idle (+ iowait) time of `cpus` since boot, in ns, from /proc/stat; -1 when
// unreadable.
int64_t IdleNs(const std::vector<int>& cpus);

}  // namespace lite
