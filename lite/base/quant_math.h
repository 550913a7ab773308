// Paddle's fake-quantization arithmetic in float32, shared by the host
// kernels of the quant ops and by quant_dequant_fuse_pass (which folds weight
// quant-dequant into int8 levels and must produce the very same levels).
//
// Symmetric linear quantization with bin_cnt = 2^(bit_length-1) - 1 levels
// on each side of zero. For a scale s (the largest magnitude represented):
//   inv_s  = s <= 1e-30 ? 1 / (s + 1e-6) : 1 / s        (the zero-scale guard)
//   level  = round_type 1: std::round((bin_cnt * inv_s) * clip(x, -s, s)),
//                          ties away from zero, levels in [-bin_cnt, bin_cnt]
//            round_type 0: ties to even of (bin_cnt * inv_s) * x, clamped to
//                          [-bin_cnt - 1, bin_cnt] (x is not clipped first)
//   dequantized value = level * s / bin_cnt
// Programs exported before the round_type attribute existed (the
// fake_quantize_dequantize_* ops of PaddleSlim QAT) compute round_type 1;
// quantize_linear / dequantize_linear default to 0. Per-channel forms apply
// the same rule with one scale per index of `quant_axis`.
// Only pure functions on plain arrays here; no op or tensor state.
#pragma once

