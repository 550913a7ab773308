// Int8Depthwise's SDOT form (int8_depthwise.h), for windows 4 or more taps
// wide on CPUs with the dot product extension: Run first writes, straight
// from the input, for every pixel of the bordered input a window can start
// at and every channel, the levels of that pixel and the next 3 along the
// row (dilation apart; 0 in the padding and past the row's end) as 4
// consecutive bytes (the "quad" input: 4 quads of 4 channels per 16-byte
// register, a 4 x 4 byte transpose of four pixels' 16 channels by
// zip1 / zip2); the filter is packed the same way per window row in groups
// of 4 taps (zero past the window's width). Then one vdotq_s32 sums 4 taps
// of 4 channels exactly into int32: a 5x5 window is 10 quad loads and 40
// SDOTs per 16 channels, against 25 loads and about 100 widening
// multiply-accumulates in the NEON form; output pixels go in pairs, each
// weight load serving both. The epilogue is int8_gemm.h's.
// Compiled for armv8.2-a+dotprod per function; Int8Depthwise only runs it
// where cpuinfo reports the extension.
#ifdef __aarch64__
#include "lite/backends/arm/int8_depthwise.h"
#include "lite/backends/arm/int8_gemm_neon_util.h"

#include <algorithm>
#include <cstring>
#include <limits>

#define LITE_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))

namespace lite {
namespace arm {

namespace {

using int8_gemm::Epilogue;

// P adjacent output pixels of one 16-channel block (their quad input at
// `pixel`, `step` bytes apart), KH window rows of G tap groups (0: the
// packed geometry's, looped); each weight load serves the P pixels.
// kClamp false: the clamp is (-inf, inf) and is left out (the same values:
// max / min with infinities change none, NaN included).
template <int KH, int G, int P, bool kClamp>
LITE_DOTPROD inline void Pixels(const Int8Depthwise::Packed& p, const int8_t* pixel, size_t step,
                                const int8_t* w, const float32x4_t* scale,
                                const float32x4_t* bias, float* out, size_t count) {
  const size_t kh = KH ? KH : p.kh, groups = G ? G : (p.kw + 3) / 4;
  int32x4_t a[P][4];
#pragma GCC unroll 8
  for (int q = 0; q < P; ++q)
    for (int i = 0; i < 4; ++i) a[q][i] = vdupq_n_s32(0);
#pragma GCC unroll 8
  for (size_t ky = 0; ky < kh; ++ky) {
#pragma GCC unroll 4
    for (size_t g = 0; g < groups; ++g, w += p.cp * 4) {
      const int8x16x4_t wv = vld1q_s8_x4(w);
      const size_t at = p.offsets[ky * groups + g];
#pragma GCC unroll 4
      for (int q = 0; q < P; ++q) {
        const int8x16x4_t xv = vld1q_s8_x4(pixel + q * step + at);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) a[q][i] = vdotq_s32(a[q][i], xv.val[i], wv.val[i]);
      }
    }
  }
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
#pragma GCC unroll 4
  for (int q = 0; q < P; ++q) {
    float32x4_t v[4];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
      v[i] = kClamp ? Epilogue(a[q][i], scale[i], bias[i], lo, hi)
                    : vfmaq_f32(bias[i], vcvtq_f32_s32(a[q][i]), scale[i]);
    }
    int8_gemm::StoreChannels<4>(out + q * p.c, v, count);
  }
}

// Output rows [begin, begin + count): per 16-channel block, pairs of
// output pixels, then a last single one.
template <int KH, int G, bool kClamp>
LITE_DOTPROD void Rows(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  const size_t quad_row = p.wp * p.cp * 4;  // bytes of one quad-input row
  const size_t step = p.sw * p.cp * 4;      // bytes from one output pixel's quads to the next
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
      const int8_t* w = p.w + c0 * 4;
      float* out = y + row * p.ow * p.c + c0;
      size_t ox = 0;
      for (; ox + 2 <= p.ow; ox += 2, pixel += 2 * step, out += 2 * p.c) {
        Pixels<KH, G, 2, kClamp>(p, pixel, step, w, scale, bias, out, p.c - c0);
      }
      if (ox < p.ow) Pixels<KH, G, 1, kClamp>(p, pixel, step, w, scale, bias, out, p.c - c0);
    }
  }
}

}  // namespace

