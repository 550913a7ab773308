// NEON forms of the int8 glue loops (int8_loops.h), each the scalar rule
// for the remainder and on other CPUs.
#include "lite/kernels/arm/int8_loops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#ifdef __aarch64__
#include <arm_neon.h>
#endif

#include "lite/base/quant_math.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

using operators::quant::Quantizer;

// The scalar output rounding (what conv_int8_compute.cc computed before):
// clipping first is the same (the bounds are integers); adding and
// subtracting 1.5 * 2^23 rounds |v| <= 128 to nearest even; std::max's
// operand order sends a NaN to `lo`.
inline int8_t RequantizeOne(float y, float factor, float lo) {
  constexpr float kRound = 12582912.f;
  const float v = std::min(127.f, std::max(lo, y * factor));
  return static_cast<int8_t>((v + kRound) - kRound);
}

#ifdef __aarch64__
// Quantizer's Level on 4 values (same operations, same order): subnormals
// zeroed, then round type 0: nearest even of factor * x (vrndnq) clamped to
// [-128, 127]; type 1: factor * clip(x, -s, s) rounded half away from zero
// (vrndaq, std::round's rule).
class Quantizer4 {
 public:
  Quantizer4(float scale, int round_type)
      : factor_(vdupq_n_f32(127.f * operators::quant::InverseScale(scale))),
        s_(vdupq_n_f32(scale)),
        neg_s_(vdupq_n_f32(-scale)),
        min_normal_(vdupq_n_f32(std::numeric_limits<float>::min())),
        ties_to_even_(round_type == 0) {}

  float32x4_t Level(float32x4_t x) const {
    x = vbslq_f32(vcaltq_f32(x, min_normal_), vdupq_n_f32(0.f), x);
    if (ties_to_even_) {
      const float32x4_t q = vrndnq_f32(vmulq_f32(factor_, x));
      return vminq_f32(vmaxq_f32(q, vdupq_n_f32(-128.f)), vdupq_n_f32(127.f));
    }
    return vrndaq_f32(vmulq_f32(factor_, vminq_f32(vmaxq_f32(x, neg_s_), s_)));
  }

 private:
  float32x4_t factor_, s_, neg_s_, min_normal_;
  bool ties_to_even_;
};

// Quantizer4's Level on 16 values a step, for the first n / 16 * 16 of x;
// returns that count. One conversion rounds as the level's rule does
// (vcvtnq_s32_f32: nearest even, vrndnq's; vcvtaq_s32_f32: half away from
// zero, vrndaq's), and the saturating narrows to int16 then int8 are the
// clamp to [-128, 127] (round type 1's levels are within +-127 already; NaN
// converts to 0 both ways). The subnormal zeroing is left out: factor x
// subnormal rounds to level 0 anyway (quant_math.h: |factor| < 1.3e32).
// kGate: the levels of x[i] * g[i] (one float product, the multiply's).
// kClip false (round type 1 only, where ClipIsSaturation(scale)): the clip
// to [-s, s] is left out and the levels clamped to [-127, 127] after the
// narrows instead.
template <bool kTiesToEven, bool kGate = false, bool kClip = true>
size_t Quantize16(const float* x, int8_t* q, size_t n, float scale, const float* g = nullptr) {
  const float32x4_t factor = vdupq_n_f32(127.f * operators::quant::InverseScale(scale));
  const float32x4_t s = vdupq_n_f32(scale), neg_s = vdupq_n_f32(-scale);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    float32x4x4_t v = vld1q_f32_x4(x + i);
    if (kGate) {
      const float32x4x4_t gv = vld1q_f32_x4(g + i);
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) v.val[j] = vmulq_f32(v.val[j], gv.val[j]);
    }
    int32x4_t l[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
      if (kTiesToEven) {
        l[j] = vcvtnq_s32_f32(vmulq_f32(factor, v.val[j]));
      } else if (kClip) {
        l[j] = vcvtaq_s32_f32(vmulq_f32(factor, vminq_f32(vmaxq_f32(v.val[j], neg_s), s)));
      } else {
        l[j] = vcvtaq_s32_f32(vmulq_f32(factor, v.val[j]));
      }
    }
    const int16x8_t a = vqmovn_high_s32(vqmovn_s32(l[0]), l[1]);
    const int16x8_t b = vqmovn_high_s32(vqmovn_s32(l[2]), l[3]);
    const int8x16_t levels = vqmovn_high_s16(vqmovn_s16(a), b);
    vst1q_s8(q + i, kTiesToEven || kClip ? levels : vmaxq_s8(levels, vdupq_n_s8(-127)));
  }
  return i;
}

