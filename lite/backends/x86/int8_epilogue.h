// The epilogue the own x86 int8 kernels (depthwise_int8_nhwc.h,
// conv_int8_smalln.h) share, per output value of channel c, in a fixed
// order of float operations (their unit tests compute it the same way):
//   v = fma(sum, scale[c], bias[c])                  (bias 0 without bias)
//   v = act(v)    FusedActivation::Apply's formula for none, relu, relu6,
//                 leaky_relu, hard_sigmoid (Supports()); hard_swish as
//                 v * min(max(v + gamma, 0), alpha) * (1 / beta): a
//                 multiply by the reciprocal instead of Apply's division
//                 (at most an ulp apart; a division is far slower than a
//                 multiply in the epilogue's critical path); a relu before
//                 u8 levels is left out (Params::Set: the clip at 0 does it)
//   float output: v
//   levels output: q = v * factor (the caller's 127 / Output_scale, as
//                  quant_math.h's InverseScale computes it), clipped to
//                  [lo, hi] (LevelRange), rounded to nearest even, s8 / u8.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lite/backends/x86/lanes16.h"
#include "lite/base/fused_activation.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512DQ__)
#pragma GCC diagnostic push
// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps(), which
// it defines from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#define LITE_X86_INT8_EPILOGUE_AVX512 1
#endif

namespace lite {
namespace x86 {
namespace int8_epilogue {

using Act = operators::FusedActivation;

// True for the activations Activate computes.
inline bool Supports(const Act& act) {
  switch (act.kind) {
    case Act::kNone:
    case Act::kRelu:
    case Act::kRelu6:
    case Act::kLeakyRelu:
    case Act::kHardSwish:
    case Act::kHardSigmoid: return true;
    default: return false;
  }
}

// The factor the epilogue's hard_swish multiplies by (see above).
inline float HardSwishInverseBeta(const Act& act) { return 1.f / act.beta; }

// The epilogue's activation on one value: Apply, but hard_swish as above.
inline float ActivateOne(float v, const Act& act) {
  if (act.kind != Act::kHardSwish) return act.Apply(v);
  return v * std::min(std::max(v + act.gamma, 0.f), act.alpha) * HardSwishInverseBeta(act);
}

// Clip range of levels output: [0, 127] for u8, [-128, 127] for s8 with
// round_type 0, else [-127, 127].
inline void LevelRange(bool u8, int round_type, float* lo, float* hi) {
  *lo = u8 ? 0.f : round_type == 0 ? -128.f : -127.f;
  *hi = 127.f;
}

// An own kernel's epilogue as its SetEpilogue receives it: per-channel
// scale and bias (zero from `channels` up to `padded`), the activation, the
// output form (the kernel's Out enum: kFloat, kS8, kU8) and, for levels,
// the factor and the clip range.
template <typename Out>
struct Params {
  std::vector<float> scale, bias;
  Act act;
  Out out = Out::kFloat;
  float factor = 1.f, lo = -127.f, hi = 127.f;