namespace {

// The quads of 16 channels of 4 pixels' levels v: channels 0-3, 4-7, 8-11,
// 12-15, each channel's 4 levels together (a 4 x 4 byte transpose).
inline void StoreQuads(const int8x16_t* v, int8_t* out) {
  const int16x8_t a0 = vreinterpretq_s16_s8(vzip1q_s8(v[0], v[1]));
  const int16x8_t a1 = vreinterpretq_s16_s8(vzip2q_s8(v[0], v[1]));
  const int16x8_t b0 = vreinterpretq_s16_s8(vzip1q_s8(v[2], v[3]));
  const int16x8_t b1 = vreinterpretq_s16_s8(vzip2q_s8(v[2], v[3]));
  int8x16x4_t q;
  q.val[0] = vreinterpretq_s8_s16(vzip1q_s16(a0, b0));
  q.val[1] = vreinterpretq_s8_s16(vzip2q_s16(a0, b0));
  q.val[2] = vreinterpretq_s8_s16(vzip1q_s16(a1, b1));
  q.val[3] = vreinterpretq_s8_s16(vzip2q_s16(a1, b1));
  vst1q_s8_x4(out, q);
}

}  // namespace

void Int8DepthwiseQuads(const int8_t* x, size_t h, size_t w, size_t c, const int8_t* end,
                        size_t left, size_t wp, size_t cp, size_t dw, size_t every,
                        int8_t* quads) {
  const int8x16_t zero = vdupq_n_s8(0);
  for (size_t r = 0; r < h; ++r) {
    const int8_t* in = x + r * w * c;
    int8_t* row = quads + r * wp * cp * 4;
    for (size_t px = 0; px < wp; px += every) {
      int8_t* out = row + px * cp * 4;
      // Column px + j * dw of the bordered row is input column
      // px + j * dw - left; outside the input it is the padding (0).
      const int8_t* first = in + (px - left) * c;  // used only when px >= left
      if (px >= left && px + 3 * dw - left < w && first + 3 * dw * c + cp <= end) {
        // All 4 inside, and 16 levels of each readable.
        for (size_t c0 = 0; c0 < cp; c0 += 16, out += 64) {
          int8x16_t v[4];
#pragma GCC unroll 4
          for (size_t j = 0; j < 4; ++j) v[j] = vld1q_s8(first + j * dw * c + c0);
          StoreQuads(v, out);
        }
        continue;
      }
      for (size_t c0 = 0; c0 < cp; c0 += 16, out += 64) {
        int8x16_t v[4];
        for (size_t j = 0; j < 4; ++j) {
          const size_t col = px + j * dw - left;  // wraps below 0: then >= w
          if (px + j * dw < left || col >= w) {
            v[j] = zero;
            continue;
          }
          const int8_t* p = in + col * c + c0;  // c0 < c, so p < end
          int8_t buf[16] = {0};
          std::memcpy(buf, p, std::min<size_t>(16, static_cast<size_t>(end - p)));
          v[j] = vld1q_s8(buf);
        }
        StoreQuads(v, out);
      }
    }
  }
}

void Int8DepthwiseRowsDot(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  const bool clamp = p.lo != -std::numeric_limits<float>::infinity() ||
                     p.hi != std::numeric_limits<float>::infinity();
  if (p.kh == 5 && p.kw == 5) {
    return clamp ? Rows<5, 2, true>(p, begin, count, y) : Rows<5, 2, false>(p, begin, count, y);
  }
  clamp ? Rows<0, 0, true>(p, begin, count, y) : Rows<0, 0, false>(p, begin, count, y);
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