// Whether round type 1's clip of x to [-s, s] is the same as clamping the
// level to [-127, 127]: when factor * s (the float product the loop would
// form) rounds to 127, x beyond s has a level of 127 or more before the
// clamp (the product is monotonic in x), x below -s -127 or less, and NaN
// converts to 0 either way.
inline bool ClipIsSaturation(float scale) {
  const float factor = 127.f * operators::quant::InverseScale(scale);
  return scale > 0.f && std::round(factor * scale) == 127.f;
}

// Quantize16 for `round_type`, the clip left out where it may be.
template <bool kGate>
size_t Quantize16For(int round_type, const float* x, int8_t* q, size_t n, float scale,
                     const float* g = nullptr) {
  if (round_type == 0) return Quantize16<true, kGate>(x, q, n, scale, g);
  return ClipIsSaturation(scale) ? Quantize16<false, kGate, false>(x, q, n, scale, g)
                                 : Quantize16<false, kGate, true>(x, q, n, scale, g);
}

// 8 integral floats in [-128, 127] as 8 int8.
inline int8x8_t Narrow(float32x4_t a, float32x4_t b) {
  const int16x8_t h = vcombine_s16(vmovn_s32(vcvtq_s32_f32(a)), vmovn_s32(vcvtq_s32_f32(b)));
  return vmovn_s16(h);
}

// level * scale / 127 of 8 levels widened to int16.
inline void Dequantize8(int16x8_t l, float32x4_t s, float32x4_t bin, float* y) {
  const float32x4_t lo = vcvtq_f32_s32(vmovl_s16(vget_low_s16(l)));
  const float32x4_t hi = vcvtq_f32_s32(vmovl_s16(vget_high_s16(l)));
  vst1q_f32(y, vdivq_f32(vmulq_f32(lo, s), bin));
  vst1q_f32(y + 4, vdivq_f32(vmulq_f32(hi, s), bin));
}
#endif

}  // namespace

void QuantizeLevels(const float* x, int8_t* q, size_t n, float scale, int round_type) {
#ifdef __aarch64__
  const Quantizer4 q4(scale, round_type);
  size_t i = Quantize16For<false>(round_type, x, q, n, scale);
  for (; i + 8 <= n; i += 8) {
    vst1_s8(q + i, Narrow(q4.Level(vld1q_f32(x + i)), q4.Level(vld1q_f32(x + i + 4))));
  }
  const Quantizer quantizer(scale, 127, round_type);
  for (; i < n; ++i) q[i] = static_cast<int8_t>(quantizer.Level(x[i]));
#else
  operators::quant::QuantizeToInt8(x, q, static_cast<int64_t>(n), scale, 127, round_type);
#endif
}

void GateQuantizeLevels(const float* x, const float* g, int8_t* q, size_t pixels, size_t c,
                        float scale, int round_type) {
  const Quantizer quantizer(scale, 127, round_type);
#ifdef __aarch64__
  const Quantizer4 q4(scale, round_type);
#endif
  size_t p = 0;
#ifdef __aarch64__
  // Whole periods first: the gate repeated over `period` pixels, a multiple
  // of 16 values of at least 512, so one 16-wide loop takes them flat.
  const size_t unit = 16 / std::gcd<size_t>(c, 16);  // pixels per multiple of 16
  const size_t period = unit * ((512 + unit * c - 1) / (unit * c));
  if (pixels >= period) {
    std::vector<float> gates(period * c);
    for (size_t k = 0; k < period; ++k) std::memcpy(gates.data() + k * c, g, c * sizeof(float));
    for (; p + period <= pixels; p += period, x += period * c, q += period * c) {
      Quantize16For<true>(round_type, x, q, period * c, scale, gates.data());
    }
  }
#endif
  for (; p < pixels; ++p, x += c, q += c) {
    size_t i = 0;
#ifdef __aarch64__
    // 16, then 8 and 4 a step: a channel count that is not a multiple of 16
    // leaves a remainder on every pixel.
    i = Quantize16For<true>(round_type, x, q, c, scale, g);
    auto level = [&](size_t k) { return q4.Level(vmulq_f32(vld1q_f32(x + k), vld1q_f32(g + k))); };
    for (; i + 8 <= c; i += 8) vst1_s8(q + i, Narrow(level(i), level(i + 4)));
    if (i + 4 <= c) {
      const float32x4_t v = level(i);
      const int32_t four = vget_lane_s32(vreinterpret_s32_s8(Narrow(v, v)), 0);
      std::memcpy(q + i, &four, sizeof four);
      i += 4;
    }
#endif
    for (; i < c; ++i) q[i] = static_cast<int8_t>(quantizer.Level(x[i] * g[i]));
  }
}

