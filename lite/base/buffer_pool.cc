#include "lite/base/buffer_pool.h"

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

void BufferPool::NoteTensor(Tensor* t, size_t bytes) {
  if (recorder_) recorder_->Allocated(t, bytes);
}

void BufferPool::DropFree() {
  free_.clear();
  free_bytes_ = 0;
}

void BufferPool::Release(Tensor* tensor) {
  std::shared_ptr<Buffer> b = tensor->TakeBuffer();
  const bool pooled = b && b->owned() && b.use_count() == 1;
  // A view of a guessed arena held by this tensor alone is released like a
  // pooled buffer: its memory is free for another slot from here on.
  const bool sole_view = b && b->view() && b.use_count() == 1;
  if (recorder_ && b) recorder_->Released(tensor, pooled || sole_view);
  if (!pooled) return;  // none, caller memory or an arena view, or shared
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
