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
#include <utility>

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;

namespace {
// Channels per block: converted rows and the filter are [block][...][64].
constexpr int64_t kBlock = 64;
}  // namespace

bool DepthwiseInt8Nhwc::Supports(const Act& act) { return int8_epilogue::Supports(act); }

bool DepthwiseInt8Nhwc::ExactSums(int kh, int kw, Levels in) {
  // |product| <= 2^14 (s8 x s8) or < 2^15 (u8 x s8); sums stay <= 2^24.
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  return kh >= 1 && kw >= 1 && taps <= (in == Levels::kS8 ? 1024 : 512);
}

void DepthwiseInt8Nhwc::SetFilter(const int8_t* filter, int64_t c, int kh, int kw) {
  c_ = c;
  cp_ = (c + 63) / 64 * 64;
  kh_ = kh;
  kw_ = kw;
  const int64_t taps = static_cast<int64_t>(kh) * kw;
  w_.assign(taps * cp_, 0.f);
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t t = 0; t < taps; ++t)
      w_[((ch / kBlock) * taps + t) * kBlock + ch % kBlock] = filter[ch * taps + t];
}

void DepthwiseInt8Nhwc::SetEpilogue(const float* scale, const float* bias, const Act& act,
                                    Out out, float out_factor, int out_round_type) {
  scale_.assign(cp_, 0.f);
  bias_.assign(cp_, 0.f);
  std::copy(scale, scale + c_, scale_.begin());
  if (bias) std::copy(bias, bias + c_, bias_.begin());
  act_ = act;
  out_ = out;
  factor_ = out_factor;
  int8_epilogue::LevelRange(out == Out::kU8, out_round_type, &lo_, &hi_);
}

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)

bool DepthwiseInt8Nhwc::Available() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}

namespace {

// Tile pixels for V vectors of 16 channels (R x V accumulators + V filter
// vectors in the 32 registers).
constexpr int kRows[5] = {0, 12, 12, 8, 6};

using int8_epilogue::TailMask;

// One channel block of one output row.
struct TileArgs {
  const float* const* rows;   // the block's converted input rows of the valid taps
  const float* const* wrows;  // the block's filter at (ky, kx = 0) of those taps
  int nrows;
  int kw;
  int64_t xstep;  // stride_w * 64: next output pixel's first column
  int64_t kstep;  // dilation_w * 64: next tap's column
  const float* scale;
  const float* bias;
  __mmask16 tail;  // valid lanes of the last vector
  Act act;
  DepthwiseInt8Nhwc::Out out;
  float factor, lo, hi;
  int64_t ldo;  // output values per pixel (c)
};

// out[R pixels x 16V channels] for the pixels starting at column offset
// `off` of the converted rows; out points at the first pixel's channel.
// SW: the stride in columns, or 0 for any (a.xstep); with it known, every
// load of a tap is an immediate offset from one pointer.
template <int R, int V, int SW>
void Tile(const TileArgs& a, int64_t off, void* out) {
  __m512 acc[R][V];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) acc[r][j] = _mm512_setzero_ps();
  const int64_t xstep = SW ? SW * kBlock : a.xstep, kstep = a.kstep;
  for (int t = 0; t < a.nrows; ++t) {
    const float* row = a.rows[t] + off;
    const float* w = a.wrows[t];
    for (int kx = 0; kx < a.kw; ++kx, row += kstep, w += kBlock) {
      __m512 wv[V];
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) wv[j] = _mm512_loadu_ps(w + 16 * j);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < V; ++j)
          acc[r][j] = _mm512_fmadd_ps(_mm512_loadu_ps(row + r * xstep + 16 * j), wv[j], acc[r][j]);
    }
  }
  // v = fma(sum, scale, bias)
#pragma GCC unroll 4
  for (int j = 0; j < V; ++j) {
    const __m512 s = _mm512_loadu_ps(a.scale + 16 * j), b = _mm512_loadu_ps(a.bias + 16 * j);
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r][j] = _mm512_fmadd_ps(acc[r][j], s, b);
  }
  // The activation, FusedActivation::Apply's formula.
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
  const __m512 f = _mm512_set1_ps(a.factor), lo = _mm512_set1_ps(a.lo), hi = _mm512_set1_ps(a.hi);
  int8_t* o = static_cast<int8_t*>(out);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) {
      const __m128i b = int8_epilogue::ToLevels(acc[r][j], f, lo, hi);
      if (j == V - 1) _mm_mask_storeu_epi8(o + r * ldo + 16 * j, tail, b);
      else _mm_storeu_si128(reinterpret_cast<__m128i*>(o + r * ldo + 16 * j), b);
    }
}

