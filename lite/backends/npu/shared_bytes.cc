#include "lite/backends/npu/shared_bytes.h"

#include <algorithm>
#include <utility>

namespace lite {
namespace npu {

SharedBytes::SharedBytes(std::vector<uint8_t> bytes) {
  if (!bytes.empty()) buf_ = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
}

SharedBytes::SharedBytes(const uint8_t* first, const uint8_t* last) {
  if (first != last) buf_ = std::make_shared<std::vector<uint8_t>>(first, last);
}

std::vector<uint8_t>& SharedBytes::Own() {
  if (!buf_) {
    buf_ = std::make_shared<std::vector<uint8_t>>();
  } else if (buf_.use_count() > 1) {
    buf_ = std::make_shared<std::vector<uint8_t>>(*buf_);
  }
  return *buf_;
}

uint8_t* SharedBytes::mutable_data() { return buf_ ? Own().data() : nullptr; }

void SharedBytes::assign(const uint8_t* first, const uint8_t* last) {
  *this = SharedBytes(first, last);
}

void SharedBytes::resize(size_t n) {
  if (n == size()) return;
  Own().resize(n);
}

void SharedBytes::push_back(uint8_t b) { Own().push_back(b); }

void SharedBytes::append(const uint8_t* first, const uint8_t* last) {
  if (first != last) Own().insert(Own().end(), first, last);
}

bool operator==(const SharedBytes& a, const SharedBytes& b) {
  return a.size() == b.size() && (a.SameBuffer(b) || std::equal(a.begin(), a.end(), b.begin()));
}

}  // namespace npu
}  // namespace lite
