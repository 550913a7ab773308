// The int8 depthwise kernel's tile routines and their tables
// (depthwise_int8_tiles.h).
#include "lite/backends/x86/depthwise_int8_tiles.h"

// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps(), which
// it defines from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <algorithm>
#include <utility>

namespace lite {
namespace x86 {
namespace dw_int8 {

#ifdef LITE_X86_INT8_EPILOGUE_AVX512

using int8_epilogue::TailMask;

namespace {


// The float vectors the sums use: 16 lanes (zmm) or 8 (ymm).
struct Zmm {
  using T = __m512;
  static constexpr int kLanes = 16;
  static T Zero() { return _mm512_setzero_ps(); }
  static T Load(const float* p) { return _mm512_loadu_ps(p); }
  static T Fma(T a, T b, T c) { return _mm512_fmadd_ps(a, b, c); }
};
struct Ymm {
  using T = __m256;
  static constexpr int kLanes = 8;
  static T Zero() { return _mm256_setzero_ps(); }
  static T Load(const float* p) { return _mm256_loadu_ps(p); }
  static T Fma(T a, T b, T c) { return _mm256_fmadd_ps(a, b, c); }
};

// acc[R pixels][V vectors] = the window sums of the pixels starting at
// column offset `off` of the converted rows, whose columns hold V vectors.
// SW: the stride in columns, or 0 for any (a.xstep); with it known, every
// load of a tap is an immediate offset from one pointer.
template <class Vec, int R, int V, int SW>
__attribute__((always_inline)) inline void Accumulate(const TileArgs& a, int64_t off,
                                                      typename Vec::T (&acc)[R][V]) {
  constexpr int64_t kWidth = Vec::kLanes * V;  // floats per column
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) acc[r][j] = Vec::Zero();
  const int64_t xstep = SW ? SW * kWidth : a.xstep, kstep = a.kstep;
  for (int t = 0; t < a.nrows; ++t) {
    const float* row = a.rows[t] + off;
    const float* w = a.wrows[t];
    for (int kx = 0; kx < a.kw; ++kx, row += kstep, w += kWidth) {
      typename Vec::T wv[V];
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) wv[j] = Vec::Load(w + Vec::kLanes * j);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < V; ++j)
          acc[r][j] = Vec::Fma(Vec::Load(row + r * xstep + Vec::kLanes * j), wv[j], acc[r][j]);
    }
  }
}

#ifdef LITE_DW_QUADS
// The int32 vectors of the quad sums: 16 lanes (zmm) or 8 (ymm).
struct ZmmQuads {
  using T = __m512i;
  static constexpr int kLanes = 16;
  static T Load(const void* p) { return _mm512_loadu_si512(p); }
  static void Dot(T& sum, T quads, T w) { int8_epilogue::DotAdd(sum, quads, w); }
  static __m512 ToFloat(T v) { return _mm512_cvtepi32_ps(v); }
};
struct YmmQuads {
  using T = __m256i;
  static constexpr int kLanes = 8;
  static T Load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  static void Dot(T& sum, T quads, T w) { int8_epilogue::DotAdd(sum, quads, w); }
  static __m256 ToFloat(T v) { return _mm256_cvtepi32_ps(v); }
};

// acc[R pixels][V vectors] = the window sums of the pixels starting at byte
// `off` of the quad rows (a pixel's quads: V vectors of 4 * lanes bytes), as
// floats; the int32 sums start at a.start.
template <class Q, int R, int V, class F>
__attribute__((always_inline)) inline void AccumulateQuads(const TileArgs& a, int64_t off,
                                                           F (&acc)[R][V]) {
  constexpr int64_t kVector = Q::kLanes * 4, kPixel = kVector * V;  // bytes
  typename Q::T sum[R][V];
#pragma GCC unroll 4
  for (int j = 0; j < V; ++j) {
    const typename Q::T start = Q::Load(a.start + Q::kLanes * j);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) sum[r][j] = start;
  }
  for (int t = 0; t < a.nrows; ++t) {
    const uint8_t* row = a.qrows[t] + off;
    const int8_t* w = a.qwrows[t];
    for (int g = 0; g < a.groups; ++g, row += a.gstep, w += kPixel) {
      typename Q::T wv[V];
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) wv[j] = Q::Load(w + kVector * j);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < V; ++j)
          Q::Dot(sum[r][j], Q::Load(row + r * kPixel + kVector * j), wv[j]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) acc[r][j] = Q::ToFloat(sum[r][j]);
}
#endif

// out[R pixels x 16V channels] for the pixels starting at column offset
// `off` of the converted rows (byte `off` of the quad rows with Quads); out
// points at the first pixel's channel.
template <int R, int V, int SW, bool Quads>
void Tile(const TileArgs& a, int64_t off, void* out) {
  __m512 acc[R][V];
#ifdef LITE_DW_QUADS
  if constexpr (Quads) AccumulateQuads<ZmmQuads, R, V>(a, off, acc);
  else
#endif
    Accumulate<Zmm, R, V, SW>(a, off, acc);
  // v = fma(sum, scale, bias)
#pragma GCC unroll 4
  for (int j = 0; j < V; ++j) {
    const __m512 s = _mm512_loadu_ps(a.scale + 16 * j), b = _mm512_loadu_ps(a.bias + 16 * j);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r][j] = _mm512_fmadd_ps(acc[r][j], s, b);
  }
  // The activation (int8_epilogue.h: Apply's formula; hard_swish by 1 / beta).
  int8_epilogue::Activate(&acc[0][0], R * V, a.act);
  const __mmask16 tail = a.tail;
  const int64_t ldo = a.ldo;
  if (a.out == DepthwiseInt8Nhwc::Out::kFloat) {
    float* o = static_cast<float*>(out);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) {
        if (j == V - 1) _mm512_mask_storeu_ps(o + r * ldo + 16 * j, tail, acc[r][j]);
        else _mm512_storeu_ps(o + r * ldo + 16 * j, acc[r][j]);
      }
    return;
  }
  // Levels: x * factor, clipped, rounded to nearest even; [0, 127] for u8
  // gives the same bytes through the signed saturating pack.
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  int8_t* o = static_cast<int8_t*>(out);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) {
      const __m128i b = int8_epilogue::ToLevels(acc[r][j], clip);
      if (j == V - 1) _mm_mask_storeu_epi8(o + r * ldo + 16 * j, tail, b);
      else _mm_storeu_si128(reinterpret_cast<__m128i*>(o + r * ldo + 16 * j), b);
    }
}

