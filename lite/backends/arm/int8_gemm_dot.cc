// Int8Gemm's SDOT form (int8_gemm.h): tiles of 8 pixels (then 4, then
// single pixels) x 8 channels, each step 16 input levels of every pixel in one
// register and vdotq_laneq_s32 with the block's packed quads (4 levels of 4
// channels per instruction, summed into int32 exactly). A K tail under 16
// is read as 16 levels (LoadTails: the packed weights past K are zero).
// Compiled for armv8.2-a+dotprod per function; Int8Gemm only runs it where
// cpuinfo reports the extension.
#ifdef __aarch64__
#include "lite/backends/arm/int8_gemm_neon_util.h"

#define LITE_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))

namespace lite {
namespace arm {

namespace {

using namespace int8_gemm;  // NOLINT: the shared NEON helpers

// One row of 16 levels of R pixels, four lanes of quads against the
// block's weights at *w (advanced past them).
template <int R>
LITE_DOTPROD inline void Step16(const int8x16_t* x, const int8_t*& w, int32x4_t* a0,
                                int32x4_t* a1) {
#define LITE_DOT_LANE(L)                                          \
  {                                                               \
    const int8x16_t w0 = vld1q_s8(w + 32 * (L));                  \
    const int8x16_t w1 = vld1q_s8(w + 32 * (L) + 16);             \
    _Pragma("GCC unroll 16")                                      \
    for (int r = 0; r < R; ++r) {                                 \
      a0[r] = vdotq_laneq_s32(a0[r], w0, x[r], L);                \
      a1[r] = vdotq_laneq_s32(a1[r], w1, x[r], L);                \
    }                                                             \
  }
  LITE_DOT_LANE(0)
  LITE_DOT_LANE(1)
  LITE_DOT_LANE(2)
  LITE_DOT_LANE(3)
#undef LITE_DOT_LANE
  w += 128;
}

// R pixels from row `row` against every 8-channel block: each row's
// `taps` runs of `seg` levels (16 at a time), then the plain form's K tail.
template <int R>
LITE_DOTPROD void Tile(const Int8Gemm::Packed& p, const int8_t* x, size_t row, float* y) {
  const size_t k = p.k, kp = (k + 15) / 16 * 16, seg = p.seg / 16 * 16;
  const bool has_tail = !p.window && seg < k;
  const float32x4_t lo = vdupq_n_f32(p.lo), hi = vdupq_n_f32(p.hi);
  int8x16_t tail[R];
  if (has_tail) LoadTails<R>(x, p.m, k, seg, row, tail);
  const int8_t* base[R];
  #pragma GCC unroll 16
  for (int r = 0; r < R; ++r) base[r] = RowBase(p, x, row + r);
  for (size_t c0 = 0; c0 < p.n; c0 += 8) {
    const int8_t* w = p.w + c0 * kp;
    int32x4_t a0[R], a1[R];
    #pragma GCC unroll 16
    for (int r = 0; r < R; ++r) a0[r] = a1[r] = vdupq_n_s32(0);
    for (size_t t = 0; t < p.taps; ++t) {
      const size_t at = p.offsets[t];
      for (size_t i = 0; i < seg; i += 16) {
        int8x16_t xv[R];
        #pragma GCC unroll 16
        for (int r = 0; r < R; ++r) xv[r] = vld1q_s8(base[r] + at + i);
        Step16<R>(xv, w, a0, a1);
      }
    }
    if (has_tail) Step16<R>(tail, w, a0, a1);
    const float32x4_t s0 = vld1q_f32(p.scale + c0), s1 = vld1q_f32(p.scale + c0 + 4);
    const float32x4_t b0 = vld1q_f32(p.bias + c0), b1 = vld1q_f32(p.bias + c0 + 4);
    #pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const float32x4_t v[2] = {Epilogue(a0[r], s0, b0, lo, hi), Epilogue(a1[r], s1, b1, lo, hi)};
      StoreChannels<2>(y + (row + r) * p.n + c0, v, p.n - c0);
    }
  }
}

}  // namespace

void Int8GemmRowsDot(const Int8Gemm::Packed& p, const int8_t* x, size_t begin, size_t count,
                     float* y) {
  // 8-pixel tiles first: each weight load then feeds 8 SDOTs (16
  // accumulators, 8 rows and 2 weight registers: 26 of the 32).
  size_t r = begin;
  for (; r + 8 <= begin + count; r += 8) Tile<8>(p, x, r, y);
  ForRows(
      r, begin + count - r, [&](size_t t) { Tile<4>(p, x, t, y); },
      [&](size_t t) { Tile<1>(p, x, t, y); });
}

}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
