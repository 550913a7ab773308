#include "lite/backends/x86/depthwise_int8_nhwc.h"

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/backends/x86/omp_ranges.h"

// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps(), which
// it defines from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

// The quad form needs AVX512-VNNI (vpdpbusd) and AVX512-VBMI (vpermb).
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
#define LITE_DW_QUADS 1
#endif

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;

namespace {
bool QuadsAvailable() {
#ifdef LITE_DW_QUADS
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vnni") &&
         __builtin_cpu_supports("avx512vbmi");
#else
  return false;
#endif
}

// Channels per block: converted rows and the filter are [block][...][width]
// with blocks of 64 channels and a last block of the rest rounded up to the
// vector lanes (BlockWidth), so few channels fill the columns they use.
constexpr int64_t kBlock = 64;

// Lanes of the vectors the sums use: 8 (ymm) for c <= 8, else 16 (zmm). On
// AMD Zen 4 a 512-bit FMA is two 256-bit ones, so 8 channels cost half in a
// ymm of what they cost in half the lanes of a zmm.
int64_t Lanes(int64_t c) { return c <= 8 ? 8 : 16; }

// Channels of the block starting at c0 as stored (cp: c rounded up to lanes).
int64_t BlockWidth(int64_t c0, int64_t cp) { return std::min(kBlock, cp - c0); }
}  // namespace

bool DepthwiseInt8Nhwc::Supports(const Act& act) { return int8_epilogue::Supports(act); }

bool DepthwiseInt8Nhwc::ExactSums(int kh, int kw, Levels in) {
  // |product| <= 2^14 (s8 x s8) or < 2^15 (u8 x s8); sums stay <= 2^24.
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  return kh >= 1 && kw >= 1 && taps <= (in == Levels::kS8 ? 1024 : 512);
}

void DepthwiseInt8Nhwc::SetFilter(const int8_t* filter, int64_t c, int kh, int kw) {
  c_ = c;
  cp_ = (c + Lanes(c) - 1) / Lanes(c) * Lanes(c);
  kh_ = kh;
  kw_ = kw;
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  w_.assign(taps * cp_, 0.f);
  for (int64_t ch = 0; ch < c; ++ch) {
    const int64_t c0 = ch / kBlock * kBlock, bw = BlockWidth(c0, cp_);
    for (int64_t t = 0; t < taps; ++t) w_[c0 * taps + t * bw + ch - c0] = filter[ch * taps + t];
  }
  // The quad form: [block][kh][groups][bw][4], and 128 * the row sums.
  groups_ = (kw + 3) / 4;
  wq_.assign(static_cast<int64_t>(kh) * groups_ * 4 * cp_, 0);
  row_sums_.assign(kh * cp_, 0);
  for (int64_t ch = 0; ch < c; ++ch) {
    const int64_t c0 = ch / kBlock * kBlock, bw = BlockWidth(c0, cp_);
    int8_t* block = wq_.data() + c0 * kh * groups_ * 4;
    for (int ky = 0; ky < kh; ++ky)
      for (int kx = 0; kx < kw; ++kx) {
        const int8_t w = filter[(ch * kh + ky) * kw + kx];
        block[((ky * groups_ + kx / 4) * bw + ch - c0) * 4 + kx % 4] = w;
        row_sums_[ky * cp_ + ch] += 128 * w;
      }
  }
}

bool DepthwiseInt8Nhwc::UsesQuads(const Geometry& g) const {
  // At most 8 channels at stride_h > 1 the float form converting two
  // pixels per vector is as fast or faster (a quad row is then built for
  // few taps).
  const bool narrow_strided = g.c <= 8 && g.stride_h > 1;
  return !force_float_ && QuadsAvailable() && g.dilation_w == 1 &&
         (g.stride_w == 1 || g.stride_w == 2) && !narrow_strided;
}

void DepthwiseInt8Nhwc::SetEpilogue(const float* scale, const float* bias, const Act& act,
                                    Out out, float out_factor, int out_round_type) {
  ep_.Set(scale, bias, c_, cp_, act, out, out_factor, out_round_type);
}

