#include "lite/backends/x86/pointwise_int8.h"

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/backends/x86/omp_ranges.h"

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;

bool PointwiseInt8::Supports(const Act& act) { return int8_epilogue::Supports(act); }

void PointwiseInt8::SetFilter(const int8_t* filter, int64_t oc, int64_t ic) {
  oc_ = oc;
  ic_ = ic;
  ocp_ = (oc + 15) / 16 * 16;
  quads_ = (ic + 3) / 4;
  w_.assign(quads_ * ocp_, 0);
  comp_.assign(ocp_, 0);
  no_comp_.assign(ocp_, 0);
  for (int64_t o = 0; o < oc; ++o)
    for (int64_t c = 0; c < ic; ++c) {
      const int8_t v = filter[o * ic + c];
      uint32_t& word = reinterpret_cast<uint32_t&>(w_[(c / 4) * ocp_ + o]);
      word |= static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * (c % 4));
      comp_[o] += 128 * v;
    }
  // The tiles' filter: levels + 128 (u8), zero past oc / ic.
  wu_.assign(quads_ * ocp_, 0);
  for (int64_t o = 0; o < oc; ++o)
    for (int64_t c = 0; c < ic; ++c) {
      uint32_t& word = reinterpret_cast<uint32_t&>(wu_[(c / 4) * ocp_ + o]);
      word |= static_cast<uint32_t>(filter[o * ic + c] + 128) << (8 * (c % 4));
    }
  // Pair mode: the first 8 columns twice.
  w2_.assign(quads_ * 16, 0);
  comp2_.assign(16, 0);
  for (int64_t q = 0; q < quads_; ++q)
    for (int64_t o = 0; o < 16; ++o) w2_[q * 16 + o] = w_[q * ocp_ + o % 8];
  for (int64_t o = 0; o < 16; ++o) comp2_[o] = comp_[o % 8];
}

void PointwiseInt8::SetEpilogue(const float* scale, const float* bias, const Act& act, Out out,
                                float out_factor, int out_round_type) {
  ep_.Set(scale, bias, oc_, ocp_, act, out, out_factor, out_round_type);
  scale2_.assign(16, 0.f);
  bias2_.assign(16, 0.f);
  for (int64_t o = 0; o < 16; ++o) {
    scale2_[o] = ep_.scale[o % 8];
    bias2_[o] = ep_.bias[o % 8];
  }
}

#if defined(LITE_X86_INT8_EPILOGUE_AVX512) && defined(__AVX512VNNI__)

bool PointwiseInt8::Available() {
  return int8_epilogue::CpuHasAvx512Vnni();
}

