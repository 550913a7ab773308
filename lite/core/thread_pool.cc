#include "lite/core/thread_pool.h"

#include <algorithm>
#include <chrono>

namespace lite {

namespace {
// Start of chunk i when [0, n) is split into `chunks` near-equal parts.
inline int64_t ChunkBegin(int64_t n, int chunks, int i) { return n * i / chunks; }

// Busy-waits up to ThreadPool::kSpinMicros for done(); true if it became true.
template <typename Pred>
bool SpinFor(Pred done) {
  const auto limit = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(ThreadPool::kSpinMicros);
  for (;;) {
    for (int i = 0; i < 256; ++i) {
      if (done()) return true;
    }
    if (std::chrono::steady_clock::now() > limit) return done();
  }
}
}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) {
    workers_.emplace_back([this, i] { WorkerLoop(i); });
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  start_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::WorkerLoop(int index) {
  uint64_t seen = 0;
  for (;;) {
    SpinFor([&] { return generation_.load(std::memory_order_acquire) != seen; });
    std::unique_lock<std::mutex> lk(mu_);
    start_cv_.wait(lk, [&] { return stop_ || generation_.load() != seen; });
    if (stop_) return;
    seen = generation_.load();
    if (index >= job_chunks_) continue;  // not needed for this job
    const ChunkFn* fn = job_;
    const int64_t n = job_n_;
    const int chunks = job_chunks_;
    lk.unlock();
    (*fn)(index, ChunkBegin(n, chunks, index), ChunkBegin(n, chunks, index + 1));
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> done_lk(mu_);  // orders with the caller's wait
      done_cv_.notify_one();
    }
  }
}

void ThreadPool::ParallelForChunks(int64_t n, const ChunkFn& fn) {
  if (n <= 0) return;
  const int chunks = static_cast<int>(std::min<int64_t>(size(), n));
  if (chunks == 1 || busy_.exchange(true)) {
    fn(0, 0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    job_ = &fn;
    job_n_ = n;
    job_chunks_ = chunks;
    pending_.store(chunks - 1);
    generation_.fetch_add(1, std::memory_order_release);
  }
  start_cv_.notify_all();
  fn(0, 0, ChunkBegin(n, chunks, 1));
  if (!SpinFor([&] { return pending_.load(std::memory_order_acquire) == 0; })) {
    std::unique_lock<std::mutex> lk(mu_);
    done_cv_.wait(lk, [&] { return pending_.load() == 0; });
  }
  busy_.store(false);
}

void ThreadPool::ParallelFor(int64_t n, const RangeFn& fn) {
  ParallelForChunks(n, [&fn](int, int64_t b, int64_t e) { fn(b, e); });
}

}  // namespace lite
