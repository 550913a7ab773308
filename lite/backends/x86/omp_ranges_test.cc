// OmpForRanges: ranges cover [0, n) once, and a job uses no more OpenMP
// threads than its work (ThreadsForWork) and its range count allow.
#include "lite/backends/x86/omp_ranges.h"

#include <omp.h>

#include <mutex>
#include <set>

#include <gtest/gtest.h>

namespace lite {
namespace x86 {
namespace {

struct Seen {
  std::mutex mu;
  std::set<int> threads;
  int64_t covered = 0;
};

void SplitAndRecord(int threads, int64_t n, int64_t work, Seen* seen) {
  OmpForRanges(threads, n, work, [&](int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lk(seen->mu);
    seen->threads.insert(omp_get_thread_num());
    seen->covered += e - b;
  });
}

TEST(OmpForRanges, ThreadsFollowTheWork) {
  Seen small, large, few_ranges;
  SplitAndRecord(8, 64, 3 * kMinWorkPerThread, &small);
  EXPECT_EQ(small.threads.size(), 3u);
  EXPECT_EQ(small.covered, 64);
  SplitAndRecord(8, 64, 100 * kMinWorkPerThread, &large);
  EXPECT_EQ(large.threads.size(), 8u);
  EXPECT_EQ(large.covered, 64);
  SplitAndRecord(8, 5, 100 * kMinWorkPerThread, &few_ranges);
  EXPECT_EQ(few_ranges.threads.size(), 5u);
  EXPECT_EQ(few_ranges.covered, 5);
}

TEST(OmpForRanges, SmallWorkStaysOnTheCaller) {
  Seen seen;
  SplitAndRecord(8, 64, kMinParallelWork - 1, &seen);
  EXPECT_EQ(seen.threads, std::set<int>{0});
  EXPECT_EQ(seen.covered, 64);
}

}  // namespace
}  // namespace x86
}  // namespace lite