namespace {

constexpr int64_t kInDotChannels = 32;

using int8_epilogue::DotAdd;
using int8_epilogue::TailMask;

// What a tile needs besides its pixels and its panel's first channel.
struct TileArgs {
  const uint8_t* in;  // pixel 0's levels
  int64_t ic, quads, ocp, oc;
  __mmask16 last_quad;  // bytes of the last quad inside the pixel (0xF when ic % 4 == 0)
  uint32_t flip;        // 0x80808080 for s8 input, else 0
  const int32_t *w, *comp;  // the flip form's filter and compensation (see Tile)
  const int32_t* wu;        // the tiles' filter (levels + 128, u8)
  const int32_t* neg_rowsum;  // -128 x the sum of pixel p's levels at [p - rowsum_base]
  int64_t rowsum_base;
  const float *scale, *bias;
  const Act* act;
  PointwiseInt8::Out out;
  float factor, lo, hi;
  void* dst;
  const float* residual;  // pixels x oc floats added before the activation, or null
  int64_t repeat;         // residual pixel p / repeat goes with output pixel p
  // Pair mode (PairMode()): filter / compensation / scale / bias of the
  // (at most 8) channels twice over 16 lanes, and the bytes of two pixels.
  const int32_t *w2, *comp2;
  const float *scale2, *bias2;
  __mmask64 pair_bytes;
};

// The residual values of output pixel p.
__attribute__((always_inline)) inline const float* ResidualOf(const TileArgs& a, int64_t p) {
  return a.residual + (a.repeat == 1 ? p : p / a.repeat) * a.oc;
}

// Pixels [p0, p0 + R) x channels [c0, c0 + 16 V) (V vectors of the panel;
// channels past oc are computed from zero filters and not stored), in one
// of two forms:
// - InDot (deep s8 inputs, Range): the filter is the u8 operand (levels +
//   128, wu) and the input the s8 one, its 4 levels broadcast by each
//   vpdpbusd from memory: no shuffle per
//   pixel and quad, but the sums are the products plus 128 x the pixel's
//   level sum, so they start at minus that (neg_rowsum, one reduction per
//   pixel);
// - otherwise the input is the u8 operand (s8 levels xor 0x80), broadcast
//   and flipped by one vpxord per pixel and quad, and the sums start at
//   minus the filter's compensation (comp).
template <int R, int V, bool InDot>
void Tile(const TileArgs& a, int64_t p0, int64_t c0) {
  __m512i acc[R][V];
  if constexpr (InDot) {
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const __m512i start = _mm512_set1_epi32(a.neg_rowsum[p0 + r - a.rowsum_base]);
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) acc[r][v] = start;
    }
  } else {
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) {
      const __m512i start =
          _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_loadu_si512(a.comp + c0 + 16 * v));
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) acc[r][v] = start;
    }
  }
  const int64_t ic = a.ic, ocp = a.ocp, whole = ic / 4;
  const uint8_t* row = a.in + p0 * ic;
  const int32_t* w = (InDot ? a.wu : a.w) + c0;
  const __m512i flip = _mm512_set1_epi32(static_cast<int32_t>(a.flip));
  for (int64_t q = 0; q < whole; ++q, w += ocp) {
    __m512i wv[V];
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) wv[v] = _mm512_loadu_si512(w + 16 * v);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const uint8_t* quad = row + r * ic + 4 * q;
      if constexpr (InDot) {
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) int8_epilogue::DotAddBroadcast(acc[r][v], wv[v], quad);
      } else {
        int32_t word;
        std::memcpy(&word, quad, 4);
        const __m512i x = _mm512_xor_si512(_mm512_set1_epi32(word), flip);
#pragma GCC unroll 4
        for (int v = 0; v < V; ++v) DotAdd(acc[r][v], x, wv[v]);
      }
    }
  }
  if (whole < a.quads) {
    // The last, partial quad: a masked load (never past the input), then
    // the broadcast from a register.
    __m512i wv[V];
#pragma GCC unroll 4
    for (int v = 0; v < V; ++v) wv[v] = _mm512_loadu_si512(w + 16 * v);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      const __m512i x = _mm512_set1_epi32(
          _mm_cvtsi128_si32(_mm_maskz_loadu_epi8(a.last_quad, row + r * ic + 4 * whole)));
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) {
        if constexpr (InDot) DotAdd(acc[r][v], wv[v], x);
        else DotAdd(acc[r][v], _mm512_xor_si512(x, flip), wv[v]);
      }
    }
  }
  const float* res[R];
  if (a.residual) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) res[r] = ResidualOf(a, p0 + r);
  }
  __m512 f[R * V];
