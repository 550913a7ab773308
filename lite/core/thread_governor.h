// ThreadGovernor: how many threads a predictor's next run should use when
// the machine is shared.
//
// Why it exists: every thread pool the engine runs on splits a kernel into
// one piece per thread and waits for all of them. OpenMP (oneDNN, x86) and
// pthreadpool (XNNPACK) keep idle workers spinning between kernels, so to
// the scheduler they are always busy. When another process needs one of the
// CPUs, the scheduler time-slices it against our spinning worker in slices
// of milliseconds, and each of the hundreds of kernels of a run waits up to
// a slice for the descheduled piece: 2 threads ran ten times slower than 1.
// Neither library lets a process change its spin policy after start-up
// (libgomp reads OMP_WAIT_POLICY once when it loads; pthreadpool's spin is
// compiled in), so the engine changes what it controls: the thread count.
//
// How: around each run (sampled, so small models pay ~nothing) it reads the
// time this process's threads spent runnable but waiting for a CPU. When
// that exceeds kContendedShare of the threads' run time in two windows in a
// row, the next runs use one thread (runs at one thread do not wait on
// anyone). While reduced, it watches the idle time of the process's CPUs and
// tries the requested count again once a CPU has been idle and a back-off
// (1 s, doubling to 64 s while contention persists) has passed. Each change
// is one line from change_note().
//
// Ownership: the caller (PredictorRuntime) owns it and calls BeginRun /
// EndRun around every run from one thread at a time. Counters are read
// through a Source so tests can drive it with made-up numbers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace lite {

class ThreadGovernor {
 public:
  struct Source {
    std::function<int64_t()> now_ns;        // a monotonic clock
    std::function<int64_t()> run_delay_ns;  // -1 when unknown
    std::function<int64_t()> idle_ns;       // idle of the usable CPUs; -1 when unknown
  };
  static Source SystemSource();

  // Share of the threads' run time spent waiting for a CPU above which a
  // window counts as contended.
  static constexpr double kContendedShare = 0.2;
  // A window closes after this much sampled run time or kWindowRuns sampled
  // runs, whichever comes first.
  static constexpr int64_t kWindowNs = 20 * 1000 * 1000;
  static constexpr int kWindowRuns = 3;
  // At most one run is sampled per kSampleGapNs.
  static constexpr int64_t kSampleGapNs = 10 * 1000 * 1000;
  static constexpr int64_t kMinBackoffNs = 1000LL * 1000 * 1000;
  static constexpr int64_t kMaxBackoffNs = 64LL * 1000 * 1000 * 1000;

  // `requested` >= 1 threads (already capped to the usable CPUs).
  explicit ThreadGovernor(int requested, Source source = SystemSource());

  int requested() const { return requested_; }
  // Threads the next run should use: requested() or 1.
  int threads() const { return current_; }

  void BeginRun();
  void EndRun();

  // A line saying why threads() changed at the last EndRun; "" otherwise.
  const std::string& change_note() const { return note_; }

 private:
  void JudgeWindow();
  void Reduce(double share);
  void Restore();

  const int requested_;
  int current_;
  Source source_;

  // Run timing and sampling.
  int64_t run_begin_ns_ = 0;
  int64_t last_sample_begin_ns_ = -kSampleGapNs;  // the first run is sampled
  bool sampling_ = false;
  int64_t begin_delay_ns_ = 0;

  // The open window (full thread count).
  int64_t window_run_ns_ = 0;
  int64_t window_delay_ns_ = 0;
  int window_runs_ = 0;
  int contended_windows_ = 0;

  // While reduced.
  int64_t backoff_ns_ = kMinBackoffNs;
  int64_t reduced_at_ns_ = 0;
  int64_t reduced_idle_ns_ = -1;
  bool probing_ = false;  // running at requested_ again on trial

  std::string note_;
};

}  // namespace lite
