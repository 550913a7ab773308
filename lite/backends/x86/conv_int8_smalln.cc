#include "lite/backends/x86/conv_int8_smalln.h"

#include "lite/backends/x86/int8_epilogue.h"
#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/lanes16.h"

#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cstring>

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;

namespace {
// Accumulator counts compiled in; oc runs on the smallest one >= oc (the
// extra channels have zero filters and are not stored).
constexpr int kRegs[] = {1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 28};
}  // namespace

bool ConvInt8Smalln::Supports(const Act& act) { return int8_epilogue::Supports(act); }

void ConvInt8Smalln::SetFilter(const int8_t* filter, int64_t oc, int64_t ic, int kh, int kw) {
  oc_ = oc;
  ic_ = ic;
  quads_ = (ic + 3) / 4;
  kh_ = kh;
  kw_ = kw;
  m_ = 0;
  for (int r : kRegs)
    if (r >= oc) {
      m_ = r;
      break;
    }
  if (m_ == 0) m_ = kMaxRegs;  // the caller checks oc <= kMaxRegs
  const int64_t m = m_;
  w_.assign(kh * quads_ * kw * m, 0);
  comp_.assign(m, 0);
  for (int64_t o = 0; o < std::min<int64_t>(oc, m); ++o)
    for (int64_t c = 0; c < ic; ++c)
      for (int dy = 0; dy < kh; ++dy)
        for (int dx = 0; dx < kw; ++dx) {
          const int8_t v = filter[((o * ic + c) * kh + dy) * kw + dx];
          const int64_t q = c / 4, k = c % 4;
          uint32_t& word = reinterpret_cast<uint32_t&>(w_[((dy * quads_ + q) * kw + dx) * m + o]);
          word |= static_cast<uint32_t>(static_cast<uint8_t>(v)) << (8 * k);
          comp_[o] += 128 * v;
        }
}

void ConvInt8Smalln::SetEpilogue(const float* scale, const float* bias, const Act& act, Out out,
                                 float out_factor, int out_round_type) {
  ep_.Set(scale, bias, oc_, m_, act, out, out_factor, out_round_type);
}

#if defined(LITE_X86_INT8_EPILOGUE_AVX512) && defined(__AVX512VNNI__)

bool ConvInt8Smalln::Available() {
  return int8_epilogue::CpuHasAvx512Vnni();
}

namespace {

using int8_epilogue::TailMask;

struct BlockArgs {
  int64_t quad_step;  // bytes from one quad's columns to the next
  int64_t dx_step;    // bytes from one kernel column to the next
  int kh, kw, quads;
  const int32_t* w;     // [kh][quad][kw][M]
  const int32_t* comp;  // M values
  const float* scale;
  const float* bias;
  int64_t oc;
  Act act;
  ConvInt8Smalln::Out out;
  float factor, lo, hi;
};

// Output pixels x0 .. x0 + valid - 1 of one row: rows[dy] is the reordered
// input row of kernel row dy, off = 4 * x0; out points at pixel x0.
template <int M>
void Block(const BlockArgs& a, const uint8_t* const* rows, int64_t off, int valid, void* out) {
  __m512i acc[M];
#pragma GCC unroll 32
  for (int m = 0; m < M; ++m) acc[m] = _mm512_setzero_si512();
  const int32_t* w = a.w;
  for (int dy = 0; dy < a.kh; ++dy) {
    const uint8_t* rq = rows[dy] + off;
    for (int q = 0; q < a.quads; ++q, rq += a.quad_step) {
      const uint8_t* r = rq;
      for (int dx = 0; dx < a.kw; ++dx, r += a.dx_step, w += M) {
        const __m512i v = _mm512_loadu_si512(r);
#pragma GCC unroll 32
        for (int m = 0; m < M; ++m)
          int8_epilogue::DotAdd(acc[m], v, _mm512_set1_epi32(w[m]));
      }
    }
  }
  __m512 f[M];
#pragma GCC unroll 32
  for (int m = 0; m < M; ++m) {
    const __m512i s = _mm512_sub_epi32(acc[m], _mm512_set1_epi32(a.comp[m]));
    f[m] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), _mm512_set1_ps(a.scale[m]),
                           _mm512_set1_ps(a.bias[m]));
  }
  int8_epilogue::Activate(f, M, a.act);
  // [M][16] -> NHWC, transposed in registers (StorePixels).
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  const bool levels = a.out != ConvInt8Smalln::Out::kFloat;
  int8_epilogue::StorePixels<M>(f, levels ? &clip : nullptr, valid, a.oc, out);
}