#pragma GCC unroll 32
  for (int i = 0; i < R * V; ++i) {
    const int64_t c = c0 + 16 * (i % V);
    f[i] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[i / V][i % V]), _mm512_loadu_ps(a.scale + c),
                           _mm512_loadu_ps(a.bias + c));
    if (a.residual) {
      const __m512 r = _mm512_maskz_loadu_ps(TailMask(a.oc - c), res[i / V] + c);
      f[i] = _mm512_add_ps(f[i], r);
    }
  }
  int8_epilogue::Activate(f, R * V, *a.act);
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  // What the stores need, read once (a store through int8_t* may alias a).
  const int64_t oc = a.oc;
  if (a.out == PointwiseInt8::Out::kFloat) {
    float* const dst = static_cast<float*>(a.dst) + p0 * oc + c0;
    const __mmask16 last = TailMask(oc - c0 - 16 * (V - 1));
#pragma GCC unroll 32
    for (int i = 0; i < R * V; ++i) {
      const int v = i % V;
      _mm512_mask_storeu_ps(dst + i / V * oc + 16 * v, v == V - 1 ? last : __mmask16(0xFFFF),
                            f[i]);
    }
    return;
  }
  int8_t* const dst = static_cast<int8_t*>(a.dst) + p0 * oc + c0;
  const __mmask64 mask = int8_epilogue::LevelVectorsMask<V>(oc - c0);
  // The clip's form picked once for the tile (one branch, not one a vector).
  auto store = [&](auto symmetric) __attribute__((always_inline)) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      __m512i l[V];
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) {
        l[v] = int8_epilogue::ToLevels32<decltype(symmetric)::value>(f[r * V + v], clip);
      }
      int8_epilogue::StoreLevelVectors<V>(l, mask, dst + r * oc);
    }
  };
  if (clip.symmetric) store(std::true_type());
  else store(std::false_type());
}

// Pixels [p0, p0 + 2 R) as R pairs, lanes 0-7 the first pixel's (at most
// 8) channels, lanes 8-15 the second's: half the epilogue work of one pixel
// per 16 lanes. A pair's bytes are one masked load; quad q of each pixel is
// picked out of it by a lane permutation (ic % 4 == 0, 2 ic <= 64).
template <int R>
void PairTile(const TileArgs& a, int64_t p0) {
  __m512i acc[R], data[R];
  const __m512i flip = _mm512_set1_epi32(static_cast<int32_t>(a.flip));
  const __m512i start = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_loadu_si512(a.comp2));
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    acc[r] = start;  // minus the compensation, as in Tile
    data[r] = _mm512_xor_si512(_mm512_maskz_loadu_epi8(a.pair_bytes, a.in + (p0 + 2 * r) * a.ic),
                               flip);
  }
  const __m512i half = _mm512_set_epi32(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m512i second = _mm512_mullo_epi32(half, _mm512_set1_epi32(static_cast<int32_t>(a.quads)));
  for (int64_t q = 0; q < a.quads; ++q) {
    const __m512i w = _mm512_loadu_si512(a.w2 + 16 * q);
    const __m512i idx = _mm512_add_epi32(second, _mm512_set1_epi32(static_cast<int32_t>(q)));
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
      DotAdd(acc[r], _mm512_permutexvar_epi32(idx, data[r]), w);
  }
  __m512 f[R];
  const __m512 scale = _mm512_loadu_ps(a.scale2), bias = _mm512_loadu_ps(a.bias2);
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) f[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[r]), scale, bias);
  const __mmask16 m = TailMask(a.oc);
  // oc == 8 (no residual repeat): a pair's residual and output values are
  // contiguous, one vector of each.
  const bool dense = a.oc == 8 && a.repeat == 1;
  if (a.residual && dense) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      f[r] = _mm512_add_ps(f[r], _mm512_loadu_ps(ResidualOf(a, p0 + 2 * r)));
    }
  } else if (a.residual) {
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const int64_t p = p0 + 2 * r;
      const __m256 first = _mm256_maskz_loadu_ps(static_cast<__mmask8>(m), ResidualOf(a, p));
      const __m256 second =
          _mm256_maskz_loadu_ps(static_cast<__mmask8>(m), ResidualOf(a, p + 1));
      f[r] = _mm512_add_ps(f[r], _mm512_insertf32x8(_mm512_castps256_ps512(first), second, 1));
    }
  }
  int8_epilogue::Activate(f, R, *a.act);
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  // What the stores need, read once (a store through int8_t* may alias a).
  const int64_t oc = a.oc;
  const bool float_out = a.out == PointwiseInt8::Out::kFloat;
  float* const fdst = static_cast<float*>(a.dst) + p0 * oc;
  int8_t* const ldst = static_cast<int8_t*>(a.dst) + p0 * oc;
  // The clip's form picked once for the tile, as in Tile.
  auto store = [&](auto symmetric) __attribute__((always_inline)) {
    constexpr bool kSymmetric = decltype(symmetric)::value;
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const int64_t p = 2 * r;  // from p0
      if (dense && float_out) {
        _mm512_storeu_ps(fdst + p * 8, f[r]);
      } else if (dense) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(ldst + p * 8),
                         int8_epilogue::ToLevels<kSymmetric>(f[r], clip));
      } else if (float_out) {
        float* d = fdst + p * oc;
        _mm256_mask_storeu_ps(d, static_cast<__mmask8>(m), _mm512_castps512_ps256(f[r]));
        _mm256_mask_storeu_ps(d + oc, static_cast<__mmask8>(m), _mm512_extractf32x8_ps(f[r], 1));
      } else {
        int8_t* d = ldst + p * oc;
        const __m128i l = int8_epilogue::ToLevels<kSymmetric>(f[r], clip);
        _mm_mask_storeu_epi8(d, m, l);
        _mm_mask_storeu_epi8(d + oc, m, _mm_srli_si128(l, 8));
      }
    }
  };
  if (clip.symmetric) store(std::true_type());
  else store(std::false_type());
}

