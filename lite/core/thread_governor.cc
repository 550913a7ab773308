#include "lite/core/thread_governor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "lite/core/cpu_budget.h"

namespace lite {

ThreadGovernor::Source ThreadGovernor::SystemSource() {
  Source s;
  s.now_ns = [] {
    return static_cast<int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    std::chrono::steady_clock::now().time_since_epoch())
                                    .count());
  };
  s.run_delay_ns = [] { return ProcessRunDelayNs(); };
  const std::vector<int> cpus = AffinityCpus();
  s.idle_ns = [cpus] { return IdleNs(cpus); };
  return s;
}

ThreadGovernor::ThreadGovernor(int requested, Source source)
    : requested_(requested < 1 ? 1 : requested),
      current_(requested_),
      source_(std::move(source)) {}

void ThreadGovernor::BeginRun() {
  note_.clear();
  if (requested_ == 1) return;
  run_begin_ns_ = source_.now_ns();
  // At most one sampled run per kSampleGapNs: reading the counters costs
  // tens of microseconds, under 1% of the run time this way.
  sampling_ = current_ > 1 && run_begin_ns_ - last_sample_begin_ns_ >= kSampleGapNs;
  if (sampling_) {
    last_sample_begin_ns_ = run_begin_ns_;
    begin_delay_ns_ = source_.run_delay_ns();
    if (begin_delay_ns_ < 0) sampling_ = false;  // no counters: never adapt
  }
}

void ThreadGovernor::EndRun() {
  if (requested_ == 1) return;
  const int64_t end = source_.now_ns();
  const int64_t run_ns = end - run_begin_ns_;
  if (current_ == 1) {
    // Reduced: try the requested count again once the back-off has passed
    // and the usable CPUs had idle time beyond the one we keep busy.
    if (end - reduced_at_ns_ < backoff_ns_) return;
    const int64_t idle = source_.idle_ns();
    const bool cpu_was_free =
        idle < 0 || reduced_idle_ns_ < 0 ||
        static_cast<double>(idle - reduced_idle_ns_) >= 0.5 * (end - reduced_at_ns_);
    if (cpu_was_free) {
      Restore();
    } else {
      reduced_at_ns_ = end;  // still busy: look again after another back-off
      reduced_idle_ns_ = idle;
    }
    return;
  }
  if (!sampling_) return;
  sampling_ = false;
  const int64_t delay = source_.run_delay_ns();
  if (delay < 0) return;
  window_run_ns_ += run_ns;
  window_delay_ns_ += std::max<int64_t>(0, delay - begin_delay_ns_);
  ++window_runs_;
  if (window_run_ns_ >= kWindowNs || window_runs_ >= kWindowRuns) JudgeWindow();
}

void ThreadGovernor::JudgeWindow() {
  const double share = static_cast<double>(window_delay_ns_) /
                       (static_cast<double>(window_run_ns_) * current_ + 1.0);
  window_run_ns_ = window_delay_ns_ = 0;
  window_runs_ = 0;
  if (share < kContendedShare) {
    contended_windows_ = 0;
    if (probing_) {  // the trial passed: the machine is quiet again
      probing_ = false;
      backoff_ns_ = kMinBackoffNs;
    }
    return;
  }
  // A trial after a back-off needs one contended window; otherwise two in a
  // row (one can be a burst).
  if (probing_ || ++contended_windows_ >= 2) Reduce(share);
}

void ThreadGovernor::Reduce(double share) {
  if (probing_) backoff_ns_ = std::min(backoff_ns_ * 2, kMaxBackoffNs);
  probing_ = false;
  contended_windows_ = 0;
  current_ = 1;
  reduced_at_ns_ = source_.now_ns();
  reduced_idle_ns_ = source_.idle_ns();
  char line[256];
  std::snprintf(line, sizeof(line),
                "threads: %d -> 1: this process's threads waited %.0f%% of their run time for "
                "a CPU (another process is busy); trying %d again in %.0f s if a CPU is idle",
                requested_, 100.0 * share, requested_, backoff_ns_ / 1e9);
  note_ = line;
}

void ThreadGovernor::Restore() {
  current_ = requested_;
  probing_ = true;
  contended_windows_ = 0;
  window_run_ns_ = window_delay_ns_ = 0;
  window_runs_ = 0;
  last_sample_begin_ns_ = source_.now_ns() - kSampleGapNs;  // sample the trial's first run
  note_ = "threads: 1 -> " + std::to_string(requested_) + ": a CPU was idle, trying " +
          std::to_string(requested_) + " threads again";
}

}  // namespace lite
