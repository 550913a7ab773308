// ThreadPool and the KernelContext ParallelFor helpers: chunks cover [0, n)
// exactly once, chunk indices are stable per thread, null pools run inline.
#include "lite/core/thread_pool.h"

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/kernel.h"

namespace lite {
namespace {

TEST(ThreadPool, CoversRangeOnce) {
  ThreadPool pool(2);
  EXPECT_EQ(pool.size(), 2);
  for (int64_t n : {0, 1, 2, 3, 7, 1000}) {
    std::vector<std::atomic<int>> hits(n);
    for (auto& h : hits) h = 0;
    pool.ParallelFor(n, [&](int64_t b, int64_t e) {
      EXPECT_LE(0, b);
      EXPECT_LE(b, e);
      EXPECT_LE(e, n);
      for (int64_t i = b; i < e; ++i) ++hits[i];
    });
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(hits[i], 1) << "n=" << n << " i=" << i;
  }
}

TEST(ThreadPool, ContiguousChunksOnDistinctThreads) {
  ThreadPool pool(3);
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> ranges(3, {-1, -1});
  std::set<std::thread::id> ids;
  pool.ParallelForChunks(10, [&](int chunk, int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lk(mu);
    ranges[chunk] = {b, e};
    ids.insert(std::this_thread::get_id());
  });
  using Range = std::pair<int64_t, int64_t>;
  EXPECT_EQ(ranges[0], Range(0, 3));
  EXPECT_EQ(ranges[1], Range(3, 6));
  EXPECT_EQ(ranges[2], Range(6, 10));
  EXPECT_EQ(ids.size(), 3u);
}

TEST(ThreadPool, ChunkZeroRunsOnCaller) {
  ThreadPool pool(2);
  const auto caller = std::this_thread::get_id();
  pool.ParallelForChunks(2, [&](int chunk, int64_t, int64_t) {
    if (chunk == 0) {
      EXPECT_EQ(std::this_thread::get_id(), caller);
    } else {
      EXPECT_NE(std::this_thread::get_id(), caller);
    }
  });
}

TEST(ThreadPool, ManyJobsAndNestedCallsRunInline) {
  ThreadPool pool(2);
  std::atomic<int64_t> sum{0};
  for (int rep = 0; rep < 2000; ++rep) {
    pool.ParallelFor(4, [&](int64_t b, int64_t e) {
      pool.ParallelFor(e - b, [&](int64_t b2, int64_t e2) { sum += e2 - b2; });
    });
  }
  EXPECT_EQ(sum.load(), 2000 * 4);
}

TEST(ThreadPool, SingleThreadCallsOnce) {
  ThreadPool pool(1);
  int calls = 0;
  pool.ParallelFor(5, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 5);
  });
  EXPECT_EQ(calls, 1);
}

TEST(KernelContextParallelFor, NullPoolAndSmallWorkRunInline) {
  KernelContext ctx;
  EXPECT_EQ(NumThreads(&ctx), 1);
  EXPECT_EQ(NumThreads(nullptr), 1);
  int calls = 0;
  ParallelFor(nullptr, 8, kMinParallelWork, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(e - b, 8);
  });
  ParallelFor(&ctx, 8, kMinParallelWork, [&](int64_t b, int64_t e) { ++calls; });
  EXPECT_EQ(calls, 2);

  ctx.set_threads(2);
  EXPECT_EQ(NumThreads(&ctx), 2);
  std::atomic<int> chunks{0};
  ParallelFor(&ctx, 8, /*work=*/1, [&](int64_t b, int64_t e) { ++chunks; });
  EXPECT_EQ(chunks.load(), 1);
  chunks = 0;
  ParallelForChunks(&ctx, 8, kMinParallelWork, [&](int c, int64_t, int64_t) {
    EXPECT_LT(c, 2);
    ++chunks;
  });
  EXPECT_EQ(chunks.load(), 2);
}

}  // namespace
}  // namespace lite