#ifdef LITE_X86_INT8_EPILOGUE_AVX512  // AVX-512 F / BW / VL / DQ

bool DepthwiseInt8Nhwc::Available() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

namespace {

// Tile pixels for V vectors of 16 channels (R x V accumulators + V filter
// vectors in the 32 registers).
constexpr int kRows[5] = {0, 12, 12, 8, 6};
// Tile pixels of the 8-lane (ymm) form for c <= 8.
constexpr int kHalfRows = 16;
// The quad form's: about 16 int32 sums. Bigger tiles made GCC keep the
// sums on the stack (a load and a store around each vpdpbusd); with the
// sums tied to their registers (DotAdd) no tile spills, and 24 sums as
// above (16, 12, 8, 6 rows) are still slower on det's depthwise convs.
constexpr int kQuadRows[5] = {0, 16, 8, 5, 5};
constexpr int kQuadHalfRows = 16;

using int8_epilogue::TailMask;

// One channel block of one output row.
struct TileArgs {
  const float* const* rows;   // the block's converted input rows of the valid taps
  const float* const* wrows;  // the block's filter at (ky, kx = 0) of those taps
  int nrows;
  int kw;
  int64_t xstep;  // stride_w * block width: next output pixel's first column
  int64_t kstep;  // dilation_w * block width: next tap's column
  const float* scale;
  const float* bias;
  __mmask16 tail;  // valid lanes of the last vector
  Act act;
  DepthwiseInt8Nhwc::Out out;
  float factor, lo, hi;
  int64_t ldo;  // output values per pixel (c)
  // The quad form: rows and wrows as quads (bytes), quad groups per kernel
  // row, bytes from one group's quads to the next, the sums' start values.
  const uint8_t* const* qrows = nullptr;
  const int8_t* const* qwrows = nullptr;
  int groups = 0;
  int64_t gstep = 0;
  const int32_t* start = nullptr;
};

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

using TileFn = void (*)(const TileArgs&, int64_t, void*);
using TileRowFns = std::array<TileFn, 16>;  // [R - 1]

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

// tile(first pixel, pixels) over the ow pixels of a row in tiles of at most
// rmax pixels, as even as they can be (20 pixels: 4 x 5, not 3 x 6 + 2).
template <typename Tile>
void EvenTiles(int64_t ow, int rmax, const Tile& tile) {
  const int64_t tiles = (ow + rmax - 1) / rmax;
  const int64_t base = ow / tiles, extra = ow % tiles;
  for (int64_t i = 0, ox = 0; i < tiles; ++i) {
    const int64_t n = base + (i < extra);
    tile(ox, n);
    ox += n;
  }
}

// A channel block of a run: its first channel, its tiles by pixel count - 1
// and the most pixels a tile takes.
struct ChannelBlock {
  int64_t c0;
  const TileRowFns* tiles;
  int rmax;
};

// The blocks of c channels (cp: rounded up to the lanes), with the float
// form's tiles for stride index sw_index or the quad form's.
std::vector<ChannelBlock> ChannelBlocks(int64_t c, int64_t cp, bool quads, int sw_index) {
  std::vector<ChannelBlock> blocks;
  for (int64_t c0 = 0; c0 < c; c0 += kBlock) {
    const int64_t bw = BlockWidth(c0, cp);
    if (bw < 16) {
      blocks.push_back(quads ? ChannelBlock{c0, &kQuadHalfTiles, kQuadHalfRows}
                             : ChannelBlock{c0, &kHalfTiles[sw_index], kHalfRows});
    } else {
      blocks.push_back(quads ? ChannelBlock{c0, &kQuadTiles[bw / 16], kQuadRows[bw / 16]}
                             : ChannelBlock{c0, &kTiles[sw_index][bw / 16], kRows[bw / 16]});
    }
  }
  return blocks;
}

#ifdef LITE_DW_QUADS
// One input row (w pixels of c levels) as quads, per channel block of width
// bw ([block][nq][bw][4] bytes): quad i of channel ch holds the row's padded
// columns s * i .. s * i + 3 (pad_left zero-level columns first, zero-level
// columns past the row) as u8 (s8 levels + 128). scratch: cp * (cols + 8)
// bytes, cols = s * (nq - 1) + 4, for the row's padded columns per 16 (8)
// channels, [sub-vector][column][lanes] (raw levels, padding 0), from which
// 4 columns of 16 (8) channels are one load.
struct QuadOrder {
  // Quad byte 4 * ch + k = padded column k of channel ch: byte lanes * k +
  // ch of the 4 columns. With 8 lanes a zmm holds quads i and i + 1, whose
  // columns start s apart: byte 32 * h + 4 * ch + k from 8 * (s * h + k) + ch.
  __m512i idx16, idx8;
  explicit QuadOrder(int s) {
    alignas(64) uint8_t to_quads16[64], to_quads8[64];
    for (int ch = 0; ch < 16; ++ch)
      for (int k = 0; k < 4; ++k) {
        to_quads16[4 * ch + k] = static_cast<uint8_t>(16 * k + ch);
        if (ch < 8)
          for (int h = 0; h < 2; ++h)
            to_quads8[32 * h + 4 * ch + k] = static_cast<uint8_t>(8 * (s * h + k) + ch);
      }
    idx16 = _mm512_load_si512(to_quads16);
    idx8 = _mm512_load_si512(to_quads8);
  }
};

void QuadRow(const int8_t* src, int64_t w, int64_t c, int64_t cp, int64_t pad_left, int64_t nq,
             int s, const QuadOrder& order, bool u8, uint8_t* scratch, uint8_t* dst) {
  const int64_t cols = s * (nq - 1) + 4;
  const __m512i flip = _mm512_set1_epi8(u8 ? 0 : static_cast<char>(0x80));
  const __m512i idx16 = order.idx16, idx8 = order.idx8;
  const int64_t first = std::min(pad_left, cols);
  const int64_t inside = std::max<int64_t>(0, std::min(w, cols - pad_left));
  // The padded columns of every block first, then the quads: a 64-byte load
  // right after the 16-byte stores it spans stalls (no store forwarding).
  uint8_t* pad = scratch;
  for (int64_t c0 = 0; c0 < cp; c0 += kBlock) {
    const int64_t bw = BlockWidth(c0, cp);
    const int64_t lanes = bw < 16 ? 8 : 16, subs = bw / lanes;
    for (int64_t j = 0; j < subs; ++j, pad += (cols + 8) * lanes) {
      std::memset(pad, 0, first * lanes);
      std::memset(pad + (first + inside) * lanes, 0, (cols + 8 - first - inside) * lanes);
      if (subs == 1 && c == lanes) {
        // The pixels are exactly the vector's lanes: the row as it is.
        std::memcpy(pad + first * lanes, src, inside * lanes);
        continue;
      }
      const __mmask16 valid = TailMask(std::min(lanes, c - c0 - lanes * j));
      const int8_t* s0 = src + c0 + lanes * j;
      for (int64_t x = 0; x < inside; ++x) {
        const __m128i v = _mm_maskz_loadu_epi8(valid, s0 + x * c);
        if (lanes == 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(pad + (first + x) * 16), v);
        else _mm_storel_epi64(reinterpret_cast<__m128i*>(pad + (first + x) * 8), v);
      }
    }
  }
  pad = scratch;
  for (int64_t c0 = 0; c0 < cp; c0 += kBlock) {
    const int64_t bw = BlockWidth(c0, cp);
    const int64_t lanes = bw < 16 ? 8 : 16, subs = bw / lanes;
    for (int64_t j = 0; j < subs; ++j, pad += (cols + 8) * lanes) {
      uint8_t* q = dst + lanes * j * 4;
      if (lanes == 16) {
        for (int64_t i = 0; i < nq; ++i, q += bw * 4) {
          const __m512i v = _mm512_loadu_si512(pad + s * i * 16);
          _mm512_storeu_si512(q, _mm512_xor_si512(_mm512_permutexvar_epi8(idx16, v), flip));
        }
      } else {
        // Two quads (64 bytes) per load of 8 columns; the 8 spare columns
        // keep the last load inside the scratch.
        for (int64_t i = 0; i < nq; i += 2, q += 64) {
          const __m512i v = _mm512_loadu_si512(pad + s * i * 8);
          const __m512i quads = _mm512_xor_si512(_mm512_permutexvar_epi8(idx8, v), flip);
          if (i + 1 < nq) _mm512_storeu_si512(q, quads);
          else _mm256_storeu_si256(reinterpret_cast<__m256i*>(q), _mm512_castsi512_si256(quads));
        }
      }
    }
    dst += nq * bw * 4;
  }
}
#endif

// One pixel's `bw` channels (a multiple of 16, or 8) of levels to floats;
// lanes from `valid` on are zeros.
__attribute__((always_inline)) inline void ConvertPixel(const int8_t* s, int64_t bw,
                                                        int64_t valid, bool u8, float* d) {
  int64_t j = 0;
  for (; j + 16 <= bw; j += 16) {
    const __m128i b = _mm_maskz_loadu_epi8(TailMask(valid - j), s + j);
    const __m512i i = u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
    _mm512_storeu_ps(d + j, _mm512_cvtepi32_ps(i));
  }
  if (j < bw) {  // the 8-lane block of c <= 8
    const __m128i b = _mm_maskz_loadu_epi8(TailMask(valid - j), s + j);
    const __m256i i = u8 ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
    _mm256_storeu_ps(d + j, _mm256_cvtepi32_ps(i));
  }
}

// n consecutive levels to floats, 16 at a time.
void ConvertRun(const int8_t* s, int64_t n, bool u8, float* d) {
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = TailMask(n - i);
    const __m128i b = _mm_maskz_loadu_epi8(m, s + i);
    const __m512i v = u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
    _mm512_mask_storeu_ps(d + i, m, _mm512_cvtepi32_ps(v));
  }
}