void QuantDequantLevels(const float* x, float* y, size_t n, float scale, int round_type) {
#ifdef __aarch64__
  const Quantizer4 q4(scale, round_type);
  const float32x4_t s = vdupq_n_f32(scale), bin = vdupq_n_f32(127.f);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    vst1q_f32(y + i, vdivq_f32(vmulq_f32(q4.Level(vld1q_f32(x + i)), s), bin));
  }
  const Quantizer quantizer(scale, 127, round_type);
  for (; i < n; ++i) y[i] = quantizer.QuantDequant(x[i]);
#else
  operators::quant::QuantDequantFloat(x, y, static_cast<int64_t>(n), scale, 127, round_type);
#endif
}

void DequantizeLevels(const int8_t* l, float* y, size_t n, float scale) {
  size_t i = 0;
#ifdef __aarch64__
  const float32x4_t s = vdupq_n_f32(scale), bin = vdupq_n_f32(127.f);
  for (; i + 8 <= n; i += 8) Dequantize8(vmovl_s8(vld1_s8(l + i)), s, bin, y + i);
#endif
  const Quantizer q(scale, 127, 0);
  for (; i < n; ++i) y[i] = q.Dequantize(static_cast<float>(l[i]));
}

void DequantizeLevels(const uint8_t* l, float* y, size_t n, float scale) {
  size_t i = 0;
#ifdef __aarch64__
  const float32x4_t s = vdupq_n_f32(scale), bin = vdupq_n_f32(127.f);
  for (; i + 8 <= n; i += 8) {
    Dequantize8(vreinterpretq_s16_u16(vmovl_u8(vld1_u8(l + i))), s, bin, y + i);
  }
#endif
  const Quantizer q(scale, 127, 0);
  for (; i < n; ++i) y[i] = q.Dequantize(static_cast<float>(l[i]));
}

void RequantizeLevels(const float* y, int8_t* q, size_t n, float factor, float lo) {
  size_t i = 0;
#ifdef __aarch64__
  const float32x4_t f = vdupq_n_f32(factor), l4 = vdupq_n_f32(lo), hi = vdupq_n_f32(127.f);
  // vmaxnmq takes the number where the product is NaN (std::max's `lo`);
  // vrndnq rounds to nearest even as the 1.5 * 2^23 trick does.
  auto level = [&](const float* p) {
    return vrndnq_f32(vminq_f32(vmaxnmq_f32(vmulq_f32(vld1q_f32(p), f), l4), hi));
  };
  for (; i + 8 <= n; i += 8) vst1_s8(q + i, Narrow(level(y + i), level(y + i + 4)));
#endif
  for (; i < n; ++i) q[i] = RequantizeOne(y[i], factor, lo);
}

void LookupLevels(const int8_t* x, int8_t* y, size_t n, const int8_t* lut) {
  size_t i = 0;
#ifdef __aarch64__
  // Four 64-byte tables, looked up with index - 64 k: tbl for the first
  // (an index past its end reads 0), tbx for the others (an index past the
  // table's end keeps the byte already there), so each byte ends with the
  // entry of the one table its index falls in.
  int8x16x4_t t[4];
  for (int k = 0; k < 4; ++k) {
    for (int j = 0; j < 4; ++j) t[k].val[j] = vld1q_s8(lut + 64 * k + 16 * j);
  }
  const uint8x16_t bias = vdupq_n_u8(128), step = vdupq_n_u8(64);
  for (; i + 16 <= n; i += 16) {
    uint8x16_t u = vaddq_u8(vreinterpretq_u8_s8(vld1q_s8(x + i)), bias);
    int8x16_t r = vqtbl4q_s8(t[0], u);
#pragma GCC unroll 3
    for (int k = 1; k < 4; ++k) {
      u = vsubq_u8(u, step);
      r = vqtbx4q_s8(r, t[k], u);
    }
    vst1q_s8(y + i, r);
  }
#endif
  for (; i < n; ++i) y[i] = lut[static_cast<int>(x[i]) + 128];
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
