// Int8Depthwise's NEON form (int8_depthwise.h): per output pixel and 16
// channels, two taps per step: vmull_s8 / vmull_high_s8 of the first tap's
// levels and weights, vmlal_s8 / vmlal_high_s8 adding the second's (two
// products per int16 lane, exact: Pack refuses weight level -128), then
// vaddw_s16 / vaddw_high_s16 into four int32x4 sums (an odd last tap alone);
// the epilogue of int8_gemm.h on each. 3x3 and 5x5 windows are unrolled
// with the block's weights, scales and biases loaded once per output row
// (3x3: all in registers), the other windows loop over the packed taps.
// The bordered input and the filter have 16-channel rows.
#ifdef __aarch64__
#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm_neon_util.h"

namespace lite {
namespace arm {

namespace {

using int8_gemm::Epilogue;

// sums += the products of taps a and b (b null: a alone) of 16 channels.
inline void AddTaps(int8x16_t xa, int8x16_t wa, const int8x16_t* xb, const int8x16_t* wb,
                    int32x4_t* a) {
  int16x8_t l = vmull_s8(vget_low_s8(xa), vget_low_s8(wa));
  int16x8_t h = vmull_high_s8(xa, wa);
  if (xb) {
    l = vmlal_s8(l, vget_low_s8(*xb), vget_low_s8(*wb));
    h = vmlal_high_s8(h, *xb, *wb);
  }
  a[0] = vaddw_s16(a[0], vget_low_s16(l));
  a[1] = vaddw_high_s16(a[1], l);
  a[2] = vaddw_s16(a[2], vget_low_s16(h));
  a[3] = vaddw_high_s16(a[3], h);
}

// Epilogue and store of one pixel's 16-channel block.
inline void Finish(const int32x4_t* a, const float32x4_t* scale, const float32x4_t* bias,
                   float32x4_t lo, float32x4_t hi, float* out, size_t count) {
  float32x4_t v[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) v[i] = Epilogue(a[i], scale[i], bias[i], lo, hi);
  int8_gemm::StoreChannels<4>(out, v, count);
}

// A KH x KW window, unrolled: tap (ky, kx) of the pixel at `base` is at
// base + ky * row_step + kx * col_step.
template <int KH, int KW>
void RowsWindow(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  constexpr int T = KH * KW;
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
  const size_t row_step = p.offsets[KW], col_step = p.offsets[1];
  for (size_t row = begin; row < begin + count; ++row) {
    const size_t image = row / p.oh, oy = row % p.oh;
    for (size_t c0 = 0; c0 < p.c; c0 += 16) {
      int8x16_t w[T];
#pragma GCC unroll 32
      for (int t = 0; t < T; ++t) w[t] = vld1q_s8(p.w + t * p.cp + c0);
      float32x4_t scale[4], bias[4];
#pragma GCC unroll 4
      for (int i = 0; i < 4; ++i) {
        scale[i] = vld1q_f32(p.scale + c0 + 4 * i);
        bias[i] = vld1q_f32(p.bias + c0 + 4 * i);
      }
      const int8_t* base = p.x + (image * p.hp + oy * p.sh) * p.wp * p.cp + c0;
      float* out = y + row * p.ow * p.c + c0;
      for (size_t ox = 0; ox < p.ow; ++ox, base += p.sw * p.cp, out += p.c) {
        int32x4_t a[4] = {vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0), vdupq_n_s32(0)};
#pragma GCC unroll 32
        for (int t = 0; t + 1 < T; t += 2) {
          const int8x16_t x0 = vld1q_s8(base + (t / KW) * row_step + (t % KW) * col_step);
          const int8x16_t x1 =
              vld1q_s8(base + ((t + 1) / KW) * row_step + ((t + 1) % KW) * col_step);
          AddTaps(x0, w[t], &x1, &w[t + 1], a);
        }
        if (T % 2) {
          const int8x16_t x = vld1q_s8(base + ((T - 1) / KW) * row_step + ((T - 1) % KW) * col_step);
          AddTaps(x, w[T - 1], nullptr, nullptr, a);
        }
        Finish(a, scale, bias, lo, hi, out, p.c - c0);
      }
    }
  }
}

// Any window: the packed taps (an even number, a zero tap pads) in pairs.
void RowsAny(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
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
          const int8x16_t x1 = vld1q_s8(base + p.offsets[t + 1] + c0);
          const int8x16_t w1 = vld1q_s8(w + p.cp);
          AddTaps(vld1q_s8(base + p.offsets[t] + c0), vld1q_s8(w), &x1, &w1, a);
        }
        float32x4_t scale[4], bias[4];
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
          scale[i] = vld1q_f32(p.scale + c0 + 4 * i);
          bias[i] = vld1q_f32(p.bias + c0 + 4 * i);
        }
        Finish(a, scale, bias, lo, hi, out + c0, p.c - c0);
      }
    }
  }
}

}  // namespace

void Int8DepthwiseRowsNeon(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  if (p.kh == 3 && p.kw == 3) return RowsWindow<3, 3>(p, begin, count, y);
  if (p.kh == 5 && p.kw == 5) return RowsWindow<5, 5>(p, begin, count, y);
  RowsAny(p, begin, count, y);
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
