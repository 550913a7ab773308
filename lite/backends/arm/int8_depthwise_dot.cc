// Int8Depthwise's SDOT form (int8_depthwise.h), for windows 4 or more taps
// wide on CPUs with the dot product extension: Run first writes, for every
// pixel of the bordered input and every channel, the levels of that pixel
// and the next 3 along the row (dilation apart; 0 past the row's end) as 4
// consecutive bytes (the "quad" input: 4 quads of 4 channels per 16-byte
// register, a 4 x 4 byte transpose of four pixels' 16 channels by
// zip1 / zip2); the filter is packed the same way per window row in groups
// of 4 taps (zero past the window's width). Then one vdotq_s32 sums 4 taps
// of 4 channels exactly into int32: a 5x5 window is 10 quad loads and 40
// SDOTs per 16 channels, against 25 loads and about 100 widening
// multiply-accumulates in the NEON form. The epilogue is int8_gemm.h's.
// Compiled for armv8.2-a+dotprod per function; Int8Depthwise only runs it
// where cpuinfo reports the extension.
#ifdef __aarch64__
#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm_neon_util.h"

#define LITE_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))

namespace lite {
namespace arm {

namespace {

using int8_gemm::Epilogue;

// Output rows [begin, begin + count) with KH window rows of G tap groups
// (0: the packed geometry's, looped).
template <int KH, int G>
LITE_DOTPROD void Rows(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  const size_t kh = KH ? KH : p.kh, groups = G ? G : (p.kw + 3) / 4;
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
  const size_t quad_row = p.wp * p.cp * 4;  // bytes of one quad-input row
  for (size_t row = begin; row < begin + count; ++row) {
    const size_t image = row / p.oh, oy = row % p.oh;
    for (size_t c0 = 0; c0 < p.c; c0 += 16) {
      float32x4_t scale[4], bias[4];
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i) {
        scale[i] = vld1q_f32(p.scale + c0 + 4 * i);
        bias[i] = vld1q_f32(p.bias + c0 + 4 * i);
      }
      const int8_t* pixel = p.x + (image * p.hp + oy * p.sh) * quad_row + c0 * 4;
      float* out = y + row * p.ow * p.c + c0;
      for (size_t ox = 0; ox < p.ow; ++ox, pixel += p.sw * p.cp * 4, out += p.c) {
        int32x4_t a[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
        const int8_t* w = p.w + c0 * 4;
#pragma GCC unroll 8
        for (size_t ky = 0; ky < kh; ++ky) {
#pragma GCC unroll 4
          for (size_t g = 0; g < groups; ++g, w += p.cp * 4) {
            const int8x16x4_t xv = vld1q_s8_x4(pixel + p.offsets[ky * groups + g]);
            const int8x16x4_t wv = vld1q_s8_x4(w);
            a[0] = vdotq_s32(a[0], xv.val[0], wv.val[0]);
            a[1] = vdotq_s32(a[1], xv.val[1], wv.val[1]);
            a[2] = vdotq_s32(a[2], xv.val[2], wv.val[2]);
            a[3] = vdotq_s32(a[3], xv.val[3], wv.val[3]);
          }
        }
        float32x4_t v[4];
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) v[i] = Epilogue(a[i], scale[i], bias[i], lo, hi);
        int8_gemm::StoreChannels<4>(out, v, p.c - c0);
      }
    }
  }
}

}  // namespace

void Int8DepthwiseQuads(const int8_t* x, size_t rows, size_t wp, size_t cp, size_t dw,
                        int8_t* quads) {
  const int8x16_t zero = vdupq_n_s8(0);
  for (size_t r = 0; r < rows; ++r) {
    const int8_t* in = x + r * wp * cp;
    int8_t* out = quads + r * wp * cp * 4;
    for (size_t px = 0; px < wp; ++px) {
      for (size_t c0 = 0; c0 < cp; c0 += 16, out += 64) {
        int8x16_t v[4];
#pragma GCC unroll 4
        for (size_t j = 0; j < 4; ++j) {
          v[j] = px + j * dw < wp ? vld1q_s8(in + (px + j * dw) * cp + c0) : zero;
        }
        const int8x16_t a0 = vzip1q_s8(v[0], v[1]), a1 = vzip2q_s8(v[0], v[1]);
        const int8x16_t b0 = vzip1q_s8(v[2], v[3]), b1 = vzip2q_s8(v[2], v[3]);
        const int16x8_t a0h = vreinterpretq_s16_s8(a0), a1h = vreinterpretq_s16_s8(a1);
        const int16x8_t b0h = vreinterpretq_s16_s8(b0), b1h = vreinterpretq_s16_s8(b1);
        int8x16x4_t q;
        q.val[0] = vreinterpretq_s8_s16(vzip1q_s16(a0h, b0h));  // channels 0-3
        q.val[1] = vreinterpretq_s8_s16(vzip2q_s16(a0h, b0h));  // 4-7
        q.val[2] = vreinterpretq_s8_s16(vzip1q_s16(a1h, b1h));  // 8-11
        q.val[3] = vreinterpretq_s8_s16(vzip2q_s16(a1h, b1h));  // 12-15
        vst1q_s8_x4(out, q);
      }
    }
  }
}

void Int8DepthwiseRowsDot(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  if (p.kh == 5 && p.kw == 5) return Rows<5, 2>(p, begin, count, y);
  Rows<0, 0>(p, begin, count, y);
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
