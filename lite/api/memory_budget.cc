#include "lite/api/memory_budget.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "lite/kernels/npu/npu_context.h"
#include "lite/utils/memory.h"

namespace lite {
namespace {

std::string Mb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f MB", bytes / (1024.0 * 1024.0));
  return buf;
}

// The process's peak resident set (VmHWM) in bytes; -1 when unreadable.
int64_t PeakRssBytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6) * 1024;
  }
  return -1;
}

int64_t ArenaBytes(const RuntimeProgram* program) {
  const ArenaPlan* arena = program->arena_plan();
  return arena ? static_cast<int64_t>(arena->arena_bytes()) : 0;
}

}  // namespace

int64_t MemoryBudget::ProjectedRssBytes(int64_t rss, int64_t warm_arena, int64_t arena_estimate,
                                        int64_t need) {
  const int64_t reused = std::min(warm_arena, std::max<int64_t>(0, std::min(arena_estimate, need)));
  return rss - reused + need;
}

void MemoryBudget::Release(const std::vector<RuntimeProgram*>& programs) {
  for (RuntimeProgram* p : programs) {
    if (!p) continue;
    p->context()->buffers.DropFree();
    p->DropWarmArena();
    kernels::npu::ReleaseNpuCaches(p->context());
  }
  TrimProcessCaches();
  ++releases_;
}

Status MemoryBudget::BeforeRun(RuntimeProgram* program, const std::vector<RuntimeProgram*>& all,
                               const std::string& signature, int64_t input_elements,
                               const std::string& feeds) {
  // Without a limit a run pays nothing here (reading /proc costs tens of
  // microseconds, the whole run of a small model).
  if (limit_ <= 0) return Status::OK();
  first_sight_ = signature != last_signature_;
  signature_ = signature;
  elements_ = input_elements;
  pool_allocated_before_ = program->context()->buffers.allocated_bytes();
  rss_before_ = ProcessRssBytes();
  warm_before_ = static_cast<int64_t>(program->warm_arena_bytes());
  if (!first_sight_ || rss_before_ < 0) return Status::OK();
  peak_before_ = PeakRssBytes();
  const double elements = static_cast<double>(elements_);
  // The dry planning pass gives this shape's activation bytes; the need is
  // those times the ratio measured on earlier runs (kFirstRunRatio before
  // any, plus the first run's one-time bytes). Without a plan (shapes not
  // known ahead), the per-element rate of earlier runs.
  int64_t inner = 0;  // of planned_, a device subgraph's estimate (RSS already)
  planned_ = program->ActivationBytesAhead(&inner);
  int64_t need = 0, arena = 0;
  if (planned_ > 0) {
    // Before a measured ratio, kFirstRunRatio covers what activations bring
    // along (det on x86 and host); a subgraph's compile estimate is RSS
    // growth measured per byte already and counts once.
    need = planned_ratio_ > 0
               ? static_cast<int64_t>(planned_ratio_ * static_cast<double>(planned_))
               : static_cast<int64_t>(kFirstRunRatio * static_cast<double>(planned_ - inner)) +
                     inner;
    need += measured_runs_ > 0 ? 0 : kFirstRunBytes;
    arena = planned_ - inner;
  } else {
    need = static_cast<int64_t>(bytes_per_element_ * elements);
    // Without a plan yet the run's arena is unknown: nothing counts as reused.
    arena = static_cast<int64_t>(std::max(0.0, arena_per_element_) * elements);
  }
  estimate_ = need;
  if (need <= 0) return Status::OK();  // nothing measured or planned yet
  // The release below drops the warm buffer, hence read each time.
  auto projected = [&] {
    return ProjectedRssBytes(ProcessRssBytes(), static_cast<int64_t>(program->warm_arena_bytes()),
                             arena, need);
  };
  if (projected() <= limit_) return Status::OK();
  Release(all);
  const int64_t after_release = projected();
  rss_before_ = ProcessRssBytes();
  peak_before_ = PeakRssBytes();
  warm_before_ = static_cast<int64_t>(program->warm_arena_bytes());
  if (after_release <= limit_) return Status::OK();
  ++refused_;
  const std::string basis =
      planned_ > 0 ? Mb(static_cast<double>(planned_)) + " of activations planned at this shape"
                   : std::to_string(static_cast<int64_t>(bytes_per_element_)) +
                         " bytes per input element, measured on earlier runs";
  return InvalidArgument(
      feeds + " needs about " + Mb(static_cast<double>(need)) + " (" + basis +
      "); the process holds " +
      Mb(static_cast<double>(after_release - need)) + " after releasing cached state, and the " +
      "memory limit is " + Mb(static_cast<double>(limit_)) +
      " (set_memory_limit_mb): the run was not started, smaller inputs still run");
}

void MemoryBudget::AfterRun(RuntimeProgram* program, const std::vector<RuntimeProgram*>& all,
                            bool ok) {
  if (limit_ <= 0) return;
  const int64_t rss = ProcessRssBytes();
  if (ok && first_sight_ && elements_ > 0) {
    const size_t allocated = program->context()->buffers.allocated_bytes();
    const double pool_rate =
        static_cast<double>(allocated - std::min(allocated, pool_allocated_before_)) / elements_;
    // The first run's RSS growth is mostly one-time (code pages, JIT, the
    // thread pool), not per element: only later first sights count it.
    const double rss_rate = measured_runs_ > 0 && rss > rss_before_ && rss_before_ >= 0
                                ? static_cast<double>(rss - rss_before_) / elements_
                                : 0;
    // A run that raised the process's peak shows its whole transient need
    // (temporaries, reordered weights, scratchpads) above where it started,
    // plus the part of the warm buffer, resident before, its arena reused.
    const int64_t peak = PeakRssBytes();
    const int64_t arena = ArenaBytes(program);  // the plan this run made
    const int64_t start = rss_before_ - std::min(warm_before_, arena);
    const double peak_rate = measured_runs_ > 0 && peak_before_ >= 0 && peak > peak_before_
                                 ? static_cast<double>(peak - start) / elements_
                                 : 0;
    bytes_per_element_ = std::max({bytes_per_element_, pool_rate, rss_rate, peak_rate});
    // The need per planned activation byte: what the run held at its peak
    // (or kept) above its start, known exactly when it raised the peak.
    if (planned_ > 0) {
      const double planned = static_cast<double>(planned_);
      const double ratio = std::max(peak_rate, rss_rate) * elements_ / planned;
      if (ratio > 0) planned_ratio_ = std::max(planned_ratio_, ratio);
    }
    const double arena_rate = static_cast<double>(arena) / elements_;
    if (arena > 0 && (arena_per_element_ < 0 || arena_rate < arena_per_element_)) {
      arena_per_element_ = arena_rate;
    }
    ++measured_runs_;
  }
  last_signature_ = ok ? signature_ : std::string();
  if (rss > limit_) Release(all);
}

void MemoryBudget::Fill(paddle::lite_api::MemoryStats* stats) const {
  stats->limit_bytes = limit_;
  stats->budget_releases = releases_;
  stats->budget_refusals = refused_;
  stats->estimate_bytes_per_input_element = bytes_per_element_;
  stats->estimate_bytes = estimate_;
  stats->planned_activation_bytes = planned_;
}

}  // namespace lite
