// SharedBytes: the bytes of a constant operand, shared between copies.
//
// A Model is copied and rebuilt often (the subgraph kernel converts its
// subgraph again at each new input size; drivers keep copies without data
// or with it), and its constants are the bulk of it: conv filters, fc
// weights. Copies of a SharedBytes share one immutable buffer, so the
// subgraph kernel hands the same weights to every size's model without
// copying them and a driver can tell an unchanged constant by identity
// (SameBuffer) before it looks at the bytes. Writes go through the
// mutating members below, which first give this copy a buffer of its own
// when another copy shares it (copy on write); no write is ever seen by
// another copy. Reads keep std::vector's names (size, data, begin, [])
// so drivers read an operand's data as before.
//
// Copies may be read and destroyed on different threads (the buffer's
// count is a shared_ptr's); one SharedBytes object is not to be written on
// two threads at once, as with std::vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace lite {
namespace npu {

class SharedBytes {
 public:
  SharedBytes() = default;
  // Takes the vector's bytes without copying them.
  SharedBytes(std::vector<uint8_t> bytes);  // NOLINT(runtime/explicit): a vector is bytes
  SharedBytes(const uint8_t* first, const uint8_t* last);

  size_t size() const { return buf_ ? buf_->size() : 0; }
  bool empty() const { return size() == 0; }
  const uint8_t* data() const { return buf_ ? buf_->data() : nullptr; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  const uint8_t& operator[](size_t i) const { return (*buf_)[i]; }

  // Writable bytes of this copy alone (copied first when shared); the
  // pointer is for writes before this SharedBytes is next copied.
  uint8_t* mutable_data();
  void assign(const uint8_t* first, const uint8_t* last);
  void resize(size_t n);  // new bytes are zero
  void clear() { buf_.reset(); }
  void push_back(uint8_t b);
  void append(const uint8_t* first, const uint8_t* last);

  // True when both read the same buffer (hence the same bytes); false for
  // two empty ones.
  bool SameBuffer(const SharedBytes& other) const {
    return buf_ != nullptr && buf_ == other.buf_;
  }

 private:
  std::vector<uint8_t>& Own();  // this copy's own buffer, made when shared or absent

  std::shared_ptr<std::vector<uint8_t>> buf_;
};

// Byte equality (not identity).
bool operator==(const SharedBytes& a, const SharedBytes& b);
inline bool operator!=(const SharedBytes& a, const SharedBytes& b) { return !(a == b); }

}  // namespace npu
}  // namespace lite
