#include "lite/backends/x86/nchw_input_conv.h"

#include "lite/backends/x86/omp_ranges.h"

// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps(), which
// it defines from itself, and -Wall then flags every inlined use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cfloat>
#include <functional>

namespace lite {
namespace x86 {

using operators::FusedActivation;

void NchwInputConv::SetWeights(const float* filter, const float* bias, int64_t oc, int64_t ic,
                               int64_t kh, int64_t kw) {
  oc_ = oc;
  ic_ = ic;
  kh_ = kh;
  kw_ = kw;
  lanes_ = oc <= 8 ? 8 : 16;
  chunk_ = oc <= 8 ? 8 : 64;
  const int64_t ocp = (oc + lanes_ - 1) / lanes_ * lanes_;
  const int64_t k = ic * kh * kw;  // (c, ky, kx): the filter's own order
  w_.assign(k * ocp, 0.f);
  bias_.assign(ocp, 0.f);
  for (int64_t c0 = 0; c0 < ocp; c0 += chunk_) {
    const int64_t width = std::min(chunk_, ocp - c0);
    float* dst = w_.data() + c0 * k;
    for (int64_t o = c0; o < std::min(c0 + width, oc); ++o)
      for (int64_t q = 0; q < k; ++q) dst[q * width + (o - c0)] = filter[o * k + q];
  }
  if (bias) std::copy(bias, bias + oc, bias_.begin());
}

namespace {

bool force_scalar = false;

// One output row's work for one chunk of output channels.
struct RowJob {
  const float* patch;  // ic * kh zero-padded input rows of pw values
  int64_t pw, rows;
  int kw, sw, dw;
  const float* w;  // the chunk's filter: [rows][kw][width]
  int64_t width;   // the chunk's channels, rounded up to the vector width
  const float* bias;
  const FusedActivation* act;
  float* out;     // the row's first pixel, at the chunk's first channel
  int64_t oc;     // pixel stride of out
  int64_t valid;  // channels of the chunk that exist (<= width)
};

bool ActivationInRegisters(FusedActivation::Kind k) {
  return k == FusedActivation::kNone || k == FusedActivation::kRelu ||
         k == FusedActivation::kRelu6 || k == FusedActivation::kLeakyRelu ||
         k == FusedActivation::kHardSwish;
}

// Scalar sums over the same patch and packed filter, for builds or CPUs
// without AVX-512.
void ScalarRow(const RowJob& j, int64_t ow) {
  for (int64_t ox = 0; ox < ow; ++ox) {
    for (int64_t o = 0; o < j.valid; ++o) {
      float sum = j.bias[o];
      for (int64_t r = 0; r < j.rows; ++r)
        for (int kx = 0; kx < j.kw; ++kx)
          sum += j.patch[r * j.pw + ox * j.sw + kx * j.dw] * j.w[(r * j.kw + kx) * j.width + o];
      j.out[ox * j.oc + o] = ActivationInRegisters(j.act->kind) ? j.act->Apply(sum) : sum;
    }
  }
}

#if defined(__AVX512F__) && defined(__AVX512VL__)

// Asked per row and per pooling window: the CPU is queried once.
bool SimdAvailable() {
  static const bool available =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return available;
}

struct Zmm {
  using V = __m512;
  static constexpr int kLanes = 16;
  static V Load(const float* p) { return _mm512_loadu_ps(p); }
  static V Set1(float x) { return _mm512_set1_ps(x); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V Add(V a, V b) { return _mm512_add_ps(a, b); }
  static V Mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm512_div_ps(a, b); }
  static V Max(V a, V b) { return _mm512_max_ps(a, b); }
  static V Min(V a, V b) { return _mm512_min_ps(a, b); }
  static void Store(float* p, V v, int64_t n) {
    if (n >= kLanes) _mm512_storeu_ps(p, v);
    else _mm512_mask_storeu_ps(p, static_cast<__mmask16>((1u << n) - 1), v);
  }
};

struct Ymm {
  using V = __m256;
  static constexpr int kLanes = 8;
  static V Load(const float* p) { return _mm256_loadu_ps(p); }
  static V Set1(float x) { return _mm256_set1_ps(x); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V Div(V a, V b) { return _mm256_div_ps(a, b); }
  static V Max(V a, V b) { return _mm256_max_ps(a, b); }
  static V Min(V a, V b) { return _mm256_min_ps(a, b); }
  static void Store(float* p, V v, int64_t n) {
    if (n >= kLanes) _mm256_storeu_ps(p, v);
    else _mm256_mask_storeu_ps(p, static_cast<__mmask8>((1u << n) - 1), v);
  }
};

// The activations ActivationInRegisters() names, as the host computes
// them (FusedActivation::Apply).
template <class T>
inline typename T::V Activate(typename T::V v, const FusedActivation& a) {
  const typename T::V zero = T::Set1(0.f);
  switch (a.kind) {
    case FusedActivation::kRelu: return T::Max(v, zero);
    case FusedActivation::kRelu6: return T::Min(T::Max(v, zero), T::Set1(a.alpha));
    case FusedActivation::kLeakyRelu:  // v > 0 ? v : alpha v
      return T::Add(T::Max(v, zero), T::Mul(T::Set1(a.alpha), T::Min(v, zero)));
    case FusedActivation::kHardSwish:
      return T::Div(T::Mul(v, T::Min(T::Max(T::Add(v, T::Set1(a.gamma)), zero),
                                     T::Set1(a.alpha))),
                    T::Set1(a.beta));
    default: return v;  // applied per element after the row is stored
  }
}

// P pixels starting at ox x NV vectors of output channels. KW and SW are
// the kernel width and stride when fixed at compile time (then the
// dilation is 1), else 0 (j.kw, j.sw, j.dw): fixed ones make the 24
// pixels' input offsets immediates instead of 24 registers GCC spills.
template <class T, int NV, int P, int KW, int SW>
void Block(const RowJob& j, int64_t ox) {
  using V = typename T::V;
  constexpr int L = T::kLanes;
  V acc[P][NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    const V b = T::Load(j.bias + v * L);
#pragma GCC unroll 24
    for (int p = 0; p < P; ++p) acc[p][v] = b;
  }
  const int kw = KW > 0 ? KW : j.kw;
  const int sw = SW > 0 ? SW : j.sw;
  const int dw = SW > 0 ? 1 : j.dw;
  const float* x = j.patch + ox * sw;
  for (int64_t r = 0; r < j.rows; ++r) {
    const float* xr = x + r * j.pw;
    const float* wr = j.w + r * kw * j.width;
#pragma GCC unroll 3
    for (int kx = 0; kx < kw; ++kx) {
      V wv[NV];
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) wv[v] = T::Load(wr + kx * j.width + v * L);
      const float* xk = xr + kx * dw;
#pragma GCC unroll 24
      for (int p = 0; p < P; ++p) {
        const V xv = T::Set1(xk[p * sw]);
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[p][v] = T::Fma(xv, wv[v], acc[p][v]);
      }
    }
  }
  float* out = j.out + ox * j.oc;
#pragma GCC unroll 24
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      if (j.valid - v * L > 0) {
        T::Store(out + p * j.oc + v * L, Activate<T>(acc[p][v], *j.act), j.valid - v * L);
      }
    }
}

// The last `rem` (< P) pixels of a row, in one block.
template <class T, int NV, int P, int KW, int SW>
void Tail(const RowJob& j, int64_t ox, int64_t rem) {
  if constexpr (P > 0) {
    if (rem == P) Block<T, NV, P, KW, SW>(j, ox);
    else Tail<T, NV, P - 1, KW, SW>(j, ox, rem);
  }
}

template <class T, int NV, int P, int KW, int SW>
void Pixels(const RowJob& j, int64_t ow) {
  int64_t ox = 0;
  for (; ox + P <= ow; ox += P) Block<T, NV, P, KW, SW>(j, ox);
  if (ox < ow) Tail<T, NV, P - 1, KW, SW>(j, ox, ow - ox);
}

// 3-wide kernels of stride 1 or 2 (every image stem we know) and the
// 8-wide stride-4 one of the DQN Atari net's frames compiled for their
// geometry; the rest generic.
template <class T, int NV, int P>
void PixelsAnyWidth(const RowJob& j, int64_t ow) {
  if (j.kw == 3 && j.dw == 1 && j.sw == 2) Pixels<T, NV, P, 3, 2>(j, ow);
  else if (j.kw == 3 && j.dw == 1 && j.sw == 1) Pixels<T, NV, P, 3, 1>(j, ow);
  else if (j.kw == 8 && j.dw == 1 && j.sw == 4) Pixels<T, NV, P, 8, 4>(j, ow);
  else Pixels<T, NV, P, 0, 0>(j, ow);
}

// Register blocks of 24 accumulators: 24 pixels of one vector, 12 of two,
// 8 of three, 6 of four.
void SimdRow(const RowJob& j, int64_t ow) {
  if (j.width <= 8) return PixelsAnyWidth<Ymm, 1, 24>(j, ow);
  switch (j.width / 16) {
    case 1: return PixelsAnyWidth<Zmm, 1, 24>(j, ow);
    case 2: return PixelsAnyWidth<Zmm, 2, 12>(j, ow);
    case 3: return PixelsAnyWidth<Zmm, 3, 8>(j, ow);
    default: return PixelsAnyWidth<Zmm, 4, 6>(j, ow);
  }
}

#else  // no AVX-512

bool SimdAvailable() { return false; }
void SimdRow(const RowJob&, int64_t) {}

#endif

// dst[o] = max over the window's pixels: columns [xa, xb) (oc values each)
// of the n rows, -FLT_MAX when it is empty. Running maxima stay in
// registers, four vectors at a time (four independent chains).
void MaxOfWindow(const float* const* rows, int64_t n, int64_t xa, int64_t xb, int64_t oc,
                 float* dst) {
#if defined(__AVX512F__) && defined(__AVX512VL__)
  if (SimdAvailable() && !force_scalar) {
    const auto mask_at = [oc](int64_t o) {
      return oc - o >= 16 ? static_cast<__mmask16>(0xFFFF)
                          : oc - o <= 0 ? static_cast<__mmask16>(0)
                                        : static_cast<__mmask16>((1u << (oc - o)) - 1);
    };
    for (int64_t o = 0; o < oc; o += 64) {
      const __mmask16 k[4] = {mask_at(o), mask_at(o + 16), mask_at(o + 32), mask_at(o + 48)};
      __m512 m[4];
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) m[j] = _mm512_set1_ps(-FLT_MAX);
      for (int64_t r = 0; r < n; ++r)
        for (int64_t x = xa; x < xb; ++x) {
          const float* src = rows[r] + x * oc + o;
#pragma GCC unroll 4
          for (int j = 0; j < 4; ++j) {
            m[j] = _mm512_max_ps(m[j], _mm512_maskz_loadu_ps(k[j], src + 16 * j));
          }
        }
#pragma GCC unroll 4
      for (int j = 0; j < 4; ++j) {
        if (k[j] == 0xFFFF) _mm512_storeu_ps(dst + o + 16 * j, m[j]);
        else _mm512_mask_storeu_ps(dst + o + 16 * j, k[j], m[j]);
      }
    }
    return;
  }
#endif
  std::fill(dst, dst + oc, -FLT_MAX);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t x = xa; x < xb; ++x) {
      const float* src = rows[r] + x * oc;
      for (int64_t o = 0; o < oc; ++o) dst[o] = std::max(dst[o], src[o]);
    }
}

}  // namespace

