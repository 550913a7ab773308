// Helpers for the own x86 kernels' 16-lane AVX-512 vectors:
// TailMask(n): the first n of 16 lanes (all for n >= 16, none for n <= 0),
// for masked loads and stores at the ends of rows and channel runs.
// Transpose16: a 16 x 16 matrix of 32-bit values held in 16 AVX-512
// registers (r[i] = row i) becomes its transpose (r[j] = column j) in 64
// in-register shuffles, without going through memory, where vector lanes
// run over pixels and NHWC wants channels (narrow_deconv.cc's input,
// conv_int8_smalln.cc's output); a gather per 16 values was slower on Zen 4.
// Transpose8x16: 8 rows of 16 values to 16 columns of 8 (nchw_input_int8's
// and conv_int8_smalln's 8-channel outputs).
#pragma once

#if defined(__AVX512F__)
#pragma GCC diagnostic push
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_*(), which it defines
// from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstdint>

namespace lite {
namespace x86 {

inline __mmask16 TailMask(int64_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF)
                 : n <= 0 ? static_cast<__mmask16>(0) : static_cast<__mmask16>((1u << n) - 1);
}

__attribute__((always_inline)) inline void Transpose16(__m512* r) {
  __m512 t[16];
#pragma GCC unroll 16
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  // Per 128-bit lane k: r[4i + m] = rows 4i .. 4i+3 of column 4k + m.
#pragma GCC unroll 16
  for (int i = 0; i < 4; ++i) {
    const __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 2]);
    const __m512d c = _mm512_castps_pd(t[4 * i + 1]), d = _mm512_castps_pd(t[4 * i + 3]);
    r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
    r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
    r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
  }
  // Gather the four 128-bit lanes of each column.
#pragma GCC unroll 16
  for (int m = 0; m < 4; ++m) {
    t[m] = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x88);
    t[4 + m] = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xdd);
    t[8 + m] = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x88);
    t[12 + m] = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xdd);
  }
#pragma GCC unroll 16
  for (int m = 0; m < 4; ++m) {
    r[m] = _mm512_shuffle_f32x4(t[m], t[8 + m], 0x88);
    r[8 + m] = _mm512_shuffle_f32x4(t[m], t[8 + m], 0xdd);
    r[4 + m] = _mm512_shuffle_f32x4(t[4 + m], t[12 + m], 0x88);
    r[12 + m] = _mm512_shuffle_f32x4(t[4 + m], t[12 + m], 0xdd);
  }
}

// [8][16 pixels] -> 16 pixels x 8 channels: px[p] holds pixel p's values.
__attribute__((always_inline)) inline void Transpose8x16(const __m512* f, __m256* px) {
  __m512 t[8], u[8];
#pragma GCC unroll 4
  for (int m = 0; m < 8; m += 2) {
    t[m] = _mm512_unpacklo_ps(f[m], f[m + 1]);
    t[m + 1] = _mm512_unpackhi_ps(f[m], f[m + 1]);
  }
#pragma GCC unroll 2
  for (int m = 0; m < 8; m += 4) {
    const __m512d a = _mm512_castps_pd(t[m]), b = _mm512_castps_pd(t[m + 1]);
    const __m512d c = _mm512_castps_pd(t[m + 2]), d = _mm512_castps_pd(t[m + 3]);
    u[m] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
    u[m + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
    u[m + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
    u[m + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
  }
  // u[k] (channels 0-3) and u[4 + k] (4-7): 128-bit lane L holds pixel 4L + k.
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    __m512 a = _mm512_shuffle_f32x4(u[k], u[4 + k], _MM_SHUFFLE(1, 0, 1, 0));
    __m512 b = _mm512_shuffle_f32x4(u[k], u[4 + k], _MM_SHUFFLE(3, 2, 3, 2));
    a = _mm512_shuffle_f32x4(a, a, _MM_SHUFFLE(3, 1, 2, 0));  // pixels k, 4 + k
    b = _mm512_shuffle_f32x4(b, b, _MM_SHUFFLE(3, 1, 2, 0));  // pixels 8 + k, 12 + k
    px[k] = _mm512_castps512_ps256(a);
    px[4 + k] = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1));
    px[8 + k] = _mm512_castps512_ps256(b);
    px[12 + k] = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(b), 1));
  }
}

}  // namespace x86
}  // namespace lite

#endif
