// MemoryBudget: the predictor's side of ConfigBase::set_memory_limit_mb
// (docs/memory.md).
//
// The limit is on the process's resident set (VmRSS), the number an OOM
// killer or a container limit looks at. Before a run of an input signature
// other than the one run last, the budget estimates what the run will need.
// First from a dry planning pass (RuntimeProgram::ActivationBytesAhead: the
// shapes inferred, the largest set of activations live at once, about the
// arena the run will plan): those bytes times the need per planned byte
// measured on earlier runs (for a run that raised the process's peak,
// VmHWM, that peak above where the run started plus the part of the warm
// arena buffer, arena_plan.h, the run reused; or the growth of RSS), and
// before any such measurement kFirstRunRatio (on all but what a device
// subgraph added, its compile's estimate, which counts once) plus, for the
// very first run, kFirstRunBytes: so the first run is checked too, on npu
// as well. Where shapes cannot be known ahead (values decide them), the
// bytes per input element measured on earlier first runs (the largest of
// the pool's new allocations, the growth of RSS and the peak above the
// start, after the first run) times this run's input elements; then the
// first run is not checked. When the
// projected RSS (ProjectedRssBytes: the process's RSS less the part of the
// warm arena buffer the new run's arena will reuse, plus that estimate) is
// over the limit, it releases cached per-shape state: the
// buffer pool's free buffers, the NPU executables but the last run one
// (ReleaseNpuCaches), process-wide caches (TrimProcessCaches: oneDNN's
// primitive cache, then malloc_trim). If it still does not fit, the run is
// refused with InvalidArgument naming the input, its shape, the estimate and
// the limit; nothing ran, so the predictor stays usable for smaller inputs.
// After every run that leaves RSS above the limit it releases the same way,
// so the next run starts below it. Without a limit (0) nothing here runs.
//
// One per PredictorRuntime; used from the thread that runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/core/program.h"

namespace lite {

class MemoryBudget {
 public:
  void set_limit_bytes(int64_t bytes) { limit_ = bytes < 0 ? 0 : bytes; }
  int64_t limit_bytes() const { return limit_; }

  // Before `program` (one of `all`, the predictor's programs) runs
  // `signature`, whose feeds hold `input_elements` elements in all (`feeds`
  // describes them for the error). OK when the run may proceed.
  Status BeforeRun(RuntimeProgram* program, const std::vector<RuntimeProgram*>& all,
                   const std::string& signature, int64_t input_elements, const std::string& feeds);
  // After the run (ok or not): learns the estimate from a first run of a
  // signature, releases when RSS is over the limit.
  void AfterRun(RuntimeProgram* program, const std::vector<RuntimeProgram*>& all, bool ok);

  // The RSS a first run of a new signature is projected to reach: `rss` now,
  // of which `warm_arena` bytes are the program's warm arena buffer, which
  // the run keeps and binds its own arena (about `arena_estimate` bytes)
  // into; `need` is the run's whole estimate, its arena included. The reused
  // part is the smaller of the two: a warm buffer larger than the run's
  // arena stays resident, and an arena larger than it replaces it.
  static int64_t ProjectedRssBytes(int64_t rss, int64_t warm_arena, int64_t arena_estimate,
                                   int64_t need);

  // Releases what `programs` and the process cache per shape; counted.
  void Release(const std::vector<RuntimeProgram*>& programs);

  // The budget's counters in `stats` (the rest is filled by the predictor).
  void Fill(paddle::lite_api::MemoryStats* stats) const;

 private:
  // Before any run has been measured, a run's need per planned activation
  // byte, and a first run's one-time bytes (code, JIT, reordered weights).
  // det's first run needed 2.3x (x86) and 2.5x (host) its planned bytes
  // plus about 3 MB, with no plan to bind and no warm arena yet
  // (docs/memory.md); later runs measure their own ratio.
  static constexpr double kFirstRunRatio = 2.75;
  static constexpr int64_t kFirstRunBytes = 8 << 20;

  int64_t limit_ = 0;
  // The largest need per planned activation byte measured; 0 before one.
  double planned_ratio_ = 0;
  int64_t planned_ = -1;   // this first sight's planned activation bytes
  int64_t estimate_ = 0;   // and its estimated need
  double bytes_per_element_ = 0;  // the estimate's rate, 0 before a measured run
  // Arena bytes per input element of the plans made so far, the smallest
  // (the part of a run's need assumed to reuse the warm buffer); -1: none.
  double arena_per_element_ = -1;
  int measured_runs_ = 0;
  std::string last_signature_;
  // The current run's starting point (BeforeRun -> AfterRun).
  std::string signature_;
  bool first_sight_ = false;
  int64_t elements_ = 0;
  int64_t rss_before_ = 0;
  int64_t warm_before_ = 0;  // the warm arena buffer before the run
  int64_t peak_before_ = -1;  // VmHWM before the run
  size_t pool_allocated_before_ = 0;
  int releases_ = 0;
  int refused_ = 0;
};

}  // namespace lite