void NchwInputConv::RunRow(const Shape& s, const float* in, const FusedActivation& act,
                           int64_t row, std::vector<float>* patch, float* out_row) const {
  const int64_t b = row / s.oh, oy = row % s.oh;
  const int64_t pw = (s.ow - 1) * s.stride_w + (kw_ - 1) * s.dilation_w + 1;
  const int64_t rows = ic_ * kh_;
  if (patch->size() < static_cast<size_t>(rows * pw)) patch->resize(rows * pw);
  // Patch column i holds input column i - pad_left (zero outside the input).
  const int64_t xa = std::min<int64_t>(s.pad_left, pw);
  const int64_t xb = std::max<int64_t>(xa, std::min<int64_t>(pw, s.iw + s.pad_left));
  for (int64_t c = 0; c < ic_; ++c) {
    for (int64_t ky = 0; ky < kh_; ++ky) {
      float* dst = patch->data() + (c * kh_ + ky) * pw;
      const int64_t iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
      if (iy < 0 || iy >= s.ih) {
        std::fill(dst, dst + pw, 0.f);
        continue;
      }
      const float* src = in + ((b * ic_ + c) * s.ih + iy) * s.iw + (xa - s.pad_left);
      std::fill(dst, dst + xa, 0.f);
      std::copy(src, src + (xb - xa), dst + xa);
      std::fill(dst + xb, dst + pw, 0.f);
    }
  }
  const int64_t ocp = static_cast<int64_t>(bias_.size()), k = ic_ * kh_ * kw_;
  const bool simd = SimdAvailable() && !force_scalar;
  for (int64_t c0 = 0; c0 < ocp; c0 += chunk_) {
    RowJob j;
    j.patch = patch->data();
    j.pw = pw;
    j.rows = rows;
    j.kw = static_cast<int>(kw_);
    j.sw = s.stride_w;
    j.dw = s.dilation_w;
    j.w = w_.data() + c0 * k;
    j.width = std::min(chunk_, ocp - c0);
    j.bias = bias_.data() + c0;
    j.act = &act;
    j.out = out_row + c0;
    j.oc = oc_;
    j.valid = std::min(j.width, oc_ - c0);
    if (simd) SimdRow(j, s.ow);
    else ScalarRow(j, s.ow);
  }
  if (!ActivationInRegisters(act.kind)) act.ApplyInPlace(out_row, s.ow * oc_);
}

