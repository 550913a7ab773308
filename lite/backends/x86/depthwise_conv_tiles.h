// The tile code of DepthwiseConv (depthwise_conv.h), written once over a
// vector-ops type T and instantiated by depthwise_conv_avx512.cc (16 lanes)
// and depthwise_conv_avx2.cc (8 lanes), each compiled with its ISA's flags.
// T gives: V (the vector), M (a lane mask), kLanes, Load (aligned or not),
// LoadM / StoreM (masked), Store, Zero, Set1, Fma, Add, Mul, Div, Max, Min
// and Mask(n) (the first n lanes). Include only from those two files: each
// defines its T in an unnamed namespace, so the instantiations stay apart.
#pragma once

#include <cstdint>

namespace lite {
namespace x86 {

// One run's shapes, data and epilogue, as the instantiations take them.
struct DepthwiseRowsArgs {
  int64_t c, cp, h, w, oh, ow;  // cp: c rounded up to 16 (the packed rows)
  int kh, kw, sh, sw, pt, pl, dh, dw;
  const float* in;    // NHWC
  const float* wpk;   // [kh * kw][cp]
  const float* bias;  // c, or null
  const float* res;   // NHWC like the output (c per pixel), or null
  float* out;
  int64_t ldo;
  float lo, hi;       // the clamp: -inf or 0; +inf or relu6's alpha
  bool hard_swish;    // else the clamp
  float hs_alpha, hs_beta, hs_gamma;  // v * min(max(v + gamma, 0), alpha) / beta
  bool post;
  bool rewrite;       // output pixels may be written twice (no residual where the output is)
  float post_scale, post_bias;
};

// Output rows [row0, row1) of n * oh.
using DepthwiseRowsFn = void (*)(const DepthwiseRowsArgs& a, int64_t row0, int64_t row1);
// The instantiation's rows function for a's kernel width, stride and
// dilation.
DepthwiseRowsFn DepthwiseRowsAvx512(const DepthwiseRowsArgs& a);
DepthwiseRowsFn DepthwiseRowsAvx2(const DepthwiseRowsArgs& a);

namespace depthwise_tiles {
// Internal linkage: the two files compile this code for different ISAs,
// and no copy may stand in for the other at link time.
namespace {

// Residual, activation and affine map of R vectors (output pixels px ..
// px + R - 1, channels from c), then their stores. The constants are read
// into registers first: a float store could alias `a`'s float fields, so
// reading them per vector would reload them after each store.
template <class T, int R, bool kTail>
__attribute__((always_inline)) inline void Finish(const DepthwiseRowsArgs& a, typename T::V* acc,
                                                  int64_t px, int64_t c, typename T::M m) {
  using V = typename T::V;
  const V lo = T::Set1(a.lo), hi = T::Set1(a.hi), hs_alpha = T::Set1(a.hs_alpha),
          hs_beta = T::Set1(a.hs_beta), hs_gamma = T::Set1(a.hs_gamma),
          scale = T::Set1(a.post_scale), shift = T::Set1(a.post_bias);
  const bool hard_swish = a.hard_swish, post = a.post;
  const float* res = a.res ? a.res + px * a.c + c : nullptr;
  float* out = a.out + px * a.ldo + c;
  const int64_t C = a.c, ldo = a.ldo;
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    V v = acc[r];
    if (res) v = T::Add(v, kTail ? T::LoadM(res + r * C, m) : T::Load(res + r * C));
    if (hard_swish) {
      // Divided by beta as FusedActivation::Apply does.
      const V t = T::Min(T::Max(T::Add(v, hs_gamma), T::Zero()), hs_alpha);
      v = T::Div(T::Mul(v, t), hs_beta);
    } else {
      // max(lo, v) / min(hi, v) return v when it is NaN (x86 returns the second).
      v = T::Min(hi, T::Max(lo, v));
    }
    if (post) v = T::Fma(v, scale, shift);
    if (kTail) {
      T::StoreM(out + r * ldo, m, v);
    } else {
      T::Store(out + r * ldo, v);
    }
  }
}

// R accumulators of the channel vector from c start at the bias (or 0).
template <class T, int R, bool kTail>
__attribute__((always_inline)) inline void SeedWithBias(const DepthwiseRowsArgs& a, int64_t c,
                                                        typename T::M m, typename T::V* acc) {
  const typename T::V b =
      a.bias ? (kTail ? T::LoadM(a.bias + c, m) : T::Load(a.bias + c)) : T::Zero();
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) acc[r] = b;
}

// R output pixels ow0 .. ow0 + R - 1 of output row `oh` (image `img`), one
// vector of channels from c; taps of rows [kh0, kh1) only, every column in
// the input (kChecked: columns outside it are skipped per pixel).
template <class T, int R, bool kTail, bool kChecked>
__attribute__((always_inline)) inline void Tile(const DepthwiseRowsArgs& a, int64_t img,
                                                int64_t oh, int64_t ow0, int64_t c, int kh0,
                                                int kh1, typename T::M m) {
  using V = typename T::V;
  V acc[R];
  SeedWithBias<T, R, kTail>(a, c, m, acc);
  const int64_t C = a.c;
  const float* in_img = a.in + img * a.h * a.w * C + c;
  const int64_t iw0 = ow0 * a.sw - a.pl;
  for (int kh = kh0; kh < kh1; ++kh) {
    const float* row = in_img + ((oh * a.sh - a.pt) + kh * a.dh) * a.w * C;
    const float* wrow = a.wpk + static_cast<int64_t>(kh) * a.kw * a.cp + c;
    for (int kw = 0; kw < a.kw; ++kw) {
      const V wv = T::LoadAligned(wrow + static_cast<int64_t>(kw) * a.cp);
      const int64_t iw = iw0 + static_cast<int64_t>(kw) * a.dw;
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const int64_t x = iw + static_cast<int64_t>(r) * a.sw;
        if (kChecked && (x < 0 || x >= a.w)) continue;
        const float* p = row + x * C;
        acc[r] = T::Fma(kTail ? T::LoadM(p, m) : T::Load(p), wv, acc[r]);
      }
    }
  }
  Finish<T, R, kTail>(a, acc, (img * a.oh + oh) * a.ow + ow0, c, m);
}

// R output pixels from ow0 of output row `oh` (image `img`), one vector of
// channels from c, for a kernel KW wide at horizontal stride S and dilation
// D: per kernel row, each input vector the R pixels read is loaded once and
// feeds every (pixel, tap) pair that reads it, with the row's KW weights in
// registers (Tile loads one input per FMA). Taps of rows [kh0, kh1) only;
// kChecked: input columns outside the map are skipped. Each output is the
// same FMA chain as Tile's (kh, then kw, in order).
template <class T, int R, int KW, int S, int D, bool kTail, bool kChecked>
__attribute__((always_inline)) inline void SlideTile(const DepthwiseRowsArgs& a, int64_t img,
                                                     int64_t oh, int64_t ow0, int64_t c, int kh0,
                                                     int kh1, typename T::M m) {
  using V = typename T::V;
  constexpr int J = (R - 1) * S + (KW - 1) * D + 1;  // input columns the tile reads
  V acc[R];
  SeedWithBias<T, R, kTail>(a, c, m, acc);
  const int64_t C = a.c;
  const float* in_img = a.in + img * a.h * a.w * C + c;
  const int64_t iw0 = ow0 * S - a.pl;
  for (int kh = kh0; kh < kh1; ++kh) {
    const float* row = in_img + ((oh * a.sh - a.pt) + kh * a.dh) * a.w * C + iw0 * C;
    const float* wrow = a.wpk + static_cast<int64_t>(kh) * KW * a.cp + c;
    V wv[KW];
#pragma GCC unroll 8
    for (int kw = 0; kw < KW; ++kw) wv[kw] = T::LoadAligned(wrow + static_cast<int64_t>(kw) * a.cp);
#pragma GCC unroll 64
    for (int j = 0; j < J; ++j) {
      if (kChecked && (iw0 + j < 0 || iw0 + j >= a.w)) continue;
      const float* p = row + static_cast<int64_t>(j) * C;
      const V x = kTail ? T::LoadM(p, m) : T::Load(p);
#pragma GCC unroll 8
      for (int kw = 0; kw < KW; ++kw) {
        const int rs = j - kw * D;  // r * S for the pixel this tap serves
        if (rs < 0 || rs % S != 0 || rs / S >= R) continue;
        acc[rs / S] = T::Fma(x, wv[kw], acc[rs / S]);
      }
    }
  }
  Finish<T, R, kTail>(a, acc, (img * a.oh + oh) * a.ow + ow0, c, m);
}

// Floor division for a positive divisor.
template <typename I>
I FloorDiv(I x, I d) {
  return x >= 0 ? x / d : -((-x + d - 1) / d);
}

// The output columns whose taps all fall inside the input:
// ow * sw - pl >= 0 and ow * sw - pl + (kw - 1) * dw <= w - 1.
inline void InteriorColumns(const DepthwiseRowsArgs& a, int64_t* lo, int64_t* hi) {
  int64_t l = FloorDiv<int64_t>(a.pl + a.sw - 1, a.sw);
  int64_t h = FloorDiv<int64_t>(a.w - 1 - static_cast<int64_t>(a.kw - 1) * a.dw + a.pl, a.sw) + 1;
  l = l < 0 ? 0 : l > a.ow ? a.ow : l;
  h = h > a.ow ? a.ow : h < l ? l : h;
  *lo = l;
  *hi = h;
}

// SlideTiles of R pixels at column ow of one output row, every channel
// vector in turn (their input columns are neighbouring lines), checked when
// the tile reaches outside the interior columns [lo, hi).
template <class T, int R, int KW, int S, int D>
void SlideAllChannels(const DepthwiseRowsArgs& a, int64_t img, int64_t oh, int64_t ow,
                      int64_t lo, int64_t hi, int kh0, int kh1) {
  constexpr int L = T::kLanes;
  const int64_t full = a.c / L * L;
  const typename T::M all = T::Mask(L), tail = T::Mask(static_cast<int>(a.c - full));
  if (ow < lo || ow + R > hi) {
    for (int64_t c = 0; c < full; c += L)
      SlideTile<T, R, KW, S, D, false, true>(a, img, oh, ow, c, kh0, kh1, all);
    if (full < a.c) SlideTile<T, R, KW, S, D, true, true>(a, img, oh, ow, full, kh0, kh1, tail);
  } else {
    for (int64_t c = 0; c < full; c += L)
      SlideTile<T, R, KW, S, D, false, false>(a, img, oh, ow, c, kh0, kh1, all);
    if (full < a.c) SlideTile<T, R, KW, S, D, true, false>(a, img, oh, ow, full, kh0, kh1, tail);
  }
}

// Columns [ow, end) of one output row (columns before ow written):
// tiles of R pixels (the next
// position's overlap stays in L1), then the rest. With a.rewrite the rest
// is one tile of R, R / 2, R / 4 ... (the smallest that covers it) ending
// at `end`: it recomputes a few pixels already written, with the same FMA
// chains, so the same values. Without (the output overlaps the residual,
// which a second write would have changed) the rest goes in tiles of
// R / 2, R / 4, ... 1.
template <class T, int R, int KW, int S, int D>
void SlideColumns(const DepthwiseRowsArgs& a, int64_t img, int64_t oh, int64_t ow, int64_t end,
                  int64_t lo, int64_t hi, int kh0, int kh1) {
  for (; ow + R <= end; ow += R) SlideAllChannels<T, R, KW, S, D>(a, img, oh, ow, lo, hi, kh0, kh1);
  if (ow == end) return;
  if constexpr (R > 1) {
    const int64_t rest = end - ow;
    if (a.rewrite && end >= R && rest > R / 2) {
      SlideAllChannels<T, R, KW, S, D>(a, img, oh, end - R, lo, hi, kh0, kh1);
    } else {
      SlideColumns<T, R / 2, KW, S, D>(a, img, oh, ow, end, lo, hi, kh0, kh1);
    }
  }
}

// One channel vector of one output row, any kernel width, stride and
// dilation: the unchecked interior in Tiles of R pixels (then single
// pixels), the ends pixel by pixel with checks.
template <class T, int R, bool kTail>
void RowVector(const DepthwiseRowsArgs& a, int64_t img, int64_t oh, int64_t c, int kh0, int kh1,
               typename T::M m) {
  int64_t lo, hi;
  InteriorColumns(a, &lo, &hi);
  int64_t ow = 0;
  for (; ow < lo; ++ow) Tile<T, 1, kTail, true>(a, img, oh, ow, c, kh0, kh1, m);
  for (; ow + R <= hi; ow += R) Tile<T, R, kTail, false>(a, img, oh, ow, c, kh0, kh1, m);
  for (; ow < hi; ++ow) Tile<T, 1, kTail, false>(a, img, oh, ow, c, kh0, kh1, m);
  for (; ow < a.ow; ++ow) Tile<T, 1, kTail, true>(a, img, oh, ow, c, kh0, kh1, m);
}

// Output rows [row0, row1): per row, the kernel rows whose input row
// exists, then its columns and channel vectors (the last one masked when c
// is not a multiple of the lanes). KW > 0: SlideTiles of R pixels for that kernel
// width, stride and dilation; KW == 0: Tiles of R pixels for any.
template <class T, int R, int KW, int S, int D>
void Rows(const DepthwiseRowsArgs& a, int64_t row0, int64_t row1) {
  constexpr int L = T::kLanes;
  const int64_t full = a.c / L * L;
  const typename T::M all = T::Mask(L), tail = T::Mask(static_cast<int>(a.c - full));
  int64_t lo, hi;
  InteriorColumns(a, &lo, &hi);
  for (int64_t row = row0; row < row1; ++row) {
    const int64_t img = row / a.oh, oh = row % a.oh;
    // Kernel rows whose input row exists: 0 <= oh * sh - pt + kh * dh < h.
    const int64_t top = oh * a.sh - a.pt;
    int64_t kh0 = FloorDiv<int64_t>(-top + a.dh - 1, a.dh);
    int64_t kh1 = FloorDiv<int64_t>(a.h - 1 - top, a.dh) + 1;
    kh0 = kh0 < 0 ? 0 : kh0;
    kh1 = kh1 > a.kh ? a.kh : kh1;
    if (kh1 < kh0) kh1 = kh0;
    const int k0 = static_cast<int>(kh0), k1 = static_cast<int>(kh1);
    if constexpr (KW > 0) {
      SlideColumns<T, R, KW, S, D>(a, img, oh, 0, a.ow, lo, hi, k0, k1);
    } else {
      for (int64_t c = 0; c < full; c += L) RowVector<T, R, false>(a, img, oh, c, k0, k1, all);
      if (full < a.c) RowVector<T, R, true>(a, img, oh, full, k0, k1, tail);
    }
  }
}

using RowsFn = void (*)(const DepthwiseRowsArgs&, int64_t, int64_t);

// Clang's AddressSanitizer build (tools/test.sh's ASan subset and the fuzz
// targets share it) compiles the general Rows only: with ASan and coverage
// counters the twelve SlideTile instantiations took minutes of a cold CI's
// compile. Natively and in GCC's sanitizer builds every one is compiled.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LITE_DW_SLIDE_TILES 0
#endif
#endif
#ifndef LITE_DW_SLIDE_TILES
#define LITE_DW_SLIDE_TILES 1
#endif

// The Rows for a's kernel width, stride and dilation: a SlideTile one for
// 3, 5 and 7 wide kernels at stride 1 or 2 and dilation 1 or 2 (R pixels
// per tile from RFor<KW>), the general one otherwise.
template <class T, template <int> class RFor>
RowsFn PickRows(const DepthwiseRowsArgs& a) {
#if LITE_DW_SLIDE_TILES
#define LITE_DW_ROWS(KW, S, D)                                  \
  if (a.kw == KW && a.sw == S && a.dw == D) return Rows<T, RFor<KW>::value, KW, S, D>;
#define LITE_DW_ROWS_KW(KW) \
  LITE_DW_ROWS(KW, 1, 1)    \
  LITE_DW_ROWS(KW, 2, 1)    \
  LITE_DW_ROWS(KW, 1, 2)    \
  LITE_DW_ROWS(KW, 2, 2)
  LITE_DW_ROWS_KW(3)
  LITE_DW_ROWS_KW(5)
  LITE_DW_ROWS_KW(7)
#undef LITE_DW_ROWS_KW
#undef LITE_DW_ROWS
#else
  (void)a;
#endif
  return Rows<T, 8, 0, 1, 1>;
}

}  // namespace
}  // namespace depthwise_tiles
}  // namespace x86
}  // namespace lite