// out[p - p0] = -128 x the sum of pixel p's levels (as s8), p in [p0, p1):
// one vpdpbusd of 1s and up to 64 levels per step, then the lanes' sum.
void NegRowSums(const TileArgs& a, int64_t p0, int64_t p1, int32_t* out) {
  const __m512i ones = _mm512_set1_epi8(1);
  const int64_t ic = a.ic;
  const __mmask64 tail = ic % 64 == 0 ? ~__mmask64{0} : (__mmask64{1} << (ic % 64)) - 1;
  for (int64_t p = p0; p < p1; ++p) {
    const uint8_t* row = a.in + p * ic;
    __m512i sum = _mm512_setzero_si512();
    int64_t k = 0;
    for (; k + 64 <= ic; k += 64) DotAdd(sum, ones, _mm512_loadu_si512(row + k));
    if (k < ic) DotAdd(sum, ones, _mm512_maskz_loadu_epi8(tail, row + k));
    out[p - p0] = -128 * _mm512_reduce_add_epi32(sum);
  }
}

// Pixels [p0, p1) in pair mode: 8-pair tiles, single pairs, a last pixel.
void PairPixels(const TileArgs& a, int64_t p0, int64_t p1) {
  int64_t p = p0;
  for (; p + 16 <= p1; p += 16) PairTile<8>(a, p);
  for (; p + 2 <= p1; p += 2) PairTile<1>(a, p);
  if (p < p1) Tile<1, 1, false>(a, p, 0);
}

// Pixels [p0, p1) over every panel: R-pixel tiles, then single pixels.
template <int R, int V, bool InDot>
void Pixels(const TileArgs& a, int64_t p0, int64_t p1, int64_t c0) {
  int64_t p = p0;
  for (; p + R <= p1; p += R) Tile<R, V, InDot>(a, p, c0);
  for (; p < p1; ++p) Tile<1, V, InDot>(a, p, c0);
}

