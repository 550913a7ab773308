#include "lite/core/buffer_pool.h"

namespace lite {

namespace {
thread_local BufferPool* current_pool = nullptr;
}  // namespace

std::shared_ptr<Buffer> BufferPool::Acquire(size_t bytes) {
  auto it = free_.lower_bound(bytes);
  if (it == free_.end() || it->first > 2 * bytes + 4096) return nullptr;
  std::shared_ptr<Buffer> b = std::move(it->second);
  free_bytes_ -= it->first;
  free_.erase(it);
  in_use_ += b->size();
  if (in_use_ > peak_in_use_) peak_in_use_ = in_use_;
  return b;
}

void BufferPool::NoteAllocation(size_t bytes) {
  allocated_bytes_ += bytes;
  in_use_ += bytes;
  if (in_use_ > peak_in_use_) peak_in_use_ = in_use_;
}

void BufferPool::Release(Tensor* tensor) {
  std::shared_ptr<Buffer> b = tensor->TakeBuffer();
  if (!b || !b->owned()) return;
  if (b.use_count() != 1) return;  // another tensor still holds it
  in_use_ -= b->size() <= in_use_ ? b->size() : in_use_;
  free_bytes_ += b->size();
  free_.emplace(b->size(), std::move(b));
}

ScopedBufferPool::ScopedBufferPool(BufferPool* pool) : previous_(current_pool) {
  current_pool = pool;
}

ScopedBufferPool::~ScopedBufferPool() { current_pool = previous_; }

BufferPool* CurrentBufferPool() { return current_pool; }

}  // namespace lite
