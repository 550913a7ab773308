// Int8Depthwise's packing, bordered input, dispatch and scalar form
// (int8_depthwise.h).
#include "lite/backends/arm/int8_depthwise.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lite {
namespace arm {

namespace {

// The scalar form: the definition the NEON form matches bit for bit.
void RowsScalar(const Int8Depthwise::Packed& p, size_t begin, size_t count, float* y) {
  for (size_t row = begin; row < begin + count; ++row) {
    const size_t image = row / p.oh, oy = row % p.oh;
    for (size_t ox = 0; ox < p.ow; ++ox) {
      const int8_t* base = p.x + ((image * p.hp + oy * p.sh) * p.wp + ox * p.sw) * p.cp;
      float* out = y + (row * p.ow + ox) * p.c;
      for (size_t c = 0; c < p.c; ++c) {
        int32_t sum = 0;
        for (size_t t = 0; t < p.taps; ++t)
          sum += int32_t(base[p.offsets[t] + c]) * int32_t(p.w[t * p.cp + c]);
        const float v = std::fma(static_cast<float>(sum), p.scale[c], p.bias[c]);
        out[c] = std::min(std::max(v, p.lo), p.hi);
      }
    }
  }
}

struct RunContext {
  Int8Depthwise::Packed packed;
  Int8Depthwise::Form form;
  float* y;
};

void RunRow(void* context, size_t row) {
  const RunContext& c = *static_cast<const RunContext*>(context);
#ifdef __aarch64__
  if (c.form == Int8Depthwise::Form::kNeon) return Int8DepthwiseRowsNeon(c.packed, row, 1, c.y);
#endif
  RowsScalar(c.packed, row, 1, c.y);
}

}  // namespace

Int8Depthwise::Form Int8Depthwise::CpuForm() {
#ifdef __aarch64__
  return Form::kNeon;
#else
  return Form::kScalar;
#endif
}

bool Int8Depthwise::Pack(const int8_t* w, const Geometry& g, const float* scale,
                         const float* bias, Form form, float lo, float hi) {
  const size_t taps = g.kh * g.kw, total = g.channels * taps;
  if (std::find(w, w + total, int8_t{-128}) != w + total) return false;
#ifndef __aarch64__
  form = Form::kScalar;  // the NEON form exists on aarch64 only
#endif
  form_ = form;
  g_ = g;
  lo_ = lo;
  hi_ = hi;
  cp_ = (g.channels + 15) / 16 * 16;
  const size_t taps_even = (taps + 1) / 2 * 2;
  w_.assign(taps_even * cp_, 0);
  for (size_t c = 0; c < g.channels; ++c)
    for (size_t t = 0; t < taps; ++t) w_[t * cp_ + c] = w[c * taps + t];
  scale_.assign(cp_, 0.f);
  bias_.assign(cp_, 0.f);
  std::copy(scale, scale + g.channels, scale_.begin());
  if (bias) std::copy(bias, bias + g.channels, bias_.begin());
  n_ = h_ = wd_ = 0;  // offsets and the border depend on the input's width
  return true;
}

void Int8Depthwise::Run(const int8_t* x, size_t n, size_t h, size_t w, float* y,
                        pthreadpool_t pool) {
  const size_t hp = h + g_.top + g_.bottom, wp = w + g_.left + g_.right, c = g_.channels;
  const size_t taps = g_.kh * g_.kw;
  if (n != n_ || h != h_ || w != wd_) {
    x_.assign(n * hp * wp * cp_, 0);  // the border stays zero: only the inside is written
    offsets_.assign((taps + 1) / 2 * 2, 0);  // the extra tap reads offset 0, weight 0
    for (size_t ky = 0; ky < g_.kh; ++ky)
      for (size_t kx = 0; kx < g_.kw; ++kx)
        offsets_[ky * g_.kw + kx] = (ky * g_.dh * wp + kx * g_.dw) * cp_;
    n_ = n;
    h_ = h;
    wd_ = w;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t r = 0; r < h; ++r) {
      int8_t* dst = x_.data() + ((i * hp + r + g_.top) * wp + g_.left) * cp_;
      const int8_t* src = x + (i * h + r) * w * c;
      if (c == cp_) {
        std::memcpy(dst, src, w * c);
        continue;
      }
      // 16 levels a copy (one vector load and store): past c they are the
      // next pixel's, in channels whose packed weights are zero; exact
      // copies where 16 would read past x.
      const int8_t* end = x + n * h * w * c;
      for (size_t px = 0; px < w; ++px) {
        for (size_t j = 0; j < c; j += 16) {
          const int8_t* s = src + px * c + j;
          if (s + 16 <= end) {
            std::memcpy(dst + px * cp_ + j, s, 16);
          } else {
            std::memcpy(dst + px * cp_ + j, s, c - j);
          }
        }
      }
    }
  const size_t oh = (hp - (g_.kh - 1) * g_.dh - 1) / g_.sh + 1;
  const size_t ow = (wp - (g_.kw - 1) * g_.dw - 1) / g_.sw + 1;
  RunContext ctx{{x_.data(), w_.data(), offsets_.data(), scale_.data(), bias_.data(),
                  form_ == Form::kNeon ? offsets_.size() : taps, g_.kh, g_.kw, cp_, c, hp,
                  wp, oh, ow, g_.sh,
                  g_.sw, lo_, hi_},
                 form_, y};
  pthreadpool_parallelize_1d(pool, RunRow, &ctx, n * oh, 0);
}

}  // namespace arm
}  // namespace lite