using TileFn = void (*)(const TileArgs&, int64_t, void*);

// kTiles[SW][V][R - 1] = Tile<R, V, SW> for R = 1 .. kRows[V], SW 0 (any), 1, 2.
template <int V, int SW, int... R>
constexpr std::array<TileFn, 12> TileRow(std::integer_sequence<int, R...>) {
  return {&Tile<R + 1, V, SW>...};
}
template <int SW>
constexpr std::array<std::array<TileFn, 12>, 5> TileTable() {
  return {std::array<TileFn, 12>{},
          TileRow<1, SW>(std::make_integer_sequence<int, kRows[1]>()),
          TileRow<2, SW>(std::make_integer_sequence<int, kRows[2]>()),
          TileRow<3, SW>(std::make_integer_sequence<int, kRows[3]>()),
          TileRow<4, SW>(std::make_integer_sequence<int, kRows[4]>())};
}
const std::array<std::array<TileFn, 12>, 5> kTiles[3] = {TileTable<0>(), TileTable<1>(),
                                                         TileTable<2>()};

// One input row of levels (c per pixel) to floats, [block][width][64]:
// pad_left zero columns, the row, zero columns up to `width`; channels
// c .. cp are zeros.
void ConvertRow(const int8_t* src, int64_t w, int64_t c, int64_t cp, int64_t pad_left,
                int64_t width, bool u8, float* dst) {
  const int64_t first = std::min(pad_left, width);
  const int64_t cols = std::max<int64_t>(0, std::min(w, width - pad_left));
  for (int64_t c0 = 0; c0 < cp; c0 += kBlock, dst += width * kBlock) {
    std::fill(dst, dst + first * kBlock, 0.f);
    std::fill(dst + (first + cols) * kBlock, dst + width * kBlock, 0.f);
    const int8_t* s = src + c0;
    float* d = dst + first * kBlock;
    const int64_t vectors = std::min<int64_t>(kBlock, (c - c0 + 15) / 16 * 16);
    for (int64_t x = 0; x < cols; ++x, s += c, d += kBlock) {
      for (int64_t j = 0; j < vectors; j += 16) {
        const __m128i b = _mm_maskz_loadu_epi8(TailMask(c - c0 - j), s + j);
        const __m512i i = u8 ? _mm512_cvtepu8_epi32(b) : _mm512_cvtepi8_epi32(b);
        _mm512_storeu_ps(d + j, _mm512_cvtepi32_ps(i));
      }
    }
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
  const int64_t out_bytes = out_ == Out::kFloat ? 4 : 1;
  const bool u8 = in_type == Levels::kU8;
  // Channel blocks of up to 4 vectors: (first channel, vectors).
  std::vector<std::pair<int64_t, int>> blocks;
  for (int64_t c0 = 0; c0 < c; c0 += kBlock)
    blocks.emplace_back(c0, static_cast<int>(std::min<int64_t>(kBlock, c - c0 + 15) / 16));
  const int sw_index = g.stride_w == 1 ? 1 : g.stride_w == 2 ? 2 : 0;
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
    std::vector<const float*> rows(kh), wrows(kh);
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
        wrows[nrows] = w_.data() + static_cast<int64_t>(ky) * kw * kBlock;
        ++nrows;
      }
      char* orow = dst + row * g.ow * c * out_bytes;
      for (const auto& [c0, v] : blocks) {
        for (int t = 0; t < nrows; ++t) {
          brows[t] = rows[t] + c0 * width;
          bwrows[t] = wrows[t] + c0 * taps;
        }
        const TileArgs a = {brows.data(), bwrows.data(), nrows, kw, g.stride_w * kBlock,
                            g.dilation_w * kBlock, scale_.data() + c0, bias_.data() + c0,
                            TailMask(c - (c0 + 16 * (v - 1))), act_, out_, factor_, lo_, hi_, c};
        // Tiles as even as they can be (20 pixels: 4 x 5, not 3 x 6 + 2).
        const int rmax = kRows[v];
        const int64_t tiles = (g.ow + rmax - 1) / rmax;
        const int64_t base = g.ow / tiles, extra = g.ow % tiles;
        for (int64_t i = 0, ox = 0; i < tiles; ++i) {
          const int64_t n = base + (i < extra);
          kTiles[sw_index][v][n - 1](a, ox * g.stride_w * kBlock, orow + (ox * c + c0) * out_bytes);
          ox += n;
        }
      }
    }
  };
  OmpForRanges(threads, rows_total, work, run_rows);
}

#else  // no AVX-512 BW / VL in this build

bool DepthwiseInt8Nhwc::Available() { return false; }

void DepthwiseInt8Nhwc::Run(const Geometry&, const void*, Levels, void*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
