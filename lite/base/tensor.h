// Tensor: dims, element type, LoD and a buffer.
//
// The buffer is either owned (64-byte aligned, shared between tensors that
// ShareDataWith each other) or external memory the caller keeps alive (zero
// copy). Resize() never touches memory; mutable_data<T>() (re)allocates when
// the buffer is too small or of another type, so a tensor can be resized
// freely between runs (dynamic shapes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/types.h"

namespace lite {

using DDim = std::vector<int64_t>;
using LoD = std::vector<std::vector<uint64_t>>;

// Product of dims (1 for a scalar with no dims). Negative dims, or a
// product that overflows int64, give -1.
int64_t Product(const DDim& dims);
std::string DimsToString(const DDim& dims);  // "[1, 3, 224, 224]"

// The largest single tensor allocation, in bytes (default 4 GiB). The
// runtime refuses to run an op whose output would need more (an error naming
// the op and var), so a model's huge shape attribute or a feed with a huge
// dim never reaches the allocator. Process-wide; set before creating
// predictors.
void SetMaxTensorBytes(uint64_t bytes);
uint64_t MaxTensorBytes();
// The text of the error for a std::bad_alloc caught while running: "out of
// memory while running (...)", with the per-tensor limit.
std::string OutOfMemoryWhileRunning();
// Bytes of `numel` elements of `type`, or -1 when numel is negative or the
// product overflows.
int64_t TensorBytes(int64_t numel, DataType type);

// A 64-byte aligned host allocation, or a view of external memory. An owned
// allocation that fails throws std::bad_alloc (the public API turns it into
// a Status).
class Buffer {
 public:
  explicit Buffer(size_t bytes);                   // owned, aligned
  Buffer(void* external, size_t bytes);            // not owned
  // A view of part of `owner` (an arena): not owned, keeps `owner` alive.
  Buffer(void* data, size_t bytes, std::shared_ptr<Buffer> owner);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t size() const { return bytes_; }
  bool owned() const { return owned_; }
  // True for a view of part of an arena (the three-argument constructor).
  bool view() const { return owner_ != nullptr; }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
  bool owned_ = true;
  std::shared_ptr<Buffer> owner_;  // arena views
};

class Tensor {
 public:
  Tensor() = default;

  const DDim& dims() const { return dims_; }
  void Resize(const DDim& dims) { dims_ = dims; }
  int64_t numel() const { return Product(dims_); }

  DataType dtype() const { return dtype_; }
  // Sets the element type without allocating (used before mutable_data).
  void set_dtype(DataType t) { dtype_ = t; }

  const LoD& lod() const { return lod_; }
  void set_lod(const LoD& lod) { lod_ = lod; }
  LoD* mutable_lod() { return &lod_; }

  // Allocates (if needed) numel() elements of T and sets dtype to T.
  template <typename T>
  T* mutable_data() {
    return static_cast<T*>(mutable_data(DataTypeOf<T>()));
  }
  // Allocates numel() elements of `type`.
  void* mutable_data(DataType type);

  template <typename T>
  const T* data() const {
    return static_cast<const T*>(raw_data());
  }
  const void* raw_data() const;
  void* raw_mutable_data() const;
  bool IsInitialized() const { return buffer_ != nullptr; }
  size_t memory_size() const { return numel() * DataTypeSize(dtype_); }
  // Bytes the current buffer holds (0 without one): less than
  // memory_size() after a Resize to a larger shape without reallocating.
  size_t buffer_bytes() const;

  // Makes this tensor a view of `other`'s buffer (shared ownership).
  void ShareDataWith(const Tensor& other);
  // Wraps caller-owned memory; the caller keeps it alive and large enough.
  void ShareExternalMemory(void* data, size_t bytes, DataType type);
  // True when the buffer is caller memory (ShareExternalMemory).
  bool external_memory() const { return buffer_ && !buffer_->owned(); }
  // Deep copy of dims, dtype, LoD and data.
  void CopyDataFrom(const Tensor& other);
  // Drops the buffer (dims, dtype and LoD stay).
  void FreeMemory() { buffer_.reset(); }
  // Hands the buffer over (the tensor keeps dims, dtype and LoD).
  std::shared_ptr<Buffer> TakeBuffer() { return std::move(buffer_); }
  // Makes `bytes` at `data` inside `arena` this tensor's buffer (ArenaPlan).
  void BindArena(const std::shared_ptr<Buffer>& arena, void* data, size_t bytes) {
    buffer_ = std::make_shared<Buffer>(data, bytes, arena);
  }
  // True while the buffer is a view into `arena`.
  bool BoundTo(const Buffer* arena) const;

  // Persistable tensors (weights) are never resized by the runtime.
  bool persistable() const { return persistable_; }
  void set_persistable(bool p) { persistable_ = p; }

 private:
  DDim dims_;
  DataType dtype_ = DataType::kFloat32;
  LoD lod_;
  std::shared_ptr<Buffer> buffer_;
  bool persistable_ = false;
};

}  // namespace lite