// One input row of levels (c per pixel) to floats, [block][width][block
// width]: pad_left zero columns, the row, zero columns up to `width`;
// channels c .. cp are zeros.
void ConvertRow(const int8_t* src, int64_t w, int64_t c, int64_t cp, int64_t pad_left,
                int64_t width, bool u8, float* dst) {
  const int64_t first = std::min(pad_left, width);
  const int64_t cols = std::max<int64_t>(0, std::min(w, width - pad_left));
  for (int64_t c0 = 0; c0 < cp; c0 += kBlock) {
    const int64_t bw = BlockWidth(c0, cp);
    std::fill(dst, dst + first * bw, 0.f);
    std::fill(dst + (first + cols) * bw, dst + width * bw, 0.f);
    const int8_t* s = src + c0;
    float* d = dst + first * bw;
    if (bw == c) {
      // One block as wide as the pixels (c = 8, 16, .., 64): the row's
      // levels in order, converted 16 at a time rather than per pixel (c = 8:
      // two pixels a vector; converting per pixel dominated the 8-channel
      // time).
      ConvertRun(s, cols * c, u8, d);
    } else {
      for (int64_t x = 0; x < cols; ++x, s += c, d += bw) ConvertPixel(s, bw, c - c0, u8, d);
    }
    dst += width * bw;
  }
}

}  // namespace