using BlockFn = void (*)(const BlockArgs&, const uint8_t* const*, int64_t, int, void*);

BlockFn BlockFor(int m) {
  switch (m) {
    case 1: return &Block<1>;
    case 2: return &Block<2>;
    case 3: return &Block<3>;
    case 4: return &Block<4>;
    case 6: return &Block<6>;
    case 8: return &Block<8>;
    case 12: return &Block<12>;
    case 16: return &Block<16>;
    case 20: return &Block<20>;
    case 24: return &Block<24>;
    default: return &Block<28>;
  }
}

// Quads [q0, q0 + nq) (nq <= 16, all inside the pixel) of w pixels of ic
// levels into their [quad][wp][4]-byte rows at d (quad q0's row, past its
// left padding): per 16 pixels, each pixel's nq quads loaded as one vector
// and the 16 x 16 block of 32-bit quads transposed in registers (a gather
// per quad and 16 pixels is much slower).
void TransposeQuads(const int8_t* s, int64_t w, int64_t ic, int64_t q0, int64_t nq, int64_t wp,
                    __m512i flip, uint8_t* d) {
  const __mmask64 bytes = nq == 16 ? ~__mmask64{0} : (__mmask64{1} << (4 * nq)) - 1;
  for (int64_t x0 = 0; x0 < w; x0 += 16) {
    const int pixels = static_cast<int>(std::min<int64_t>(16, w - x0));
    __m512 r[16];
#pragma GCC unroll 16
    for (int j = 0; j < 16; ++j) {
      r[j] = j < pixels ? _mm512_castsi512_ps(_mm512_xor_si512(
                              _mm512_maskz_loadu_epi8(bytes, s + (x0 + j) * ic + 4 * q0), flip))
                        : _mm512_setzero_ps();
    }
    Transpose16(r);
    const __mmask16 k = TailMask(pixels);
    for (int64_t q = 0; q < nq; ++q) {
      _mm512_mask_storeu_ps(d + q * wp * 4 + x0 * 4, k, r[q]);
    }
  }
}

// One input row (w pixels of ic levels) into [quads][wp][4] bytes: pad_left
// columns of `pad`, the row (xor `flip`), `pad` up to wp; channels ic .. 4 *
// quads hold `pad`.
void ReorderRow(const int8_t* s, int64_t w, int64_t ic, int64_t quads, int64_t pad_left,
                int64_t wp, uint8_t pad, uint8_t flip, uint8_t* d) {
  const __m512i x = _mm512_set1_epi32(flip * 0x01010101);
  const int64_t whole = ic / 4;  // quads inside the pixel
  for (int64_t q0 = 0; q0 < whole; q0 += 16) {
    TransposeQuads(s, w, ic, q0, std::min<int64_t>(16, whole - q0), wp, x,
                   d + (q0 * wp + pad_left) * 4);
  }
  for (int64_t q = 0; q < quads; ++q, d += wp * 4) {
    std::memset(d, pad, pad_left * 4);
    std::memset(d + (pad_left + w) * 4, pad, (wp - pad_left - w) * 4);
    if (q < whole) continue;  // TransposeQuads wrote the row's columns
    // The last, partial quad, byte by byte.
    uint8_t* dq = d + pad_left * 4;
    for (int64_t px = 0; px < w; ++px)
      for (int64_t k = 0; k < 4; ++k) {
        const int64_t c = 4 * q + k;
        dq[px * 4 + k] = c < ic ? static_cast<uint8_t>(s[px * ic + c]) ^ flip : pad;
      }
  }
}

}  // namespace

