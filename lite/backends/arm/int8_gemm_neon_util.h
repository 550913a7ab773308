// NEON pieces of the int8 loops (int8_gemm_dot.cc, int8_depthwise_neon.cc):
// the K tail of a GEMM tile's rows, the epilogue on 4 channels' int32 sums
// (both loops'), storing a channel block's floats (whole or its first
// `count`), and the GEMM's row loop over 4-pixel tiles then single pixels.
// aarch64 only.
#pragma once

#ifdef __aarch64__
#include <arm_neon.h>

#include <cstring>

#include "lite/backends/arm/int8_gemm.h"

namespace lite {
namespace arm {
namespace int8_gemm {

// The 16 levels from [full, k) on of rows row .. row + R - 1 (of m rows):
// the levels past k are the next row's where the load stays inside x (the
// packed weights there are zero, so they add nothing), zeros for the last
// rows (a copy, so nothing past x is read).
template <int R>
inline void LoadTails(const int8_t* x, size_t m, size_t k, size_t full, size_t row,
                      int8x16_t* tail) {
  #pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const size_t at = (row + r) * k + full;
    if (at + 16 <= m * k) {
      tail[r] = vld1q_s8(x + at);
      continue;
    }
    int8_t buf[16] = {0};
    std::memcpy(buf, x + at, k - full);
    tail[r] = vld1q_s8(buf);
  }
}

// int8_gemm.h's epilogue: fma(float(sum), scale, bias) clamped to [lo, hi].
inline float32x4_t Epilogue(int32x4_t sum, float32x4_t scale, float32x4_t bias,
                            float32x4_t lo, float32x4_t hi) {
  const float32x4_t v = vfmaq_f32(bias, vcvtq_f32_s32(sum), scale);
  return vminq_f32(vmaxq_f32(v, lo), hi);
}

// The first `count` (<= 4 * V) of V vectors v to out.
template <int V>
inline void StoreChannels(float* out, const float32x4_t* v, size_t count) {
  if (count >= 4 * V) {
    #pragma GCC unroll 16
    for (int i = 0; i < V; ++i) vst1q_f32(out + 4 * i, v[i]);
    return;
  }
  float buf[4 * V];
  #pragma GCC unroll 16
  for (int i = 0; i < V; ++i) vst1q_f32(buf + 4 * i, v[i]);
  std::memcpy(out, buf, count * sizeof(float));
}

// Rows [begin, begin + count): Tile4(row) for 4 rows at a time, Tile1(row)
// for the rest.
template <typename Tile4, typename Tile1>
inline void ForRows(size_t begin, size_t count, Tile4 tile4, Tile1 tile1) {
  size_t r = begin;
  for (; r + 4 <= begin + count; r += 4) tile4(r);
  for (; r < begin + count; ++r) tile1(r);
}

}  // namespace int8_gemm
}  // namespace arm
}  // namespace lite
#endif  // __aarch64__
