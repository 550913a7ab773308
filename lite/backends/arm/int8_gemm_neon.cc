// Int8Gemm's widening NEON form (int8_gemm.h), for aarch64 cores without
// the dot product extension (Cortex-A72): tiles of 4 pixels (then single
// pixels) x 4 channels; per 16 input levels, for each pixel and channel,
// vmull_s8 on the low 8 levels, vmlal_high_s8 adding the high 8 (two
// products per int16 lane: exact, Pack refuses weight level -128), and
// vpadalq_s16 into 4 int32 sums; pairwise adds reduce a pixel's 4 x 4 sums
// to its 4 channels. A K tail under 16 is read as 16 levels (LoadTails:
// the packed weights past K are zero).
#ifdef __aarch64__
#include "lite/backends/arm/int8_gemm_neon_util.h"

namespace lite {
namespace arm {

namespace {

using namespace int8_gemm;  // NOLINT: the shared NEON helpers

template <int R>
inline void Step16(const int8x16_t* x, const int8_t*& w, int32x4_t (*acc)[4]) {
  int8x16_t wv[4];
  #pragma GCC unroll 16
  for (int c = 0; c < 4; ++c) wv[c] = vld1q_s8(w + 16 * c);
  w += 64;
  #pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    #pragma GCC unroll 16
    for (int c = 0; c < 4; ++c) {
      int16x8_t prod = vmull_s8(vget_low_s8(x[r]), vget_low_s8(wv[c]));
      prod = vmlal_high_s8(prod, x[r], wv[c]);
      acc[r][c] = vpadalq_s16(acc[r][c], prod);
    }
  }
}

// R pixels from row `row` against every 4-channel block.
template <int R>
void Tile(const Int8Gemm::Packed& p, const int8_t* x, size_t row, float* y) {
  const size_t k = p.k, full = k / 16 * 16, kp = (k + 15) / 16 * 16;
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
  int8x16_t tail[R];
  if (full < k) LoadTails<R>(x, p.m, k, full, row, tail);
  for (size_t c0 = 0; c0 < p.n; c0 += 4) {
    const int8_t* w = p.w + c0 * kp;
    int32x4_t acc[R][4];
    #pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
      #pragma GCC unroll 16
      for (int c = 0; c < 4; ++c) acc[r][c] = vdupq_n_s32(0);
    for (size_t i = 0; i < full; i += 16) {
      int8x16_t xv[R];
      #pragma GCC unroll 16
      for (int r = 0; r < R; ++r) xv[r] = vld1q_s8(x + (row + r) * k + i);
      Step16<R>(xv, w, acc);
    }
    if (full < k) Step16<R>(tail, w, acc);
    const float32x4_t scale = vld1q_f32(p.scale + c0), bias = vld1q_f32(p.bias + c0);
    #pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const int32x4_t sum =
          vpaddq_s32(vpaddq_s32(acc[r][0], acc[r][1]), vpaddq_s32(acc[r][2], acc[r][3]));
      const float32x4_t v[1] = {Epilogue(sum, scale, bias, lo, hi)};
      StoreChannels<1>(y + (row + r) * p.n + c0, v, p.n - c0);
    }
  }
}

}  // namespace

void Int8GemmRowsNeon(const Int8Gemm::Packed& p, const int8_t* x, size_t begin, size_t count,
                      float* y) {
  ForRows(
      begin, count, [&](size_t r) { Tile<4>(p, x, r, y); }, [&](size_t r) { Tile<1>(p, x, r, y); });
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