  void Set(const float* channel_scale, const float* channel_bias, int64_t channels, int64_t padded,
           const Act& activation, Out form, float out_factor, int out_round_type) {
    scale.assign(padded, 0.f);
    bias.assign(padded, 0.f);
    std::copy(channel_scale, channel_scale + channels, scale.begin());
    if (channel_bias) std::copy(channel_bias, channel_bias + channels, bias.begin());
    act = activation;
    out = form;
    factor = out_factor;
    LevelRange(form == Out::kU8, out_round_type, &lo, &hi);
    // u8 levels clip at 0 after the (positive) factor: a relu before it
    // changes no level, so it is left out (one vector op fewer).
    if (form == Out::kU8 && act.kind == Act::kRelu && factor > 0.f) act = Act();
  }
};

// True when the CPU runs AVX-512 F / BW / VL / DQ and VNNI (the own VNNI
// kernels).
inline bool CpuHasAvx512Vnni() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vnni");
}

#ifdef LITE_X86_INT8_EPILOGUE_AVX512
// TailMask of lanes16.h, as the int8 kernels call it.
using x86::TailMask;

// sum += per lane the dot product of 4 u8 levels of x and 4 s8 levels of w
// (vpdpbusd, zmm or ymm), with the sum tied to its register. Through
// _mm512_dpbusd_epi32 GCC 12 wrote a tile's sums to a second set of
// registers and copied them back at every step, and spilled what did not
// fit (PointwiseInt8's 6 x 4 tile: 17 stack stores and loads per input quad;
// with this, none).
template <typename V>
__attribute__((always_inline)) inline void DotAdd(V& sum, V x, V w) {
  asm("vpdpbusd %2, %1, %0" : "+v"(sum) : "v"(x), "v"(w));
}

// sum += per lane the dot product of the 4 u8 levels of x and the 4 s8
// levels at b, broadcast to every lane by the instruction itself (vpdpbusd
// with a {1to16} memory operand: a load, no shuffle).
__attribute__((always_inline)) inline void DotAddBroadcast(__m512i& sum, __m512i x,
                                                           const void* b) {
  asm("vpdpbusd %2%{1to16%}, %1, %0"
      : "+v"(sum)
      : "v"(x), "m"(*static_cast<const int32_t*>(b)));
}

// v[0 .. n) = act(v[i]); n is a compile-time constant once inlined.
__attribute__((always_inline)) inline void Activate(__m512* v, int n, const Act& act) {
  const __m512 zero = _mm512_setzero_ps();
  const __m512 alpha = _mm512_set1_ps(act.alpha), beta = _mm512_set1_ps(act.beta),
               gamma = _mm512_set1_ps(act.gamma);
  switch (act.kind) {
    case Act::kRelu:
#pragma GCC unroll 32
      for (int i = 0; i < n; ++i) v[i] = _mm512_max_ps(v[i], zero);
      break;
    case Act::kRelu6:
#pragma GCC unroll 32
      for (int i = 0; i < n; ++i) v[i] = _mm512_min_ps(_mm512_max_ps(v[i], zero), alpha);
      break;
    case Act::kLeakyRelu:
#pragma GCC unroll 32
      for (int i = 0; i < n; ++i) {
        const __mmask16 neg = _mm512_cmp_ps_mask(v[i], zero, _CMP_LE_OQ);
        v[i] = _mm512_mask_mul_ps(v[i], neg, v[i], alpha);
      }
      break;
    case Act::kHardSwish: {  // v * min(max(v + gamma, 0), alpha) * (1 / beta)
      const __m512 inv_beta = _mm512_set1_ps(HardSwishInverseBeta(act));
#pragma GCC unroll 32
      for (int i = 0; i < n; ++i) {
        const __m512 g = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(v[i], gamma), zero), alpha);
        v[i] = _mm512_mul_ps(_mm512_mul_ps(v[i], g), inv_beta);
      }
      break;
    }
    case Act::kHardSigmoid:  // min(max(v * alpha + beta, 0), 1), two roundings
#pragma GCC unroll 32
      for (int i = 0; i < n; ++i) {
        const __m512 l = _mm512_add_ps(_mm512_mul_ps(v[i], alpha), beta);
        v[i] = _mm512_min_ps(_mm512_max_ps(l, zero), _mm512_set1_ps(1.f));
      }
      break;
    default: break;
  }
}

// The levels conversion of a tile: v * factor, clipped to [lo, hi], rounded
// to nearest even. A symmetric range (s8 levels of round type 1: [-127,
// 127]) is clipped in one vrangeps (the smaller magnitude of q and hi, with
// q's sign; imm sign control 00 takes the first operand's) instead of a max
// and a min: one instruction fewer per vector on the epilogue's critical
// path.
struct LevelClip {
  __m512 factor, lo, hi;
  bool symmetric;
  LevelClip(float f, float low, float high)
      : factor(_mm512_set1_ps(f)),
        lo(_mm512_set1_ps(low)),
        hi(_mm512_set1_ps(high)),
        symmetric(low == -high) {}
};

