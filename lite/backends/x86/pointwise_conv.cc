#include "lite/backends/x86/pointwise_conv.h"

#include "lite/backends/x86/lanes16.h"
#include "lite/backends/x86/omp_ranges.h"

// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps(), which
// it defines from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace lite {
namespace x86 {

namespace {
constexpr int64_t kPanel = 64;               // output channels per packed panel
constexpr int64_t kBlockBytes = 384 * 1024;  // a pixel block's input rows (L2)
// Microkernel pixels for V vectors. Measured on Zen 4: 6 x 4 and 6 x 3 are
// best for wide panels; for narrow ones fewer rows beat more accumulators
// (5 x 2 beats 6 x 2 and 12 x 2, 8 x 1 beats 12 and 24 x 1).
constexpr int kRows[5] = {0, 8, 5, 6, 6};
}  // namespace

void PointwiseConv::SetFilter(const float* filter, int64_t oc, int64_t ic) {
  ic_ = ic;
  oc_ = oc;
  ocp_ = (oc + 15) / 16 * 16;
  w_.Resize({ic * ocp_});
  float* w = w_.mutable_data<float>();
  std::fill(w, w + ic * ocp_, 0.f);
  for (int64_t p0 = 0; p0 < ocp_; p0 += kPanel) {
    const int64_t width = std::min(kPanel, ocp_ - p0);
    float* dst = w + p0 * ic;
    for (int64_t o = p0; o < std::min(p0 + width, oc); ++o)
      for (int64_t c = 0; c < ic; ++c) dst[c * width + (o - p0)] = filter[o * ic + c];
  }
}

#ifdef __AVX512F__

bool PointwiseConv::Available() { return __builtin_cpu_supports("avx512f"); }

namespace {


// What a tile needs besides its rows: the panel, the bias and output columns
// it covers, the last vector's mask, the activation (a clamp [lo, hi] or
// hard_swish), and
// how many lines of the next panel to prefetch per 16 input channels.
struct TileArgs {
  const float* w;     // panel: [ic][16 * V]
  int64_t ic;
  const float* bias;  // at the panel's first channel, or null
  __mmask16 tail;     // valid lanes of the last vector
  float lo, hi;       // -inf or 0; +inf or relu6's alpha
  bool hard_swish;    // else the clamp [lo, hi]
  float hs_alpha, hs_beta, hs_gamma;  // hard_swish: v * min(max(v + gamma, 0), alpha) / beta
  int64_t pf_per;
  int64_t ldr;        // residual rows' stride (with a residual)
  bool post;          // post_scale * v + post_bias after the activation
  float post_scale, post_bias;
};

// out[R x 16V] = clamp(bias + in[R x ic] * w[ic x 16V]); rows ldi / ldo
// apart. Each output is one FMA chain over the input channels in order,
// whatever R is. Also prefetches (to L1) the next tile's input rows (the R
// rows after these; prefetches never fault, even past the input) and
// pf_lines lines of the next panel from pf: without those, a panel's first
// tile waits on L3 for all of it (a T1 hint, to L2 only, gains nothing on
// Zen 4).
template <int R, int V>
void Tile(const float* in, int64_t ldi, const TileArgs& a, const float* pf, int64_t pf_lines,
          float* out, int64_t ldo, const float* res) {
  __m512 acc[R][V];
#pragma GCC unroll 4
  for (int j = 0; j < V; ++j) {
    const __mmask16 m = j == V - 1 ? a.tail : static_cast<__mmask16>(0xFFFF);
    const __m512 b = a.bias ? _mm512_maskz_loadu_ps(m, a.bias + 16 * j) : _mm512_setzero_ps();
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) acc[r][j] = b;
  }
  const float* rows[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) rows[r] = in + r * ldi;
  const float* w = a.w;
  const int64_t ic = a.ic, per = a.pf_per;
  for (int64_t k0 = 0; k0 < ic; k0 += 16) {  // a cache line of each row
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
      _mm_prefetch(reinterpret_cast<const char*>(rows[r] + R * ldi + k0), _MM_HINT_T0);
    for (int64_t i = 0; i < per && pf_lines > 0; ++i, --pf_lines, pf += 16)
      _mm_prefetch(reinterpret_cast<const char*>(pf), _MM_HINT_T0);
    const int64_t k1 = std::min(k0 + 16, ic);
    for (int64_t k = k0; k < k1; ++k, w += 16 * V) {
      __m512 wv[V];
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) wv[j] = _mm512_load_ps(w + 16 * j);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const __m512 x = _mm512_set1_ps(rows[r][k]);
#pragma GCC unroll 4
        for (int j = 0; j < V; ++j) acc[r][j] = _mm512_fmadd_ps(x, wv[j], acc[r][j]);
      }
    }
  }
  // max(lo, v) / min(hi, v) return v when it is NaN.
  const __m512 lo = _mm512_set1_ps(a.lo), hi = _mm512_set1_ps(a.hi);
  const __mmask16 tail = a.tail;  // a local: the stores may alias `a`
  if (res) {  // + residual, before the activation
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) {
        const __mmask16 m = j == V - 1 ? tail : static_cast<__mmask16>(0xFFFF);
        acc[r][j] = _mm512_add_ps(acc[r][j], _mm512_maskz_loadu_ps(m, res + r * a.ldr + 16 * j));
      }
  }
  if (a.hard_swish) {
    // Divided by beta as FusedActivation::Apply does (a multiply by 1 /
    // beta can differ in the last bit).
    const __m512 zero = _mm512_setzero_ps(), t = _mm512_set1_ps(a.hs_alpha),
                 sc = _mm512_set1_ps(a.hs_beta), off = _mm512_set1_ps(a.hs_gamma);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int j = 0; j < V; ++j) {
        const __m512 v = acc[r][j];
        const __m512 g = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(v, off), zero), t);
        acc[r][j] = _mm512_div_ps(_mm512_mul_ps(v, g), sc);
      }
  }
  const __m512 ps = _mm512_set1_ps(a.post_scale), pb = _mm512_set1_ps(a.post_bias);
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int j = 0; j < V; ++j) {
      __m512 v = _mm512_min_ps(hi, _mm512_max_ps(lo, acc[r][j]));
      // v * a + b in two roundings, as the scale op computes it.
      if (a.post) v = _mm512_add_ps(_mm512_mul_ps(v, ps), pb);
      if (j == V - 1) _mm512_mask_storeu_ps(out + r * ldo + 16 * j, tail, v);
      else _mm512_storeu_ps(out + r * ldo + 16 * j, v);
    }
  }
}

