#include "lite/backends/x86/nchw_input_int8.h"

#include <algorithm>
#include <cstring>

#include "lite/backends/x86/omp_ranges.h"

namespace lite {
namespace x86 {

using Act = operators::FusedActivation;

bool NchwInputInt8::Fits(int64_t ic, int64_t oc, int kh, int kw, int stride_w, int dilation_h,
                         int dilation_w, int groups) {
  return ic >= 1 && ic <= kMaxIc && oc >= 1 && oc <= kMaxOc && kh >= 1 && kh <= kMaxKh &&
         kw >= 1 && kw <= kMaxKw && (stride_w == 1 || stride_w == 2) && dilation_h == 1 &&
         dilation_w == 1 && groups == 1;
}

void NchwInputInt8::SetFilter(const int8_t* filter, int64_t oc, int64_t ic, int kh, int kw) {
  oc_ = oc;
  ic_ = ic;
  kh_ = kh;
  kw_ = kw;
  w_.assign(ic * kh * kMaxOc, 0);
  comp_.assign(kMaxOc, 0);
  for (int64_t m = 0; m < oc; ++m)
    for (int64_t c = 0; c < ic; ++c)
      for (int ky = 0; ky < kh; ++ky) {
        uint32_t quad = 0;
        for (int kx = 0; kx < kw; ++kx) {
          const int8_t level = filter[((m * ic + c) * kh + ky) * kw + kx];
          quad |= static_cast<uint32_t>(static_cast<uint8_t>(level)) << (8 * kx);
          comp_[m] += 128 * level;
        }
        w_[(c * kh + ky) * kMaxOc + m] = static_cast<int32_t>(quad);
      }
}

void NchwInputInt8::SetEpilogue(const float* scale, const float* bias, const Act& act, Out out,
                                float out_factor, int out_round_type) {
  ep_.Set(scale, bias, oc_, kMaxOc, act, out, out_factor, out_round_type);
}

#if defined(LITE_X86_INT8_EPILOGUE_AVX512) && defined(__AVX512VNNI__) && defined(__AVX512VBMI__)

bool NchwInputInt8::Available() {
  return int8_epilogue::CpuHasAvx512Vnni() && __builtin_cpu_supports("avx512vbmi");
}

namespace {

struct BlockArgs {
  const uint8_t* const* rows;  // [ic * kh]: the padded u8 rows of (c, ky)
  int taps;                    // ic * kh
  const int32_t* w;            // [taps][16] filter quads
  const int32_t* comp;         // 16
  const float* scale;
  const float* bias;
  int64_t oc;
  Act act;
  NchwInputInt8::Out out;
  float factor, lo, hi;
  __m512i to_quads;  // byte 4 * l + k <- byte stride_w * l + k
};

// Output pixels x0 .. x0 + valid - 1 of one row; off = stride_w * x0 (the
// first window's first padded column); out points at pixel x0. M: 8 or 16
// accumulators (channels oc .. M have zero weights).
template <int M>
void Block(const BlockArgs& a, int64_t off, int valid, void* out) {
  __m512i acc[M];
#pragma GCC unroll 16
  for (int m = 0; m < M; ++m) acc[m] = _mm512_set1_epi32(-a.comp[m]);
  const int32_t* w = a.w;
  for (int t = 0; t < a.taps; ++t, w += NchwInputInt8::kMaxOc) {
    const __m512i q = _mm512_permutexvar_epi8(a.to_quads, _mm512_loadu_si512(a.rows[t] + off));
#pragma GCC unroll 16
    for (int m = 0; m < M; ++m) int8_epilogue::DotAdd(acc[m], q, _mm512_set1_epi32(w[m]));
  }
  __m512 f[M];
#pragma GCC unroll 16
  for (int m = 0; m < M; ++m) {
    f[m] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[m]), _mm512_set1_ps(a.scale[m]),
                           _mm512_set1_ps(a.bias[m]));
  }
  int8_epilogue::Activate(f, M, a.act);
  const int8_epilogue::LevelClip clip(a.factor, a.lo, a.hi);
  const bool levels = a.out != NchwInputInt8::Out::kFloat;
  int8_epilogue::StorePixels<M>(f, levels ? &clip : nullptr, valid, a.oc, out);
}

}  // namespace