// Levels as int32 (see LevelClip) with the clip's form fixed at compile time
// (c.symmetric == Symmetric): a tile of many vectors picks it once.
template <bool Symmetric>
__attribute__((always_inline)) inline __m512i ToLevels32(__m512 v, const LevelClip& c) {
  const __m512 scaled = _mm512_mul_ps(v, c.factor);
  const __m512 q = Symmetric ? _mm512_range_ps(scaled, c.hi, 0x02)
                             : _mm512_min_ps(_mm512_max_ps(scaled, c.lo), c.hi);
  return _mm512_cvt_roundps_epi32(q, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

// The same with the form picked per call.
__attribute__((always_inline)) inline __m512i ToLevels32(__m512 v, const LevelClip& c) {
  return c.symmetric ? ToLevels32<true>(v, c) : ToLevels32<false>(v, c);
}

// The same as 16 bytes ([0, 127] for u8 gives the same bytes through the
// signed saturating pack).
template <bool Symmetric>
__attribute__((always_inline)) inline __m128i ToLevels(__m512 v, const LevelClip& c) {
  return _mm512_cvtsepi32_epi8(ToLevels32<Symmetric>(v, c));
}
__attribute__((always_inline)) inline __m128i ToLevels(__m512 v, const LevelClip& c) {
  return _mm512_cvtsepi32_epi8(ToLevels32(v, c));
}

// The byte mask StoreLevelVectors<V> stores with: the first `bytes` of 16 V
// (computed once per tile: the stores are int8_t, which may alias anything,
// so a mask computed per store reloads its inputs after every store).
template <int V>
inline __mmask64 LevelVectorsMask(int64_t bytes) {
  return bytes >= 16 * V ? (~__mmask64{0} >> (64 - 16 * V)) : (__mmask64{1} << bytes) - 1;
}

// The int32 levels of V <= 4 consecutive vectors of 16 channels (l[0] the
// first 16) as bytes stored at out under `mask` (LevelVectorsMask): two
// signed saturating packs and a lane permutation per pixel in place of one
// vpmovsdb per vector (on Zen 4 a vpmovsdb takes 2 cycles, the three
// shuffles together about 1 for four vectors). Same bytes: saturating to
// int16 and then to int8 clips like saturating to int8.
template <int V>
__attribute__((always_inline)) inline void StoreLevelVectors(const __m512i* l, __mmask64 mask,
                                                             int8_t* out) {
  static_assert(V >= 1 && V <= 4, "one to four vectors");
  if constexpr (V == 1) {
    _mm_mask_storeu_epi8(out, static_cast<__mmask16>(mask), _mm512_cvtsepi32_epi8(l[0]));
  } else {
    // Per 128-bit lane k the packs hold dwords [l0_k, l1_k, l2_k, l3_k]:
    // out dword 4 v + k is packed dword 4 k + v.
    const __m512i order = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i a = _mm512_packs_epi32(l[0], l[1]);
    const __m512i b = V == 2 ? a : _mm512_packs_epi32(l[2], V == 4 ? l[3] : zero);
    const __m512i bytes16 = _mm512_permutexvar_epi32(order, _mm512_packs_epi16(a, b));
    _mm512_mask_storeu_epi8(out, mask, bytes16);
  }
}

// A kernel's [M channels][16 pixels] float results f stored NHWC: each of
// the first `valid` pixels' channels at out + p * oc, with a mask (never
// past oc), as floats, or with `clip` as s8 / u8 levels (f turns into
// their int32 bits first). M == 8 takes one 8 x 16 transpose, other M 16
// channels at a time (zeros past M).
template <int M>
__attribute__((always_inline)) inline void StorePixels(__m512* f, const LevelClip* clip,
                                                       int valid, int64_t oc, void* out) {
  const bool levels = clip != nullptr;
  if (levels) {
#pragma GCC unroll 32
    for (int m = 0; m < M; ++m) f[m] = _mm512_castsi512_ps(ToLevels32(f[m], *clip));
  }
  if constexpr (M == 8) {
    __m256 px[16];
    Transpose8x16(f, px);
    const __mmask8 k = static_cast<__mmask8>(TailMask(oc));
    if (!levels) {
      float* o = static_cast<float*>(out);
      for (int p = 0; p < valid; ++p) _mm256_mask_storeu_ps(o + p * oc, k, px[p]);
    } else {
      int8_t* o = static_cast<int8_t*>(out);
      for (int p = 0; p < valid; ++p)
        _mm_mask_storeu_epi8(o + p * oc, k, _mm256_cvtsepi32_epi8(_mm256_castps_si256(px[p])));
    }
    return;
  }
#pragma GCC unroll 2
  for (int c0 = 0; c0 < M; c0 += 16) {
    __m512 r[16];
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) r[j] = c0 + j < M ? f[c0 + j] : _mm512_setzero_ps();
    Transpose16(r);
    const __mmask16 k = TailMask(oc - c0);
    if (!levels) {
      float* o = static_cast<float*>(out) + c0;
      for (int p = 0; p < valid; ++p) _mm512_mask_storeu_ps(o + p * oc, k, r[p]);
    } else {
      int8_t* o = static_cast<int8_t*>(out) + c0;
      for (int p = 0; p < valid; ++p)
        _mm_mask_storeu_epi8(o + p * oc, k, _mm512_cvtsepi32_epi8(_mm512_castps_si512(r[p])));
    }
  }
}
#endif

}  // namespace int8_epilogue
}  // namespace x86
}  // namespace lite

#ifdef LITE_X86_INT8_EPILOGUE_AVX512
#pragma GCC diagnostic pop
#endif