using TileFn = void (*)(const float*, int64_t, const TileArgs&, const float*, int64_t, float*,
                        int64_t, const float*);

// kTiles[V][R - 1] = Tile<R, V> for R = 1 .. kRows[V].
template <int V, int... R>
constexpr std::array<TileFn, 8> TileRow(std::integer_sequence<int, R...>) {
  return {&Tile<R + 1, V>...};
}
const std::array<TileFn, 8> kTiles[5] = {
    {},
    TileRow<1>(std::make_integer_sequence<int, kRows[1]>()),
    TileRow<2>(std::make_integer_sequence<int, kRows[2]>()),
    TileRow<3>(std::make_integer_sequence<int, kRows[3]>()),
    TileRow<4>(std::make_integer_sequence<int, kRows[4]>()),
};

}  // namespace

void PointwiseConv::Run(int64_t pixels, const float* in, int64_t ldi, const float* bias,
                        const operators::FusedActivation& act, float* out, int64_t ldo,
                        int threads, const float* residual, int64_t ldr, float post_scale,
                        float post_bias) const {
  if (pixels <= 0) return;
  const int64_t ic = ic_, oc = oc_, ocp = ocp_;
  const int64_t panels = (ocp + kPanel - 1) / kPanel;
  threads = std::max(1, threads);
  const bool parallel = OmpSplits(threads, pixels * ic * oc);
  // Pixel blocks: input rows that fit kBlockBytes; with threads, enough
  // (block, panel) tasks for an even split.
  int64_t blocks = (pixels * ic * 4 + kBlockBytes - 1) / kBlockBytes;
  if (parallel) blocks = std::max(blocks, (4 * threads + panels - 1) / panels);
  int64_t block_rows = (pixels + blocks - 1) / blocks;
  block_rows = std::max<int64_t>(8, (block_rows + 7) / 8 * 8);
  blocks = (pixels + block_rows - 1) / block_rows;
  const int64_t tasks = blocks * panels;  // block-major: a block's panels in a row
  const float inf = std::numeric_limits<float>::infinity();
  using K = operators::FusedActivation;
  const bool clamp = act.kind == K::kRelu || act.kind == K::kRelu6;
  const float lo = clamp ? 0.f : -inf, hi = act.kind == K::kRelu6 ? act.alpha : inf;
  const bool hard_swish = act.kind == K::kHardSwish;
  const int64_t groups = (ic + 15) / 16;  // of 16 input channels, in a tile
  auto run_tasks = [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t r0 = t / panels * block_rows, r1 = std::min(pixels, r0 + block_rows);
      const int64_t p0 = t % panels * kPanel, width = std::min(kPanel, ocp - p0);
      const int v = static_cast<int>(width / 16), rmax = kRows[v];
      // The next task's panel (the next block's first after the last) is
      // prefetched a slice per tile while this one streams from L2.
      const int64_t np = p0 + kPanel < ocp ? p0 + kPanel : 0;
      const int64_t lines = np != p0 ? std::min(kPanel, ocp - np) * ic / 16 : 0;
      const int64_t tiles = (r1 - r0 + rmax - 1) / rmax, chunk = (lines + tiles - 1) / tiles;
      const TileArgs a = {w_.data<float>() + p0 * ic, ic, bias ? bias + p0 : nullptr,
                          TailMask(oc - (p0 + width - 16)), lo, hi, hard_swish, act.alpha,
                          act.beta, act.gamma, (chunk + groups - 1) / groups, ldr,
                          post_scale != 1.f || post_bias != 0.f, post_scale, post_bias};
      const float* pf = w_.data<float>() + np * ic;
      // Tiles as even as they can be (169 rows: 24 x 6 + 5 x 5, not
      // 28 x 6 + 1: a 1-row tile streams the panel for a sixth of the work).
      const int64_t base = (r1 - r0) / tiles, extra = (r1 - r0) % tiles;
      for (int64_t i = 0, r = r0, left = lines; i < tiles; ++i, left -= chunk, pf += chunk * 16) {
        const int64_t rows = base + (i < extra);
        kTiles[v][rows - 1](in + r * ldi, ldi, a, pf, std::max<int64_t>(0, std::min(chunk, left)),
                            out + r * ldo + p0, ldo, residual ? residual + r * ldr + p0 : nullptr);
        r += rows;
      }
    }
  };
  OmpForRanges(threads, tasks, pixels * ic * oc, run_tasks);
}

#else  // !__AVX512F__

bool PointwiseConv::Available() { return false; }

void PointwiseConv::Run(int64_t, const float*, int64_t, const float*,
                        const operators::FusedActivation&, float*, int64_t, int, const float*,
                        int64_t, float, float) const {}

#endif

}  // namespace x86
}  // namespace lite
