// Int8Depthwise's packing, bordered input, dispatch and scalar form
// (int8_depthwise.h).
#include "lite/backends/arm/int8_depthwise.h"

#include "lite/backends/arm/int8_border.h"

#include <algorithm>
#include <cmath>

#ifdef __aarch64__
#include <cpuinfo.h>
#endif

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
  if (c.form == Int8Depthwise::Form::kDot) return Int8DepthwiseRowsDot(c.packed, row, 1, c.y);
#endif
  RowsScalar(c.packed, row, 1, c.y);
}

}  // namespace

Int8Depthwise::Form Int8Depthwise::CpuForm() {
#ifdef __aarch64__
  static const Form form =
      cpuinfo_initialize() && cpuinfo_has_arm_neon_dot() ? Form::kDot : Form::kNeon;
  return form;
#else
  return Form::kScalar;
#endif
}

bool Int8Depthwise::Pack(const int8_t* w, const Geometry& g, const float* scale,
                         const float* bias, Form form, float lo, float hi) {
  const size_t taps = g.kh * g.kw, total = g.channels * taps;
  if (std::find(w, w + total, int8_t{-128}) != w + total) return false;
#ifndef __aarch64__
  form = Form::kScalar;  // the NEON and SDOT forms exist on aarch64 only
#endif
  if (form == Form::kDot && g.kw < 4) form = Form::kNeon;
  form_ = form;
  g_ = g;
  lo_ = lo;
  hi_ = hi;
  cp_ = (g.channels + 15) / 16 * 16;
  if (form == Form::kDot) {
    const size_t groups = (g.kw + 3) / 4;
    w_.assign(g.kh * groups * cp_ * 4, 0);
    for (size_t c = 0; c < g.channels; ++c)
      for (size_t ky = 0; ky < g.kh; ++ky)
        for (size_t kx = 0; kx < g.kw; ++kx)
          w_[((ky * groups + kx / 4) * cp_ + c) * 4 + kx % 4] = w[c * taps + ky * g.kw + kx];
  } else {
    const size_t taps_even = (taps + 1) / 2 * 2;
    w_.assign(taps_even * cp_, 0);
    for (size_t c = 0; c < g.channels; ++c)
      for (size_t t = 0; t < taps; ++t) w_[t * cp_ + c] = w[c * taps + t];
  }
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
    if (form_ == Form::kDot) {
      // The quad input's border rows and its columns no window starts at
      // stay zero: only the interior rows' used columns are written.
      quads_.assign(n * hp * wp * cp_ * 4, 0);
      const size_t groups = (g_.kw + 3) / 4;
      offsets_.assign(g_.kh * groups, 0);
      for (size_t ky = 0; ky < g_.kh; ++ky)
        for (size_t gr = 0; gr < groups; ++gr)
          offsets_[ky * groups + gr] = (ky * g_.dh * wp + 4 * gr * g_.dw) * cp_ * 4;
    } else {
      x_.assign(n * hp * wp * cp_, 0);  // the border stays zero: only the inside is written
      offsets_.assign((taps + 1) / 2 * 2, 0);  // the extra tap reads offset 0, weight 0
      for (size_t ky = 0; ky < g_.kh; ++ky)
        for (size_t kx = 0; kx < g_.kw; ++kx)
          offsets_[ky * g_.kw + kx] = (ky * g_.dh * wp + kx * g_.dw) * cp_;
    }
    n_ = n;
    h_ = h;
    wd_ = w;
  }
  const int8_t* levels = x_.data();
  if (form_ == Form::kDot) {
#ifdef __aarch64__
    // Windows start at columns ox * sw, and their groups 4 dw apart: with
    // 4 dw a multiple of sw only every sw-th column is read.
    const size_t every = (4 * g_.dw) % g_.sw == 0 ? g_.sw : 1;
    for (size_t i = 0; i < n; ++i) {
      Int8DepthwiseQuads(x + i * h * w * c, h, w, c, x + n * h * w * c, g_.left, wp, cp_, g_.dw,
                         every, quads_.data() + (i * hp + g_.top) * wp * cp_ * 4);
    }
#endif
    levels = quads_.data();
  } else {
    CopyIntoBorder(x, n, h, w, c, cp_, g_.top, g_.left, hp, wp, x_.data());
  }
  const size_t oh = (hp - (g_.kh - 1) * g_.dh - 1) / g_.sh + 1;
  const size_t ow = (wp - (g_.kw - 1) * g_.dw - 1) / g_.sw + 1;
  RunContext ctx{{levels, w_.data(), offsets_.data(), scale_.data(), bias_.data(),
                  form_ == Form::kScalar ? taps : offsets_.size(), g_.kh, g_.kw, cp_, c, hp,
                  wp, oh, ow, g_.sh,
                  g_.sw, lo_, hi_},
                 form_, y};
  pthreadpool_parallelize_1d(pool, RunRow, &ctx, n * oh, 0);
}

}  // namespace arm
}  // namespace lite
