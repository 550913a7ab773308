#include "lite/backends/x86/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lite/backends/x86/lanes16.h"

namespace lite {
namespace x86 {

namespace {

#if defined(__AVX512F__)
// exp of 16 values (Cephes expf): n = round(x log2 e), r = x - n ln 2 in two
// parts, e^r by a degree-6 polynomial, times 2^n by scalef (which also
// flushes large negative n to 0).
inline __m512 Exp16(__m512 x) {
  x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-103.0f)), _mm512_set1_ps(88.7f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

// One contiguous row of n values.
void SoftmaxRow(const float* x, float* y, int64_t n) {
  __m512 vmax = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = TailMask(n - i);
    vmax = _mm512_mask_max_ps(vmax, m, vmax, _mm512_maskz_loadu_ps(m, x + i));
  }
  const __m512 max = _mm512_set1_ps(_mm512_reduce_max_ps(vmax));
  __m512 vsum = _mm512_setzero_ps();
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = TailMask(n - i);
    const __m512 e = Exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), max));
    _mm512_mask_storeu_ps(y + i, m, e);
    vsum = _mm512_mask_add_ps(vsum, m, vsum, e);
  }
  const __m512 scale = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(vsum));
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = TailMask(n - i);
    _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + i), scale));
  }
}

// `axis` values at stride `inner`, for 16 (or the tail's) inner positions.
void SoftmaxColumns(const float* x, float* y, int64_t axis, int64_t inner, __mmask16 m) {
  __m512 max = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  for (int64_t a = 0; a < axis; ++a) {
    max = _mm512_max_ps(max, _mm512_mask_loadu_ps(max, m, x + a * inner));
  }
  __m512 sum = _mm512_setzero_ps();
  for (int64_t a = 0; a < axis; ++a) {
    const __m512 e = Exp16(_mm512_sub_ps(_mm512_mask_loadu_ps(max, m, x + a * inner), max));
    _mm512_mask_storeu_ps(y + a * inner, m, e);
    sum = _mm512_add_ps(sum, e);
  }
  const __m512 scale = _mm512_div_ps(_mm512_set1_ps(1.0f), sum);
  for (int64_t a = 0; a < axis; ++a) {
    _mm512_mask_storeu_ps(y + a * inner, m,
                          _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + a * inner), scale));
  }
}
// Rows of `axis` < 16 contiguous values (a channel softmax of an NHWC
// activation: 2 classes per pixel for a segmentation head). One row per
// lane: 16 rows are transposed into [axis][16] on the stack, run as 16
// columns, and transposed back, instead of three masked passes and two
// horizontal reductions per row.
void SoftmaxShortRows(const float* x, float* y, int64_t rows, int64_t axis) {
  alignas(64) float t[16 * 16];
  for (int64_t r = 0; r < rows; r += 16) {
    const int64_t n = std::min<int64_t>(16, rows - r);
    const float* xr = x + r * axis;
    float* yr = y + r * axis;
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t a = 0; a < axis; ++a) t[a * 16 + j] = xr[j * axis + a];
    }
    SoftmaxColumns(t, t, axis, 16, TailMask(n));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t a = 0; a < axis; ++a) yr[j * axis + a] = t[a * 16 + j];
    }
  }
}
#else
// Portable: one position of the inner extent.
void SoftmaxScalar(const float* x, float* y, int64_t axis, int64_t inner) {
  float max = -std::numeric_limits<float>::infinity();
  for (int64_t a = 0; a < axis; ++a) max = std::max(max, x[a * inner]);
  float sum = 0;
  for (int64_t a = 0; a < axis; ++a) {
    y[a * inner] = std::exp(x[a * inner] - max);
    sum += y[a * inner];
  }
  const float scale = 1.0f / sum;
  for (int64_t a = 0; a < axis; ++a) y[a * inner] *= scale;
}
#endif

}  // namespace

void Softmax(const float* x, float* y, int64_t outer, int64_t axis, int64_t inner) {
#if defined(__AVX512F__)
  if (inner == 1 && axis < 16) {
    SoftmaxShortRows(x, y, outer, axis);
    return;
  }
#endif
  for (int64_t o = 0; o < outer; ++o) {
    const float* xo = x + o * axis * inner;
    float* yo = y + o * axis * inner;
#if defined(__AVX512F__)
    if (inner == 1) {
      SoftmaxRow(xo, yo, axis);
    } else {
      for (int64_t i = 0; i < inner; i += 16) {
        SoftmaxColumns(xo + i, yo + i, axis, inner, TailMask(inner - i));
      }
    }
#else
    for (int64_t i = 0; i < inner; ++i) SoftmaxScalar(xo + i, yo + i, axis, inner);
#endif
  }
}

}  // namespace x86
}  // namespace lite
