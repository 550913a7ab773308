// CopyIntoBorder (int8_border.h).
#include "lite/backends/arm/int8_border.h"

#include <cstring>

namespace lite {
namespace arm {

void CopyIntoBorder(const int8_t* x, size_t n, size_t h, size_t w, size_t c, size_t cp,
                    size_t top, size_t left, size_t hp, size_t wp, int8_t* dst) {
  const int8_t* end = x + n * h * w * c;
  for (size_t i = 0; i < n; ++i)
    for (size_t r = 0; r < h; ++r) {
      int8_t* d = dst + ((i * hp + r + top) * wp + left) * cp;
      const int8_t* src = x + (i * h + r) * w * c;
      if (c == cp) {
        std::memcpy(d, src, w * c);
        continue;
      }
      // 16 levels a copy (one vector load and store): past c they are the
      // next pixel's, in channels whose packed weights are zero; exact
      // copies where 16 would read past x.
      for (size_t px = 0; px < w; ++px) {
        for (size_t j = 0; j < c; j += 16) {
          const int8_t* s = src + px * c + j;
          if (s + 16 <= end) {
            std::memcpy(d + px * cp + j, s, 16);  // a constant size: inlined
          } else {
            std::memcpy(d + px * cp + j, s, c - j);
          }
        }
      }
    }
}

}  // namespace arm
}  // namespace lite
