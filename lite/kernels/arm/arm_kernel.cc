#include "lite/kernels/arm/arm_kernel.h"

#include <cstdint>

namespace lite {
namespace kernels {
namespace arm {

void PermuteNchw(const void* src, void* dst, int64_t n, int64_t c, int64_t hw, bool to_nhwc) {
  const uint32_t* s = static_cast<const uint32_t*>(src);
  uint32_t* d = static_cast<uint32_t*>(dst);
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t* si = s + i * c * hw;
    uint32_t* di = d + i * c * hw;
    if (to_nhwc) {
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t p = 0; p < hw; ++p) di[p * c + ch] = si[ch * hw + p];
    } else {
      for (int64_t p = 0; p < hw; ++p)
        for (int64_t ch = 0; ch < c; ++ch) di[ch * hw + p] = si[p * c + ch];
    }
  }
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
