// Int8Depthwise's NEON form (int8_depthwise.h): per output pixel and 16
// channels, two taps per step: vmull_s8 / vmull_high_s8 of the first tap's
// levels and weights, vmlal_s8 / vmlal_high_s8 adding the second's (two
// products per int16 lane, exact: Pack refuses weight level -128), then
// vaddw_s16 / vaddw_high_s16 into four int32x4 sums; the epilogue of
// int8_gemm.h on each. The packed taps are an even number (a zero tap
// pads), the bordered input and filter have 16-channel rows.
#ifdef __aarch64__
#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm_neon_util.h"

namespace lite {
namespace arm {

void Int8DepthwiseRowsNeon(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  using int8_gemm::Epilogue;
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
  for (size_t row = begin; row < begin + count; ++row) {
    const size_t image = row / p.oh, oy = row % p.oh;
    for (size_t ox = 0; ox < p.ow; ++ox) {
      const int8_t* base = p.x + ((image * p.hp + oy * p.sh) * p.wp + ox * p.sw) * p.cp;
      float* out = y + (row * p.ow + ox) * p.c;
      for (size_t c0 = 0; c0 < p.c; c0 += 16) {
        int32x4_t a[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
        const int8_t* w = p.w + c0;
        for (size_t t = 0; t < p.taps; t += 2, w += 2 * p.cp) {
          const int8x16_t x0 = vld1q_s8(base + p.offsets[t] + c0);
          const int8x16_t x1 = vld1q_s8(base + p.offsets[t + 1] + c0);
          const int8x16_t w0 = vld1q_s8(w), w1 = vld1q_s8(w + p.cp);
          int16x8_t l = vmull_s8(vget_low_s8(x0), vget_low_s8(w0));
          l = vmlal_s8(l, vget_low_s8(x1), vget_low_s8(w1));
          int16x8_t h = vmull_high_s8(x0, w0);
          h = vmlal_high_s8(h, x1, w1);
          a[0] = vaddw_s16(a[0], vget_low_s16(l));
          a[1] = vaddw_high_s16(a[1], l);
          a[2] = vaddw_s16(a[2], vget_low_s16(h));
          a[3] = vaddw_high_s16(a[3], h);
        }
        float32x4_t v[4];
        #pragma GCC unroll 16
        for (int i = 0; i < 4; ++i)
          v[i] = Epilogue(a[i], vld1q_f32(p.scale + c0 + 4 * i), vld1q_f32(p.bias + c0 + 4 * i),
                          lo, hi);
        int8_gemm::StoreChannels<4>(out + c0, v, p.c - c0);
      }
    }
  }
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
