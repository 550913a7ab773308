#include "lite/base/tensor.h"

#include "lite/base/buffer_pool.h"

#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>
#include <cstring>
#include <sstream>

namespace lite {

int64_t Product(const DDim& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (__builtin_mul_overflow(n, d, &n)) return -1;  // too large to hold
  }
  return n;
}

std::string DimsToString(const DDim& dims) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? ", " : "") << dims[i];
  os << "]";
  return os.str();
}

namespace {
std::atomic<uint64_t> max_tensor_bytes{uint64_t{4} << 30};
}  // namespace

void SetMaxTensorBytes(uint64_t bytes) { max_tensor_bytes = bytes; }
uint64_t MaxTensorBytes() { return max_tensor_bytes; }

std::string OutOfMemoryWhileRunning() {
  return "out of memory while running (a tensor allocation failed or exceeded the per-tensor "
         "limit of " + std::to_string(MaxTensorBytes()) + " bytes)";
}

int64_t TensorBytes(int64_t numel, DataType type) {
  int64_t bytes = 0;
  if (numel < 0 || __builtin_mul_overflow(numel, static_cast<int64_t>(DataTypeSize(type)), &bytes)) {
    return -1;
  }
  return bytes;
}

Buffer::Buffer(size_t bytes) : bytes_(bytes), owned_(true) {
  if (bytes > std::numeric_limits<size_t>::max() - 64) throw std::bad_alloc();
  size_t rounded = (bytes + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (!data_) throw std::bad_alloc();
}

size_t Tensor::buffer_bytes() const { return buffer_ ? buffer_->size() : 0; }

Buffer::Buffer(void* external, size_t bytes)
    : data_(external), bytes_(bytes), owned_(false) {}

Buffer::Buffer(void* data, size_t bytes, std::shared_ptr<Buffer> owner)
    : data_(data), bytes_(bytes), owned_(false), owner_(std::move(owner)) {}

bool Tensor::BoundTo(const Buffer* arena) const {
  if (!buffer_ || !arena || buffer_->owned()) return false;
  const char* p = static_cast<const char*>(buffer_->data());
  const char* a = static_cast<const char*>(arena->data());
  return p >= a && p < a + arena->size();
}

Buffer::~Buffer() {
  if (owned_) std::free(data_);
}

void* Tensor::mutable_data(DataType type) {
  dtype_ = type;
  int64_t n = TensorBytes(numel(), type);
  if (n < 0 || static_cast<uint64_t>(n) > MaxTensorBytes()) throw std::bad_alloc();
  size_t bytes = static_cast<size_t>(n);
  if (!buffer_ || buffer_->size() < bytes) {
    // While a program runs with memory planning, reuse a released buffer.
    BufferPool* pool = CurrentBufferPool();
    std::shared_ptr<Buffer> reused = pool && !persistable_ ? pool->Acquire(bytes) : nullptr;
    if (reused) {
      buffer_ = std::move(reused);
    } else {
      buffer_ = std::make_shared<Buffer>(bytes);
      if (pool && !persistable_) pool->NoteAllocation(bytes);
    }
    if (pool && !persistable_) pool->NoteTensor(this, bytes);
  } else if (buffer_->view() && !persistable_) {
    // An arena slot that fits: the first run of a new signature binds a
    // guessed plan (arena_plan.h), and its recorder must see these tensors
    // as it sees the pool's.
    if (BufferPool* pool = CurrentBufferPool()) pool->NoteTensor(this, bytes);
  }
  return buffer_->data();
}

const void* Tensor::raw_data() const {
  return buffer_ ? buffer_->data() : nullptr;
}

void* Tensor::raw_mutable_data() const {
  return buffer_ ? buffer_->data() : nullptr;
}

void Tensor::ShareDataWith(const Tensor& other) {
  dims_ = other.dims_;
  dtype_ = other.dtype_;
  lod_ = other.lod_;
  buffer_ = other.buffer_;
}

void Tensor::ShareExternalMemory(void* data, size_t bytes, DataType type) {
  dtype_ = type;
  buffer_ = std::make_shared<Buffer>(data, bytes);
}

void Tensor::CopyDataFrom(const Tensor& other) {
  dims_ = other.dims_;
  lod_ = other.lod_;
  void* dst = mutable_data(other.dtype_);
  if (other.raw_data() && other.memory_size() > 0) {
    std::memcpy(dst, other.raw_data(), other.memory_size());
  }
}

}  // namespace lite