void NchwInputInt8::Run(const Geometry& g, const float* in, const QuantizeRow& quantize, void* out,
                        int threads) const {
  const int64_t ic = ic_, oc = oc_;
  const int kh = kh_, s = g.stride_w;
  const int64_t rows_total = g.n * g.oh;
  if (rows_total <= 0 || g.ow <= 0) return;
  // Padded rows: pad_left zero-level bytes, the row, zero levels past it,
  // long enough for a 64-byte load at every block's first window.
  const int64_t len = std::max<int64_t>(s * (g.ow - 1) + kw_, g.pad_left + g.w) + 64;
  const int64_t out_bytes = ep_.out == Out::kFloat ? 4 : 1;
  alignas(64) uint8_t order[64];
  for (int l = 0; l < 16; ++l)
    for (int k = 0; k < 4; ++k) order[4 * l + k] = static_cast<uint8_t>(s * l + k);
  BlockArgs args;
  args.taps = static_cast<int>(ic * kh);
  args.w = w_.data();
  args.comp = comp_.data();
  args.scale = ep_.scale.data();
  args.bias = ep_.bias.data();
  args.oc = oc;
  args.act = ep_.act;
  args.out = ep_.out;
  args.factor = ep_.factor;
  args.lo = ep_.lo;
  args.hi = ep_.hi;
  args.to_quads = _mm512_load_si512(order);
  auto block = oc <= 8 ? &Block<8> : &Block<16>;
  const int64_t work = rows_total * g.ow * ic * kh * 64;
  char* dst = static_cast<char*>(out);

  // The image as padded u8 rows [n][ic][h][len], quantized in one pass
  // plane by plane (a sequential stream; quantizing each row as the conv
  // first needs it leaves the reads waiting on memory), and a row of zero
  // levels.
  const int64_t planes = g.n * ic;
  thread_local std::vector<uint8_t> store;
  const int64_t bytes = (planes * g.h + 1) * len + 64;
  if (static_cast<int64_t>(store.size()) < bytes) store.resize(bytes);
  uint8_t* image = store.data();
  image += (64 - reinterpret_cast<uintptr_t>(image) % 64) % 64;
  uint8_t* zero_row = image + planes * g.h * len;
  std::memset(zero_row, 128, len);
  OmpForRanges(threads, planes * g.h, planes * g.h * g.w * 8, [&](int64_t q0, int64_t q1) {
    const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
    for (int64_t q = q0; q < q1; ++q) {
      uint8_t* r = image + q * len;
      // Levels by the caller's rule, then + 128 (xor 0x80) to u8.
      quantize(in + q * g.w, g.w, reinterpret_cast<int8_t*>(r + g.pad_left));
      std::memset(r, 128, g.pad_left);
      for (int64_t x = 0; x < g.w; x += 64) {
        const __mmask64 m = x + 64 <= g.w ? ~__mmask64{0} : (__mmask64{1} << (g.w - x)) - 1;
        uint8_t* p = r + g.pad_left + x;
        _mm512_mask_storeu_epi8(p, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, p), flip));
      }
      std::memset(r + g.pad_left + g.w, 128, len - g.pad_left - g.w);
    }
  });

  auto run_rows = [&](int64_t r0, int64_t r1) {
    std::vector<const uint8_t*> rows(ic * kh);
    BlockArgs a = args;
    a.rows = rows.data();
    for (int64_t row = r0; row < r1; ++row) {
      const int64_t b = row / g.oh, oy = row % g.oh;
      for (int ky = 0; ky < kh; ++ky) {
        const int64_t iy = oy * g.stride_h - g.pad_top + ky;
        const bool inside = iy >= 0 && iy < g.h;
        for (int64_t c = 0; c < ic; ++c)
          rows[c * kh + ky] = inside ? image + ((b * ic + c) * g.h + iy) * len : zero_row;
      }
      char* orow = dst + row * g.ow * oc * out_bytes;
      for (int64_t x0 = 0; x0 < g.ow; x0 += 16) {
        const int valid = static_cast<int>(std::min<int64_t>(16, g.ow - x0));
        block(a, s * x0, valid, orow + x0 * oc * out_bytes);
      }
    }
  };
  OmpForRanges(threads, rows_total, work, run_rows);
}

#else  // no AVX512-VNNI / VBMI in this build

bool NchwInputInt8::Available() { return false; }

void NchwInputInt8::Run(const Geometry&, const float*, const QuantizeRow&, void*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
