// A small fixed-size thread pool for data-parallel kernel loops.
//
// ThreadPool(t) starts t - 1 worker threads; the calling thread is the t-th.
// ParallelFor(n, fn) splits [0, n) into min(t, n) contiguous chunks, runs
// chunk 0 on the calling thread and chunk i on worker i, and returns when all
// are done. Chunk i always runs on the same thread, so ParallelForChunks
// passes the chunk index for per-thread scratch (index < size()). One
// ParallelFor at a time per pool: a call made while the pool is busy (nested
// or from another thread) runs inline as chunk 0 of 1. Waking a sleeping
// thread costs tens of microseconds, so idle workers (and a caller waiting
// for its workers) spin for up to kSpinMicros before blocking on a condition
// variable: back-to-back kernels then start without that latency.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lite {

class ThreadPool {
 public:
  using RangeFn = std::function<void(int64_t begin, int64_t end)>;
  using ChunkFn = std::function<void(int chunk, int64_t begin, int64_t end)>;

  static constexpr int kSpinMicros = 200;

  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that run chunks, including the caller.
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void ParallelFor(int64_t n, const RangeFn& fn);
  void ParallelForChunks(int64_t n, const ChunkFn& fn);

 private:
  void WorkerLoop(int index);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_cv_;  // a new job (or stop)
  std::condition_variable done_cv_;   // pending_ reached 0
  const ChunkFn* job_ = nullptr;
  int64_t job_n_ = 0;
  int job_chunks_ = 0;
  std::atomic<uint64_t> generation_{0};  // bumped per job (under mu_)
  std::atomic<int> pending_{0};          // worker chunks still running
  bool stop_ = false;
  std::atomic<bool> busy_{false};
};

}  // namespace lite