void DepthwiseInt8Nhwc::Run(const Geometry& g, const void* in, Levels in_type, void* out,
                            int threads) const {
  const int64_t c = c_, cp = cp_;
  const int kh = kh_, kw = kw_;
  const int64_t span = static_cast<int64_t>(kh - 1) * g.dilation_h + 1;  // rows a window spans
  const int64_t width = (g.ow - 1) * g.stride_w + static_cast<int64_t>(kw - 1) * g.dilation_w + 1;
  const int64_t rows_total = g.n * g.oh;
  if (rows_total <= 0 || g.ow <= 0) return;
  const int64_t out_bytes = ep_.out == Out::kFloat ? 4 : 1;
  const bool u8 = in_type == Levels::kU8;
  if (UsesQuads(g)) {
    RunQuads(g, static_cast<const int8_t*>(in), u8, static_cast<char*>(out), threads);
    return;
  }
  const int sw_index = g.stride_w == 1 ? 1 : g.stride_w == 2 ? 2 : 0;
  const std::vector<ChannelBlock> blocks = ChannelBlocks(c, cp, false, sw_index);
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  const int8_t* src = static_cast<const int8_t*>(in);
  char* dst = static_cast<char*>(out);
  const int64_t work = rows_total * g.ow * cp * kh * kw;

  auto run_rows = [&](int64_t r0, int64_t r1) {
    thread_local std::vector<float> ring_store;
    const int64_t row_floats = width * cp;
    if (static_cast<int64_t>(ring_store.size()) < span * row_floats + 16)
      ring_store.resize(span * row_floats + 16);
    float* ring = ring_store.data();
    ring += (64 - reinterpret_cast<uintptr_t>(ring) % 64) % 64 / sizeof(float);
    std::vector<int64_t> held(span, -1);  // which input row (n * h + iy) a slot holds
    std::vector<const float*> rows(kh);
    std::vector<int> kys(kh);
    std::vector<const float*> brows(kh), bwrows(kh);
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / g.oh, oy = row % g.oh;
      int nrows = 0;
      for (int ky = 0; ky < kh; ++ky) {
        const int64_t iy = oy * g.stride_h - g.pad_top + static_cast<int64_t>(ky) * g.dilation_h;
        if (iy < 0 || iy >= g.h) continue;
        const int64_t key = b * g.h + iy, slot = iy % span;
        float* buf = ring + slot * row_floats;
        if (held[slot] != key) {
          ConvertRow(src + key * g.w * c, g.w, c, cp, g.pad_left, width, u8, buf);
          held[slot] = key;
        }
        rows[nrows] = buf;
        kys[nrows] = ky;
        ++nrows;
      }
      char* orow = dst + row * g.ow * c * out_bytes;
      for (const ChannelBlock& blk : blocks) {
        const int64_t c0 = blk.c0, bw = BlockWidth(c0, cp);
        for (int t = 0; t < nrows; ++t) {
          brows[t] = rows[t] + c0 * width;
          bwrows[t] = w_.data() + c0 * taps + static_cast<int64_t>(kys[t]) * kw * bw;
        }
        const int64_t last = bw < 16 ? 0 : bw - 16;  // first channel of the last vector
        const TileArgs a = {brows.data(), bwrows.data(), nrows, kw, g.stride_w * bw,
                            g.dilation_w * bw, ep_.scale.data() + c0, ep_.bias.data() + c0,
                            TailMask(c - (c0 + last)), ep_.act, ep_.out, ep_.factor, ep_.lo,
                            ep_.hi, c};
        EvenTiles(g.ow, blk.rmax, [&](int64_t ox, int64_t n) {
          (*blk.tiles)[n - 1](a, ox * g.stride_w * bw, orow + (ox * c + c0) * out_bytes);
        });
      }
    }
  };
  OmpForRanges(threads, rows_total, work, run_rows);
}