void ConvInt8Smalln::Run(const Geometry& g, const void* in, Levels in_type, void* out,
                         int threads) const {
  const int64_t rows_total = g.n * g.oh;
  if (rows_total <= 0 || g.ow <= 0) return;
  const bool s8 = in_type == Levels::kS8;
  const uint8_t pad = s8 ? 128 : 0, flip = s8 ? 0x80 : 0;
  const int64_t quads = quads_, ic = ic_;
  const int64_t span_w = static_cast<int64_t>(kw_ - 1) * g.dilation_w;
  const int64_t wp = std::max(g.pad_left + g.w, (g.ow + 15) / 16 * 16 + span_w);
  const int64_t hp = std::max<int64_t>(
      g.pad_top + g.h, (g.oh - 1) * g.stride_h + static_cast<int64_t>(kh_ - 1) * g.dilation_h + 1);
  const int64_t row_bytes = quads * wp * 4;
  // Rows a window spans: a per-thread ring of that many reordered rows.
  const int64_t span = static_cast<int64_t>(kh_ - 1) * g.dilation_h + 1;
  const int8_t* src = static_cast<const int8_t*>(in);
  static const std::vector<int32_t> no_comp(kMaxRegs, 0);
  BlockArgs a;
  a.quad_step = wp * 4;
  a.dx_step = g.dilation_w * 4;
  a.kh = kh_;
  a.kw = kw_;
  a.quads = static_cast<int>(quads);
  a.w = w_.data();
  a.comp = s8 ? comp_.data() : no_comp.data();
  a.scale = ep_.scale.data();
  a.bias = ep_.bias.data();
  a.oc = oc_;
  a.act = ep_.act;
  a.out = ep_.out;
  a.factor = ep_.factor;
  a.lo = ep_.lo;
  a.hi = ep_.hi;
  const BlockFn block = BlockFor(m_);
  const int64_t out_bytes = ep_.out == Out::kFloat ? 4 : 1;
  char* dst = static_cast<char*>(out);
  const int64_t work = rows_total * g.ow * oc_ * ic * kh_ * kw_;
  OmpForRanges(threads, rows_total, work, [&](int64_t r0, int64_t r1) {
    thread_local std::vector<uint8_t> ring_store;
    const size_t need = static_cast<size_t>(span * row_bytes + 64);
    if (ring_store.size() < need) ring_store.resize(need);
    uint8_t* ring =
        ring_store.data() + (64 - reinterpret_cast<uintptr_t>(ring_store.data()) % 64) % 64;
    std::vector<int64_t> held(span, -1);  // which padded row (b * hp + row) a slot holds
    std::vector<const uint8_t*> rows(kh_);
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / g.oh, oy = row % g.oh;
      for (int dy = 0; dy < kh_; ++dy) {
        const int64_t pr = oy * g.stride_h + static_cast<int64_t>(dy) * g.dilation_h;
        const int64_t key = b * hp + pr, slot = pr % span;
        uint8_t* d = ring + slot * row_bytes;
        if (held[slot] != key) {
          const int64_t iy = pr - g.pad_top;
          if (iy < 0 || iy >= g.h) std::memset(d, pad, row_bytes);
          else ReorderRow(src + (b * g.h + iy) * g.w * ic, g.w, ic, quads, g.pad_left, wp, pad,
                          flip, d);
          held[slot] = key;
        }
        rows[dy] = d;
      }
      // The input row the next output row reorders first, fetched into the
      // cache a slice per block while this row computes (the reorder's
      // loads otherwise wait on memory: the blocks touch no input for tens
      // of thousands of cycles, and the hardware prefetcher stops).
      const int64_t next_iy = (oy + 1) * g.stride_h +
                              static_cast<int64_t>(kh_ - 1) * g.dilation_h - g.pad_top;
      const bool prefetch = row + 1 < r1 && oy + 1 < g.oh && next_iy >= 0 && next_iy < g.h;
      const char* next =
          prefetch ? reinterpret_cast<const char*>(src + (b * g.h + next_iy) * g.w * ic) : nullptr;
      const int64_t next_bytes = g.w * ic, blocks = (g.ow + 15) / 16;
      const int64_t slice = (next_bytes + blocks - 1) / blocks;
      char* orow = dst + row * g.ow * oc_ * out_bytes;
      for (int64_t x0 = 0, k = 0; x0 < g.ow; x0 += 16, ++k) {
        if (prefetch) {
          const int64_t end = std::min(next_bytes, (k + 1) * slice);
          for (int64_t o = k * slice; o < end; o += 64) _mm_prefetch(next + o, _MM_HINT_T0);
        }
        block(a, rows.data(), x0 * 4, static_cast<int>(std::min<int64_t>(16, g.ow - x0)),
              orow + x0 * oc_ * out_bytes);
      }
    }
  });
}

#else  // no AVX512-VNNI in this build

bool ConvInt8Smalln::Available() { return false; }

void ConvInt8Smalln::Run(const Geometry&, const void*, Levels, void*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
