#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/backends/x86/depthwise_int8_tiles.h"

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


namespace lite {
namespace x86 {

using Act = operators::FusedActivation;
using dw_int8::Lanes;

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

using int8_epilogue::TailMask;
using namespace dw_int8;  // NOLINT: the tiles and their tables

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