#include <algorithm>
#ifdef __AVX512F__
#pragma GCC diagnostic push
// GCC 12's max / min / roundscale / convert intrinsics pass an undefined
// vector they define from itself; -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#endif
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace lite {
namespace operators {
namespace quant {

inline int BinCount(int bit_length) { return (1 << (bit_length - 1)) - 1; }

inline float InverseScale(float s) { return s <= 1e-30f ? 1.f / (s + 1e-6f) : 1.f / s; }

// Nearest integer, exact halves to the even neighbour (Paddle's
// roundWithTiesToEven: compares the distances to floor and ceil).
inline float RoundTiesToEven(float x) {
  const float lo = std::floor(x);
  const float hi = std::ceil(x);
  const float d_lo = x - lo;
  const float d_hi = hi - x;
  const bool take_lo = d_lo == d_hi ? std::fmod(lo, 2.f) == 0.f : d_lo < d_hi;
  return take_lo ? lo : hi;
}

// std::round (nearest, halves away from zero) without the libm call, so the
// loops vectorize: v - trunc(v) is exact for every float.
inline float RoundHalfAwayFromZero(float v) {
  const float t = std::trunc(v);
  return std::fabs(v - t) >= 0.5f ? t + std::copysign(1.f, v) : t;
}

// Quantizes with one scale; see the rule at the top of this file.
class Quantizer {
 public:
  Quantizer(float scale, int bin_cnt, int round_type)
      : s_(scale),
        bin_(static_cast<float>(bin_cnt)),
        factor_(static_cast<float>(bin_cnt) * InverseScale(scale)),
        ties_to_even_(round_type == 0) {}

  float Level(float x) const {
    // A subnormal x has level 0 under any scale (|factor| < 1.3e32 keeps
    // |factor * x| below 2e-6); zeroing it first avoids the slow subnormal
    // multiply (many times slower per element) that ReLU outputs hit.
    x = std::fabs(x) < std::numeric_limits<float>::min() ? 0.f : x;
    if (ties_to_even_) {
      const float q = RoundTiesToEven(factor_ * x);
      return std::min(std::max(q, -bin_ - 1.f), bin_);
    }
    const float clipped = std::min(std::max(x, -s_), s_);
    return RoundHalfAwayFromZero(factor_ * clipped);
  }
  float Dequantize(float level) const { return level * s_ / bin_; }
  float QuantDequant(float x) const { return Dequantize(Level(x)); }

 private:
  float s_;
  float bin_;
  float factor_;
  bool ties_to_even_;
};

#ifdef __AVX512F__
// Quantizer's rule on 16 values. A lane whose exponent bits are zero (zero
// or subnormal) is not multiplied but zeroed by the multiply's mask: its
// level is 0 and the masked lanes cost nothing, while a subnormal product
// is slow. Round type 1 rounds c = factor * clip(x, -s, s) (|c| <= 127) as
// trunc(c + copysign(0.49999997, c)): adding the float just below 0.5 is
// exact or rounds within the same integer for every |c| <= 128, and an exact
// half still reaches the next integer (quantize_compute_test's
// Quantizer16HalfAwayMatchesForEveryFloatUpTo128 checks every float of
// that range against RoundHalfAwayFromZero).
class Quantizer16 {
 public:
  Quantizer16(float scale, int bin_cnt, int round_type)
      : factor_(_mm512_set1_ps(static_cast<float>(bin_cnt) * InverseScale(scale))),
        hi_(_mm512_set1_ps(round_type == 0 ? static_cast<float>(bin_cnt) : scale)),
        lo_(_mm512_set1_ps(round_type == 0 ? -static_cast<float>(bin_cnt) - 1.f : -scale)),
        ties_to_even_(round_type == 0) {}

  // The levels of v as int32.
  __m512i LevelInts(__m512 v) const {
    if (ties_to_even_) {
      return _mm512_cvt_roundps_epi32(Scaled(v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    return _mm512_cvtt_roundps_epi32(HalfAway(Scaled(v)), _MM_FROUND_NO_EXC);
  }

  // The levels of v as 16 bytes (int8; the levels lie in [-128, 127]).
  __m128i LevelBytes(__m512 v) const { return _mm512_cvtsepi32_epi8(LevelInts(v)); }

  // The levels of v as floats.
  __m512 Level(__m512 v) const {
    if (ties_to_even_) {
      return _mm512_roundscale_ps(Scaled(v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }
    return _mm512_roundscale_ps(HalfAway(Scaled(v)), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }

  // c + copysign(0.49999997, c): truncated, c rounded half away from zero.
  static __m512 HalfAway(__m512 c) {
    const __m512i below_half = _mm512_set1_epi32(0x3EFFFFFF);
    const __m512i sign = _mm512_set1_epi32(static_cast<int32_t>(0x80000000u));
    // (c & sign) | below_half
    const __m512i h = _mm512_ternarylogic_epi32(_mm512_castps_si512(c), sign, below_half, 0xEA);
    return _mm512_add_ps(c, _mm512_castsi512_ps(h));
  }

 private:
  // Round type 0: factor * x clamped to [lo, hi] (integers, so clamping
  // before rounding gives the same levels); type 1: factor * clip(x, -s, s).
  __m512 Scaled(__m512 v) const {
    const __mmask16 normal =
        _mm512_test_epi32_mask(_mm512_castps_si512(v), _mm512_set1_epi32(0x7F800000));
    if (ties_to_even_) {
      return _mm512_min_ps(_mm512_max_ps(_mm512_maskz_mul_ps(normal, factor_, v), lo_), hi_);
    }
#ifdef __AVX512DQ__
    // clip(x, -s, s) in one vrangeps: the smaller magnitude of x and s with
    // x's sign (imm 0b0010: sign control 00 takes the first operand's); a
    // NaN stays NaN where max / min made it -s. One instruction where max
    // and min take two, in the quantizing loop's critical path.
    return _mm512_maskz_mul_ps(normal, factor_, _mm512_range_ps(v, hi_, 0x02));
#else
    return _mm512_maskz_mul_ps(normal, factor_, _mm512_min_ps(_mm512_max_ps(v, lo_), hi_));
#endif
  }

  __m512 factor_, hi_, lo_;
  bool ties_to_even_;
};
#endif

// Levels of n values with one scale as int8 (bin_cnt <= 127): what an int8
// kernel feeds its integer arithmetic. AVX-512 builds do 16 values per step
// (Quantizer16), the rest one by one through Quantizer.
inline void QuantizeToInt8(const float* x, int8_t* q, int64_t n, float scale, int bin_cnt,
                           int round_type) {
  const Quantizer quantizer(scale, bin_cnt, round_type);
  int64_t i = 0;
#ifdef __AVX512F__
  const Quantizer16 q16(scale, bin_cnt, round_type);
  for (; i + 16 <= n; i += 16) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i), q16.LevelBytes(_mm512_loadu_ps(x + i)));
  }
#endif
  for (; i < n; ++i) q[i] = static_cast<int8_t>(quantizer.Level(x[i]));
}

// y = quant-dequant of x with one scale (the fake op's per-tensor output),
// 16 values per step on AVX-512 builds: level * s / bin_cnt as Quantizer.
inline void QuantDequantFloat(const float* x, float* y, int64_t n, float scale, int bin_cnt,
                              int round_type) {
  const Quantizer quantizer(scale, bin_cnt, round_type);
  int64_t i = 0;
#ifdef __AVX512F__
  const Quantizer16 q16(scale, bin_cnt, round_type);
  const __m512 s = _mm512_set1_ps(scale);
  const __m512 bin = _mm512_set1_ps(static_cast<float>(bin_cnt));
  for (; i + 16 <= n; i += 16) {
    const __m512 level = q16.Level(_mm512_loadu_ps(x + i));
    _mm512_storeu_ps(y + i, _mm512_div_ps(_mm512_mul_ps(level, s), bin));
  }
#endif
  for (; i < n; ++i) y[i] = quantizer.QuantDequant(x[i]);
}

// A tensor of dims `dims` seen as [outer, channels, inner] around `axis`.
struct ChannelSplit {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};

inline ChannelSplit SplitAt(const std::vector<int64_t>& dims, int axis) {
  ChannelSplit s;
  for (int i = 0; i < static_cast<int>(dims.size()); ++i) {
    if (i < axis) s.outer *= dims[i];
    if (i == axis) s.channels = dims[i];
    if (i > axis) s.inner *= dims[i];
  }
  return s;
}

// max |x| per index of `axis` (Paddle's FindChannelAbsMaxFunctor).
inline std::vector<float> ChannelAbsMax(const float* x, const std::vector<int64_t>& dims,
                                        int axis) {
  const ChannelSplit sp = SplitAt(dims, axis);
  std::vector<float> out(sp.channels, 0.f);
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t c = 0; c < sp.channels; ++c) {
      const float* p = x + (o * sp.channels + c) * sp.inner;
      float m = out[c];
      for (int64_t i = 0; i < sp.inner; ++i) m = std::max(m, std::abs(p[i]));
      out[c] = m;
    }
  }
  return out;
}

// max |x| over n values (Paddle's FindAbsMaxFunctor, fake_quantize_op.cc:
// the magnitude of the element with the largest magnitude); 0 for n == 0.
inline float AbsMax(const float* x, int64_t n) {
  float m = 0.f;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, std::abs(x[i]));
  return m;
}

// The dequantize ops of the frozen form (Paddle's fake_dequantize_op.{h,cc}):
//   fake_dequantize_max_abs:             out = (x * s) / max_range
//   fake_channel_wise_dequantize_max_abs, one scale list:
//                                        out = (x * s_c) / bin_w
//                                        along quant_axis (0 or 1)
//   ... two scale lists (weight scales per channel, one activation scale):
//                                        out = ((x * s_c) * s_a) / (bin_w * bin_a)
//                                        along dim x_num_col_dims when it is
//                                        > 1, else dim 1 (quant_axis unused)
// bin = 2^(bits-1) - 1 per entry of quant_bits; float32 in this order.
inline int ChannelDequantAxis(int scale_lists, int quant_axis, int x_num_col_dims) {
  if (scale_lists == 1) return quant_axis;
  return x_num_col_dims > 1 ? x_num_col_dims : 1;
}

// y = (x * scales[c]) [* *second] / max_range along `axis` of `dims`
// (`second` nullptr: the one-list form).
inline void ChannelDequantize(const float* x, float* y, const std::vector<int64_t>& dims,
                              int axis, const float* scales, const float* second,
                              float max_range) {
  const ChannelSplit sp = SplitAt(dims, axis);
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t c = 0; c < sp.channels; ++c) {
      const int64_t base = (o * sp.channels + c) * sp.inner;
      const float s = scales[c];
      if (second) {
        const float s2 = *second;
        for (int64_t i = 0; i < sp.inner; ++i) y[base + i] = x[base + i] * s * s2 / max_range;
      } else {
        for (int64_t i = 0; i < sp.inner; ++i) y[base + i] = x[base + i] * s / max_range;
      }
    }
  }
}

// Applies `fn(quantizer, value)` to every element with its channel's scale
// (scales.size() == 1: one scale for the whole tensor, axis ignored).
template <typename Fn>
void ForEachWithScale(const float* x, float* y, const std::vector<int64_t>& dims, int axis,
                      const std::vector<float>& scales, int bin_cnt, int round_type, Fn fn) {
  if (scales.size() == 1) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    const Quantizer q(scales[0], bin_cnt, round_type);
    for (int64_t i = 0; i < n; ++i) y[i] = fn(q, x[i]);
    return;
  }
  const ChannelSplit sp = SplitAt(dims, axis);
  std::vector<Quantizer> qs;
  qs.reserve(scales.size());
  for (float s : scales) qs.emplace_back(s, bin_cnt, round_type);
  for (int64_t o = 0; o < sp.outer; ++o) {
    for (int64_t c = 0; c < sp.channels; ++c) {
      const int64_t base = (o * sp.channels + c) * sp.inner;
      for (int64_t i = 0; i < sp.inner; ++i) y[base + i] = fn(qs[c], x[base + i]);
    }
  }
}

}  // namespace quant
}  // namespace operators
}  // namespace lite

#ifdef __AVX512F__
#pragma GCC diagnostic pop
#endif
