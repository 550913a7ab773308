#include "lite/backends/x86/narrow_deconv.h"

#include <algorithm>
#include <utility>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/backends/x86/lanes16.h"

#ifdef __AVX512F__
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_*(), which it defines
// from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#endif

namespace lite {
namespace x86 {

void NarrowDeconv::SetFilter(const float* filter, const float* bias, int64_t c_in, int64_t c_out,
                             int kh, int kw) {
  c_in_ = c_in;
  c_out_ = c_out;
  kh_ = kh;
  kw_ = kw;
  w_.assign((c_in + 7) / 8 * 8 * kMaxColumns, 0.f);  // zero rows up to a multiple of 8
  bias_.assign(kMaxColumns, 0.f);
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j)
      for (int64_t o = 0; o < c_out; ++o) {
        const int64_t col = (i * kw + j) * c_out + o;
        for (int64_t c = 0; c < c_in; ++c)
          w_[c * kMaxColumns + col] = filter[((c * c_out + o) * kh + i) * kw + j];
        if (bias) bias_[col] = bias[o];
      }
}

#ifdef __AVX512F__

bool NarrowDeconv::Available() { return __builtin_cpu_supports("avx512f"); }

namespace {

// Stores `width` (<= kCols) accumulators (lanes: `pixels` pixels) as rows of
// `width` floats, pixel after pixel, at dst.
template <int kCols>
inline void StoreInterleaved(const __m512* acc, int width, int pixels, float* dst) {
  if (width == 1) {
    _mm512_mask_storeu_ps(dst, TailMask(pixels), acc[0]);
  } else if (kCols >= 2 && width == 2) {
    const __m512i lo = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    const __m512i hi = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24,
                                        8);
    _mm512_mask_storeu_ps(dst, TailMask(2 * pixels), _mm512_permutex2var_ps(acc[0], lo, acc[1]));
    _mm512_mask_storeu_ps(dst + 16, TailMask(2 * pixels - 16),
                          _mm512_permutex2var_ps(acc[0], hi, acc[1]));
  } else {
    __m512 r[16];
#pragma GCC unroll 16
    for (int c = 0; c < 16; ++c) r[c] = c < width && c < kCols ? acc[c] : _mm512_setzero_ps();
    Transpose16(r);
    const __mmask16 mask = TailMask(width);
#pragma GCC unroll 16
    for (int l = 0; l < pixels; ++l) _mm512_mask_storeu_ps(dst + l * width, mask, r[l]);
  }
}

// Adds the products of input channels [c0, c0 + kChannels) (r[0 ..
// kChannels), lanes over pixels) with their filter rows to acc.
template <int kCols, int kChannels>
__attribute__((always_inline)) inline void Accumulate(const __m512* r, const float* wc,
                                                      __m512* acc) {
#pragma GCC unroll 16
  for (int c = 0; c < kChannels; ++c, wc += NarrowDeconv::kMaxColumns) {
#pragma GCC unroll 16
    for (int col = 0; col < kCols; ++col)
      acc[col] = _mm512_fmadd_ps(r[c], _mm512_set1_ps(wc[col]), acc[col]);
  }
}

// The accumulators of 16 pixels (kFull) or of the first `pixels` of them
// (the others' input counted as zeros) starting at `in`.
template <int kCols, bool kFull>
__attribute__((always_inline)) inline void SumBlock(const float* in, int pixels, int64_t c_in,
                                                    const float* filter, const float* bias,
                                                    __m512* acc) {
#pragma GCC unroll 16
  for (int col = 0; col < kCols; ++col) acc[col] = _mm512_set1_ps(bias[col]);
  for (int64_t c0 = 0; c0 < c_in; c0 += 16) {
    const int64_t channels = std::min<int64_t>(16, c_in - c0);
    const __mmask16 cm = TailMask(channels);
    __m512 r[16];
#pragma GCC unroll 16
    for (int l = 0; l < 16; ++l) {
      r[l] = kFull || l < pixels ? _mm512_maskz_loadu_ps(cm, in + l * c_in + c0)
                                 : _mm512_setzero_ps();
    }
    Transpose16(r);
    // The filter has zero rows up to a multiple of 8 channels.
    const float* wc = filter + c0 * NarrowDeconv::kMaxColumns;
    if (channels > 8) {
      Accumulate<kCols, 16>(r, wc, acc);
    } else {
      Accumulate<kCols, 8>(r, wc, acc);
    }
  }
}

// One input row (w pixels of c_in channels) into its kh output rows (the
// first at out, the next ones out_row floats apart).
template <int kCols>
void RunRow(const float* in, int64_t w, int64_t c_in, const float* filter, const float* bias,
            int kh, int width, float* out, int64_t out_row) {
  __m512 acc[kCols];
  for (int64_t x0 = 0; x0 < w; x0 += 16) {
    const int pixels = static_cast<int>(std::min<int64_t>(16, w - x0));
    if (pixels == 16) {
      SumBlock<kCols, true>(in + x0 * c_in, 16, c_in, filter, bias, acc);
    } else {
      SumBlock<kCols, false>(in + x0 * c_in, pixels, c_in, filter, bias, acc);
    }
    for (int i = 0; i < kh; ++i)
      StoreInterleaved<kCols>(acc + i * width, width, pixels, out + i * out_row + x0 * width);
  }
}

using RowFn = void (*)(const float*, int64_t, int64_t, const float*, const float*, int, int,
                       float*, int64_t);

template <int... kCols>
constexpr RowFn PickRow(int cols, std::integer_sequence<int, kCols...>) {
  RowFn fns[] = {&RunRow<kCols + 1>...};
  return fns[cols - 1];
}

}  // namespace

void NarrowDeconv::Run(int64_t n, int64_t h, int64_t w, const float* in, float* out,
                       int threads) const {
  const int cols = kh_ * kw_ * static_cast<int>(c_out_);
  const RowFn row_fn = PickRow(cols, std::make_integer_sequence<int, kMaxColumns>());
  const int width = kw_ * static_cast<int>(c_out_);  // floats per pixel in one output row
  const int64_t out_row = w * width;
  const int64_t rows = n * h;
  OmpForRanges(threads, rows, rows * w * c_in_ * cols, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      row_fn(in + r * w * c_in_, w, c_in_, w_.data(), bias_.data(), kh_, width,
             out + r * kh_ * out_row, out_row);
    }
  });
}

#else

bool NarrowDeconv::Available() { return false; }

void NarrowDeconv::Run(int64_t, int64_t, int64_t, const float*, float*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
