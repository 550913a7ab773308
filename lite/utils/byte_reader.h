// ByteReader: a bounds-checked cursor over a memory buffer.
//
// The reader does not own the bytes; the caller keeps the buffer alive for
// as long as the reader (and any pointer from Peek) is used. Every read
// checks the remaining size first and fails instead of running past the end,
// so corrupt or truncated model files can never cause an out-of-bounds read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace lite {

class ByteReader {
 public:
  ByteReader(const void* data, size_t size)
      : data_(static_cast<const uint8_t*>(data)), size_(size) {}
  explicit ByteReader(const std::string& bytes)
      : ByteReader(bytes.data(), bytes.size()) {}

  size_t size() const { return size_; }
  size_t offset() const { return offset_; }
  size_t remaining() const { return size_ - offset_; }
  bool AtEnd() const { return offset_ == size_; }

  // Copies n bytes to dst and advances; false (nothing read) past the end.
  bool Read(void* dst, size_t n) {
    if (n > remaining()) return false;
    if (n > 0) std::memcpy(dst, data_ + offset_, n);
    offset_ += n;
    return true;
  }
  // Reads a little-endian scalar (the host must be little-endian, see
  // tensor_io.cc).
  template <typename T>
  bool ReadPod(T* v) {
    return Read(v, sizeof(T));
  }
  // The next n bytes without copying, or nullptr past the end; advances.
  const uint8_t* Take(size_t n) {
    if (n > remaining()) return nullptr;
    const uint8_t* p = data_ + offset_;
    offset_ += n;
    return p;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

}  // namespace lite
