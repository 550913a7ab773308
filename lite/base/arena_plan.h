// ArenaPlan: activation memory as offsets in one arena, planned from a
// recorded run (the issue-12 memory plan on top of memory_optimize_pass).
//
// The first run of an input-shape signature runs on the BufferPool and an
// ArenaRecorder logs, per instruction step, every pool allocation of a
// tensor and every release that returned its buffer to the pool (the last
// use memory_optimize_pass recorded). Tensors whose buffer was released
// while another tensor still shared it, or that were never released
// (outputs, fetched vars), are left out: they stay on the pool. Plan()
// places the rest greedily (largest first, ties by first allocation) at the
// lowest offset whose bytes no tensor with an overlapping lifetime uses, so
// the arena is about the largest live set. Later runs of the same signature
// Bind() each tensor to its slot before running: kernels then find a buffer
// of the right size and allocate nothing; a tensor that needs more than its
// slot (a shape set by a tensor's value) falls back to the pool. Outputs are
// bit-identical either way (only addresses change). A new signature records
// and plans again. Owned by RuntimeProgram; single-threaded like a run.
//
// A first sight of a new signature costs more than a repeat mostly in fresh
// memory: every pool allocation of 4 MB or more is a new mapping whose pages
// fault in (lite/utils/memory.h), and so was each new arena. So the program
// keeps one warm arena buffer, the largest in use so far, and every plan binds
// into it when it fits; and the recording run of a new signature binds the
// previous plan Scaled() by the ratio of input elements into it, while the
// recorder notes those slots like pool buffers (Tensor::mutable_data,
// BufferPool::Release): a tensor that outgrows its guessed slot takes a pool
// buffer, so the guess never changes a result, only where most tensors live.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/tensor.h"

namespace lite {

class ArenaRecorder {
 public:
  void set_step(int step) { step_ = step; }
  void Allocated(Tensor* t, size_t bytes);
  // `pooled`: the buffer went back to the pool (no other holder).
  void Released(Tensor* t, bool pooled);

  struct Life {
    Tensor* tensor = nullptr;
    size_t bytes = 0;
    int first = 0, last = -1;  // steps; last -1: never released
    int order = 0;             // first allocation's rank
    bool unplannable = false;  // released while shared, or reallocated after release
  };
  const std::vector<Life>& lives() const { return lives_; }

 private:
  int step_ = 0;
  std::vector<Life> lives_;
  std::map<const Tensor*, size_t> index_;  // lookup only, never iterated
};

class ArenaPlan {
 public:
  struct Slot {
    Tensor* tensor;
    size_t offset, bytes;
    int first, last;
  };
  // Offsets for the recorded tensors that qualify (see above).
  static std::unique_ptr<ArenaPlan> Plan(const ArenaRecorder& recorded);

  // Points every slot's tensor at its part of the arena: `*warm` when it is
  // at least arena_bytes(), else a new buffer, which then becomes `*warm`.
  void Bind(std::shared_ptr<Buffer>* warm);
  // The same slots (tensors, lifetimes) with every offset and size times
  // `ratio`, rounded so that slots apart here stay apart.
  std::unique_ptr<ArenaPlan> Scaled(double ratio) const;
  // Drops the views of tensors still bound here (before a new plan).
  void Unbind();
  size_t arena_bytes() const { return arena_bytes_; }
  size_t planned_bytes() const { return planned_bytes_; }  // sum, no reuse
  const std::vector<Slot>& slots() const { return slots_; }

 private:
  std::vector<Slot> slots_;
  size_t arena_bytes_ = 0, planned_bytes_ = 0;
  std::shared_ptr<Buffer> arena_;
};

}  // namespace lite