// The same for c <= 8 with 8-lane sums: pixels 2i and 2i + 1 share one zmm
// (lanes 0-7, 8-15) for the epilogue, which stays the 16-lane code.
template <int R, int SW, bool Quads>
void HalfTile(const TileArgs& a, int64_t off, void* out) {
  constexpr int kPairs = (R + 1) / 2;
  __m256 acc[R][1];
#ifdef LITE_DW_QUADS
  if constexpr (Quads) AccumulateQuads<YmmQuads, R, 1>(a, off, acc);
  else
#endif
    Accumulate<Ymm, R, 1, SW>(a, off, acc);
  __m512 v[kPairs];
  const __m512 s = _mm512_broadcast_f32x8(_mm256_loadu_ps(a.scale));
  const __m512 b = _mm512_broadcast_f32x8(_mm256_loadu_ps(a.bias));
#pragma GCC unroll 8
  for (int i = 0; i < kPairs; ++i) {
    const __m256 high = 2 * i + 1 < R ? acc[2 * i + 1][0] : _mm256_setzero_ps();
    v[i] = _mm512_fmadd_ps(_mm512_insertf32x8(_mm512_castps256_ps512(acc[2 * i][0]), high, 1),
                           s, b);
  }
  int8_epilogue::Activate(v, kPairs, a.act);
  const __mmask8 tail = static_cast<__mmask8>(a.tail);
  const int64_t ldo = a.ldo;
  if (a.out == DepthwiseInt8Nhwc::Out::kFloat) {
    float* o = static_cast<float*>(out);
#pragma GCC unroll 8
    for (int i = 0; i < kPairs; ++i) {
      _mm256_mask_storeu_ps(o + 2 * i * ldo, tail, _mm512_castps512_ps256(v[i]));
      if (2 * i + 1 < R)
        _mm256_mask_storeu_ps(o + (2 * i + 1) * ldo, tail, _mm512_extractf32x8_ps(v[i], 1));
    }
    return;
  }
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  int8_t* o = static_cast<int8_t*>(out);
#pragma GCC unroll 8
  for (int i = 0; i < kPairs; ++i) {
    const __m128i q = int8_epilogue::ToLevels(v[i], clip);
    _mm_mask_storeu_epi8(o + 2 * i * ldo, tail, q);
    if (2 * i + 1 < R) _mm_mask_storeu_epi8(o + (2 * i + 1) * ldo, tail, _mm_srli_si128(q, 8));
  }
}

}  // namespace

// kTiles[SW][V][R - 1] = Tile<R, V, SW> for R = 1 .. kRows[V], SW 0 (any), 1, 2;
// kQuadTiles[V][R - 1] the quad form's (its pixel step is always one quad).
template <int V, int SW, bool Quads, int... R>
constexpr TileRowFns TileRow(std::integer_sequence<int, R...>) {
  return {&Tile<R + 1, V, SW, Quads>...};
}
template <int SW, bool Quads = false>
constexpr std::array<TileRowFns, 5> TileTable() {
  constexpr const int* rows = Quads ? kQuadRows : kRows;
  return {TileRowFns{}, TileRow<1, SW, Quads>(std::make_integer_sequence<int, rows[1]>()),
          TileRow<2, SW, Quads>(std::make_integer_sequence<int, rows[2]>()),
          TileRow<3, SW, Quads>(std::make_integer_sequence<int, rows[3]>()),
          TileRow<4, SW, Quads>(std::make_integer_sequence<int, rows[4]>())};
}
const std::array<TileRowFns, 5> kTiles[3] = {TileTable<0>(), TileTable<1>(), TileTable<2>()};
const std::array<TileRowFns, 5> kQuadTiles = TileTable<0, true>();

// kHalfTiles[SW][R - 1] = HalfTile<R, SW>; kQuadHalfTiles the quad form's.
template <int SW, bool Quads, int... R>
constexpr TileRowFns HalfTileRow(std::integer_sequence<int, R...>) {
  return {&HalfTile<R + 1, SW, Quads>...};
}
const TileRowFns kHalfTiles[3] = {
    HalfTileRow<0, false>(std::make_integer_sequence<int, kHalfRows>()),
    HalfTileRow<1, false>(std::make_integer_sequence<int, kHalfRows>()),
    HalfTileRow<2, false>(std::make_integer_sequence<int, kHalfRows>())};
const TileRowFns kQuadHalfTiles =
    HalfTileRow<0, true>(std::make_integer_sequence<int, kQuadHalfRows>());

#endif  // LITE_X86_INT8_EPILOGUE_AVX512

}  // namespace dw_int8
}  // namespace x86
}  // namespace lite