void DepthwiseInt8Nhwc::RunQuads(const Geometry& g, const int8_t* src, bool u8, char* dst,
                                 int threads) const {
#ifdef LITE_DW_QUADS
  const int64_t c = c_, cp = cp_;
  const int kh = kh_, groups = groups_, s = g.stride_w;
  const int64_t span = static_cast<int64_t>(kh - 1) * g.dilation_h + 1;
  // Quads per row: one per output pixel, and the last pixel's further
  // groups 4 columns (4 / s quads) on.
  const int64_t step = 4 / s, nq = g.ow + (groups - 1) * step;
  const int64_t cols = s * (nq - 1) + 4;
  const int64_t rows_total = g.n * g.oh;
  const int64_t out_bytes = ep_.out == Out::kFloat ? 4 : 1;
  const std::vector<ChannelBlock> blocks = ChannelBlocks(c, cp, true, 0);
  const int64_t work = rows_total * g.ow * cp * kh * kw_;
  const QuadOrder order(s);

  auto run_rows = [&](int64_t r0, int64_t r1) {
    thread_local std::vector<uint8_t> ring_store, scratch;
    const int64_t row_bytes = nq * cp * 4;
    if (static_cast<int64_t>(ring_store.size()) < span * row_bytes + 64)
      ring_store.resize(span * row_bytes + 64);
    if (static_cast<int64_t>(scratch.size()) < cp * (cols + 8)) scratch.resize(cp * (cols + 8));
    uint8_t* ring = ring_store.data();
    ring += (64 - reinterpret_cast<uintptr_t>(ring) % 64) % 64;
    std::vector<int64_t> held(span, -1);  // which input row (n * h + iy) a slot holds
    std::vector<const uint8_t*> rows(kh), brows(kh);
    std::vector<const int8_t*> bwrows(kh);
    std::vector<int> kys(kh);
    std::vector<int32_t> start(cp);
    // The kernel rows inside the input are a run kys[0] .. kys[0] + nrows - 1;
    // `start` was summed for the run (start_first, start_rows).
    int start_first = -1, start_rows = -1;
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / g.oh, oy = row % g.oh;
      int nrows = 0;
      for (int ky = 0; ky < kh; ++ky) {
        const int64_t iy = oy * g.stride_h - g.pad_top + static_cast<int64_t>(ky) * g.dilation_h;
        if (iy < 0 || iy >= g.h) continue;
        const int64_t key = b * g.h + iy, slot = iy % span;
        uint8_t* buf = ring + slot * row_bytes;
        if (held[slot] != key) {
          QuadRow(src + key * g.w * c, g.w, c, cp, g.pad_left, nq, s, order, u8, scratch.data(),
                  buf);
          held[slot] = key;
        }
        rows[nrows] = buf;
        kys[nrows] = ky;
        ++nrows;
      }
      // s8 levels were summed + 128: the sums start at minus 128 * the
      // weights of the rows inside the input (the same for most rows).
      const int first_ky = nrows > 0 ? kys[0] : 0;
      if (!u8 && (first_ky != start_first || nrows != start_rows)) {
        std::fill(start.begin(), start.end(), 0);
        int32_t* st = start.data();
        for (int t = 0; t < nrows; ++t) {
          const int32_t* sums = row_sums_.data() + kys[t] * cp;
#pragma omp simd
          for (int64_t ch = 0; ch < cp; ++ch) st[ch] -= sums[ch];
        }
        start_first = first_ky;
        start_rows = nrows;
      }
      char* orow = dst + row * g.ow * c * out_bytes;
      for (const ChannelBlock& blk : blocks) {
        const int64_t c0 = blk.c0, bw = BlockWidth(c0, cp);
        for (int t = 0; t < nrows; ++t) {
          brows[t] = rows[t] + c0 * nq * 4;
          bwrows[t] = wq_.data() + (c0 * kh + static_cast<int64_t>(kys[t]) * bw) * groups * 4;
        }
        const int64_t last = bw < 16 ? 0 : bw - 16;  // first channel of the last vector
        TileArgs a = {nullptr, nullptr, nrows, kw_, 0, 0, ep_.scale.data() + c0,
                      ep_.bias.data() + c0, TailMask(c - (c0 + last)), ep_.act, ep_.out,
                      ep_.factor, ep_.lo, ep_.hi, c};
        a.qrows = brows.data();
        a.qwrows = bwrows.data();
        a.groups = groups;
        a.gstep = step * bw * 4;
        a.start = start.data() + c0;
        EvenTiles(g.ow, blk.rmax, [&](int64_t ox, int64_t n) {
          (*blk.tiles)[n - 1](a, ox * bw * 4, orow + (ox * c + c0) * out_bytes);
        });
      }
    }
  };
  OmpForRanges(threads, rows_total, work, run_rows);
#else
  (void)g, (void)src, (void)u8, (void)dst, (void)threads;
#endif
}

#else  // no AVX-512 BW / VL / DQ in this build

bool DepthwiseInt8Nhwc::Available() { return false; }

void DepthwiseInt8Nhwc::Run(const Geometry&, const void*, Levels, void*, int) const {}
void DepthwiseInt8Nhwc::RunQuads(const Geometry&, const int8_t*, bool, char*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