bool NchwInputConv::Available() { return SimdAvailable(); }

void NchwInputConv::ForceScalarForTesting(bool on) { force_scalar = on; }

void NchwInputConv::Run(const Shape& s, const float* in, const FusedActivation& act, float* out,
                        int threads) const {
  const int64_t rows = s.n * s.oh;
  OmpForRanges(threads, rows, rows * s.ow * oc_ * ic_ * kh_ * kw_, [&](int64_t r0, int64_t r1) {
    // Per-thread patch that outlives the call (no fresh pages per run).
    thread_local std::vector<float> patch;
    for (int64_t r = r0; r < r1; ++r) RunRow(s, in, act, r, &patch, out + r * s.ow * oc_);
  });
}

void NchwInputConv::RunPooledRows(const Shape& s, const Pool& pool, const float* in,
                                  const FusedActivation& act, int64_t r0, int64_t r1,
                                  float* out) const {
  // Per-thread patch and ring that outlive the call (no fresh pages per run).
  thread_local std::vector<float> patch, ring;
  thread_local std::vector<int64_t> ring_rows;  // conv row held by each slot
  thread_local std::vector<const float*> window;  // a pooled row's conv rows
  const int64_t row_size = s.ow * oc_;
  if (ring.size() < static_cast<size_t>(pool.kh * row_size)) ring.resize(pool.kh * row_size);
  ring_rows.assign(pool.kh, -1);
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t b = r / pool.oh, py = r % pool.oh;
    const int64_t y0 = py * pool.stride_h - pool.pad_top;
    const int64_t ya = std::max<int64_t>(y0, 0), yb = std::min<int64_t>(y0 + pool.kh, s.oh);
    // The window's conv rows, each in slot y % kh (a window spans at most
    // kh consecutive rows, so they never collide).
    for (int64_t y = ya; y < yb; ++y) {
      const int64_t slot = y % pool.kh, id = b * s.oh + y;
      if (ring_rows[slot] == id) continue;
      RunRow(s, in, act, id, &patch, ring.data() + slot * row_size);
      ring_rows[slot] = id;
    }
    window.clear();
    for (int64_t y = ya; y < yb; ++y) window.push_back(ring.data() + (y % pool.kh) * row_size);
    float* dst_row = out + r * pool.ow * oc_;
    for (int64_t px = 0; px < pool.ow; ++px) {
      const int64_t x0 = px * pool.stride_w - pool.pad_left;
      const int64_t xa = std::max<int64_t>(x0, 0), xb = std::min<int64_t>(x0 + pool.kw, s.ow);
      MaxOfWindow(window.data(), yb - ya, xa, xb, oc_, dst_row + px * oc_);
    }
  }
}

void NchwInputConv::RunMaxPooled(const Shape& s, const Pool& pool, const float* in,
                                 const FusedActivation& act, float* out,
                                 int threads) const {
  // Each thread computes the conv rows its pooled rows need (the rows
  // shared by two threads' windows twice).
  OmpForRanges(threads, s.n * pool.oh, s.n * s.oh * s.ow * oc_ * ic_ * kh_ * kw_,
               [&](int64_t r0, int64_t r1) { RunPooledRows(s, pool, in, act, r0, r1, out); });
}

}  // namespace x86
}  // namespace lite
