// BufferPool: the run-time half of memory_optimize_pass. The pass records on
// each op the activations whose last use it is (kReleaseAfterAttr); after the
// op runs, the runtime takes those vars' buffers back into this pool, and
// every allocation of a later op (Tensor::mutable_data) is served from it
// first, best fit by size. Sizes are known only at run time, so the plan
// adapts to any input shape: after the first run of a shape no memory is
// allocated, and the peak is close to the largest set of simultaneously live
// activations instead of their sum. The pool serves the first run of each
// input signature, which an ArenaRecorder watches (arena_plan.h); later runs
// of that signature use the planned arena, and the pool only what falls
// outside it (temporaries that outgrow a slot, unplanned tensors).
//
// The pool is owned by a RuntimeProgram's KernelContext and used only while
// that program runs (ScopedBufferPool makes it current for the thread).
// A buffer shared by two tensors (ShareDataWith) returns to the pool only
// when its last holder is released.
#pragma once

#include <cstddef>
#include <map>
#include <memory>

#include "lite/base/arena_plan.h"
#include "lite/base/tensor.h"

namespace lite {

inline constexpr const char* kReleaseAfterAttr = "__release_after__";

class BufferPool {
 public:
  // The smallest free buffer of at least `bytes` and at most twice that,
  // or nullptr.
  std::shared_ptr<Buffer> Acquire(size_t bytes);
  // Takes `tensor`'s buffer back when no other tensor shares it; the tensor
  // keeps dims and dtype but no data.
  void Release(Tensor* tensor);

  // Arena planning (arena_plan.h): while a recorder is set, tensor
  // allocations through the pool and releases are logged to it.
  void set_recorder(ArenaRecorder* r) { recorder_ = r; }
  void NoteTensor(Tensor* t, size_t bytes);
  // Frees every cached free buffer (when an arena takes over).
  void DropFree();

  size_t free_bytes() const { return free_bytes_; }
  size_t allocated_bytes() const { return allocated_bytes_; }  // ever handed out new
  size_t peak_bytes() const { return peak_in_use_; }
  void NoteAllocation(size_t bytes);

 private:
  std::multimap<size_t, std::shared_ptr<Buffer>> free_;
  ArenaRecorder* recorder_ = nullptr;
  size_t free_bytes_ = 0;
  size_t allocated_bytes_ = 0;
  size_t in_use_ = 0;
  size_t peak_in_use_ = 0;
};

// Makes `pool` the one Tensor::mutable_data draws from on this thread for
// the scope's lifetime (nullptr: plain allocation).
class ScopedBufferPool {
 public:
  explicit ScopedBufferPool(BufferPool* pool);
  ~ScopedBufferPool();
  ScopedBufferPool(const ScopedBufferPool&) = delete;
  ScopedBufferPool& operator=(const ScopedBufferPool&) = delete;

 private:
  BufferPool* previous_;
};

// The pool current on this thread, or nullptr.
BufferPool* CurrentBufferPool();

}  // namespace lite
