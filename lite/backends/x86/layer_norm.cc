#include "lite/backends/x86/layer_norm.h"

#include <cmath>

#include "lite/backends/x86/lanes16.h"

namespace lite {
namespace x86 {

namespace {

#if defined(__AVX512F__)
// Mean and population variance of one row of n values.
void RowStats(const float* x, int64_t n, float* mean, float* var) {
  __m512 s = _mm512_setzero_ps();
  for (int64_t i = 0; i < n; i += 16) {
    s = _mm512_add_ps(s, _mm512_maskz_loadu_ps(TailMask(n - i), x + i));
  }
  const float m = _mm512_reduce_add_ps(s) / static_cast<float>(n);
  const __m512 vm = _mm512_set1_ps(m);
  __m512 q = _mm512_setzero_ps();
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = TailMask(n - i);
    const __m512 d = _mm512_maskz_sub_ps(k, _mm512_maskz_loadu_ps(k, x + i), vm);
    q = _mm512_fmadd_ps(d, d, q);
  }
  *mean = m;
  *var = _mm512_reduce_add_ps(q) / static_cast<float>(n);
}

// y = (x - mean) * inv_std [* scale + bias] over one row.
void RowNormalize(const float* x, float* y, int64_t n, float mean, float inv_std,
                  const float* scale, const float* bias) {
  const __m512 vm = _mm512_set1_ps(mean);
  const __m512 vs = _mm512_set1_ps(inv_std);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = TailMask(n - i);
    __m512 v = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), vm), vs);
    if (scale) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(k, scale + i));
    if (bias) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, bias + i));
    _mm512_mask_storeu_ps(y + i, k, v);
  }
}
#else
void RowStats(const float* x, int64_t n, float* mean, float* var) {
  float s = 0.f;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  const float m = s / static_cast<float>(n);
  float q = 0.f;
  for (int64_t i = 0; i < n; ++i) q += (x[i] - m) * (x[i] - m);
  *mean = m;
  *var = q / static_cast<float>(n);
}

void RowNormalize(const float* x, float* y, int64_t n, float mean, float inv_std,
                  const float* scale, const float* bias) {
  for (int64_t i = 0; i < n; ++i) {
    float v = (x[i] - mean) * inv_std;
    if (scale) v *= scale[i];
    if (bias) v += bias[i];
    y[i] = v;
  }
}
#endif

}  // namespace

void LayerNormRows(const float* x, float* y, int64_t rows, int64_t n, const float* scale,
                   const float* bias, float epsilon, float* mean_out, float* var_out) {
  if (n <= 0) return;
  for (int64_t r = 0; r < rows; ++r) {
    float mean = 0.f, var = 0.f;
    RowStats(x + r * n, n, &mean, &var);
    RowNormalize(x + r * n, y + r * n, n, mean, 1.f / std::sqrt(var + epsilon), scale, bias);
    if (mean_out) mean_out[r] = mean;
    if (var_out) var_out[r] = var;
  }
}

}  // namespace x86
}  // namespace lite