// The panels of pixels [p0, p1) in one form.
template <bool InDot>
void Panels(const TileArgs& a, int64_t p0, int64_t p1) {
  // Tile heights: 6 x 4, 6 x 3, 8 x 2 and 12 x 1 vectors keep the sums, the
  // panel's filter vectors and a broadcast within the 32 registers. The
  // vectors are split into panels of at most 4 as evenly as they go (13:
  // 4 + 3 + 3 + 3, not 4 + 4 + 4 + 1, whose one-vector panel broadcasts
  // each input quad for a single product vector).
  const int64_t vectors = a.ocp / 16, panels = (vectors + 3) / 4;
  for (int64_t i = 0, c0 = 0; i < panels; ++i) {
    const int64_t v = vectors / panels + (i < vectors % panels);
    switch (v) {
      case 4: Pixels<6, 4, InDot>(a, p0, p1, c0); break;
      case 3: Pixels<6, 3, InDot>(a, p0, p1, c0); break;
      case 2: Pixels<8, 2, InDot>(a, p0, p1, c0); break;
      default: Pixels<12, 1, InDot>(a, p0, p1, c0); break;
    }
    c0 += 16 * v;
  }
}

void Range(const TileArgs& args, bool pairs, int64_t p0, int64_t p1) {
  if (pairs) return PairPixels(args, p0, p1);
  // The input broadcast inside the vpdpbusd from 32 input channels on (8
  // quads): below, the per-pixel level sum costs more than the broadcasts it
  // saves (pointwise_int8_bench; docs/performance.md).
  // u8 levels above 127 would read as negative s8 operands.
  if (args.ic < kInDotChannels || args.flip == 0) return Panels<false>(args, p0, p1);
  thread_local std::vector<int32_t> neg_rowsum;
  neg_rowsum.resize(p1 - p0);
  NegRowSums(args, p0, p1, neg_rowsum.data());
  TileArgs a = args;
  a.neg_rowsum = neg_rowsum.data();
  a.rowsum_base = p0;
  Panels<true>(a, p0, p1);
}

}  // namespace

void PointwiseInt8::Run(int64_t pixels, const void* in, Levels in_type, void* out, int threads,
                        const float* residual, int64_t residual_repeat) const {
  TileArgs a;
  a.in = static_cast<const uint8_t*>(in);
  a.ic = ic_;
  a.quads = quads_;
  a.ocp = ocp_;
  a.oc = oc_;
  a.last_quad = static_cast<__mmask16>(ic_ % 4 == 0 ? 0xF : (1u << (ic_ % 4)) - 1);
  const bool s8 = in_type == Levels::kS8;
  a.flip = s8 ? 0x80808080u : 0u;
  a.w = w_.data();
  a.wu = wu_.data();
  a.neg_rowsum = nullptr;
  a.rowsum_base = 0;
  a.comp = s8 ? comp_.data() : no_comp_.data();
  a.scale = ep_.scale.data();
  a.bias = ep_.bias.data();
  a.act = &ep_.act;
  a.out = ep_.out;
  a.factor = ep_.factor;
  a.lo = ep_.lo;
  a.hi = ep_.hi;
  a.dst = out;
  a.residual = residual;
  a.repeat = residual_repeat;
  const bool pairs = PairMode(oc_, ic_);
  a.w2 = w2_.data();
  a.comp2 = s8 ? comp2_.data() : no_comp_.data();
  a.scale2 = scale2_.data();
  a.bias2 = bias2_.data();
  a.pair_bytes = 2 * ic_ >= 64 ? ~__mmask64{0} : (__mmask64{1} << (2 * ic_)) - 1;
  // Chunks of 48 pixels (a multiple of every tile height) per thread range.
  constexpr int64_t kChunk = 48;
  const int64_t chunks = (pixels + kChunk - 1) / kChunk;
  OmpForRanges(threads, chunks, pixels * ic_ * oc_, [&](int64_t b0, int64_t b1) {
    Range(a, pairs, b0 * kChunk, std::min(pixels, b1 * kChunk));
  });
}

#else

bool PointwiseInt8::Available() { return false; }

void PointwiseInt8::Run(int64_t, const void*, Levels, void*, int, const float*,
                        int64_t) const {}

#endif

}  // namespace x86
}  // namespace lite
