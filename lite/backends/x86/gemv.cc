#include "lite/backends/x86/gemv.h"

#include <algorithm>

#include "lite/backends/x86/omp_ranges.h"

#ifdef __AVX512F__
#include "lite/backends/x86/lanes16.h"
#endif

namespace lite {
namespace x86 {

namespace {
constexpr int64_t kPanel = 256;  // columns per packed panel: 16 accumulators

// The width of the panel starting at column j0: up to kPanel, the last
// rounded up to 16.
int64_t PanelWidth(int64_t n, int64_t j0) {
  return std::min(kPanel, (n - j0 + 15) / 16 * 16);
}
}  // namespace

void Gemv::SetWeights(const float* w, int64_t k, int64_t n) {
  k_ = k;
  n_ = n;
  packed_.assign(k * ((n + 15) / 16 * 16), 0.f);
  float* dst = packed_.data();
  for (int64_t j0 = 0; j0 < n; j0 += kPanel) {
    const int64_t width = PanelWidth(n, j0), cols = std::min(kPanel, n - j0);
    for (int64_t i = 0; i < k; ++i, dst += width) std::copy_n(w + i * n + j0, cols, dst);
  }
}

#ifdef __AVX512F__

bool Gemv::Available() { return __builtin_cpu_supports("avx512f"); }

namespace {

// One panel of NV vectors: y[0, cols) (cols <= 16 * NV) from the packed
// rows `w` (16 * NV floats each).
template <int NV>
void Panel(int64_t k, const float* x, const float* w, const float* bias, int64_t cols, float* y) {
  __m512 acc[NV];
#pragma GCC unroll 16
  for (int v = 0; v < NV; ++v) {
    const __mmask16 m = TailMask(cols - 16 * v);
    acc[v] = bias ? _mm512_maskz_loadu_ps(m, bias + 16 * v) : _mm512_setzero_ps();
  }
  for (int64_t i = 0; i < k; ++i) {
    const __m512 xi = _mm512_set1_ps(x[i]);
    const float* wr = w + i * 16 * NV;
#pragma GCC unroll 16
    for (int v = 0; v < NV; ++v) acc[v] = _mm512_fmadd_ps(xi, _mm512_loadu_ps(wr + 16 * v), acc[v]);
  }
#pragma GCC unroll 16
  for (int v = 0; v < NV; ++v) _mm512_mask_storeu_ps(y + 16 * v, TailMask(cols - 16 * v), acc[v]);
}

using PanelFn = void (*)(int64_t, const float*, const float*, const float*, int64_t, float*);

template <int... NV>
constexpr PanelFn kPanelFns[] = {nullptr, &Panel<NV>...};

}  // namespace

void Gemv::Run(const float* x, const float* bias, float* y, int threads) const {
  static constexpr PanelFn const* fns =
      kPanelFns<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>;
  const int64_t panels = (n_ + kPanel - 1) / kPanel;
  OmpForRanges(threads, panels, k_ * n_, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t j0 = p * kPanel, width = PanelWidth(n_, j0);
      fns[width / 16](k_, x, packed_.data() + k_ * j0, bias ? bias + j0 : nullptr,
                      std::min(kPanel, n_ - j0), y + j0);
    }
  });
}

#else

bool Gemv::Available() { return false; }

void Gemv::Run(const float*, const float*, float*, int) const {}

#endif

}  // namespace x86
}  // namespace lite
