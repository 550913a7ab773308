// Int8Gemm's packing, dispatch and scalar form (int8_gemm.h). Packed
// weight layouts, K padded with zero levels to a multiple of 16 (kp) and N
// with zero channels to whole blocks:
// - kDot: 8-channel blocks, per block kp / 4 quads of 32 bytes (channel c's
//   four levels at 4 c), the operand of vdotq_laneq_s32;
// - kScalar: the rows as given.
#include "lite/backends/arm/int8_gemm.h"

#include "lite/backends/arm/int8_border.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#ifdef __aarch64__
#include <cpuinfo.h>
#endif

namespace lite {
namespace arm {

namespace {

size_t RoundUp(size_t v, size_t to) { return (v + to - 1) / to * to; }

// The scalar form: the definition every other form matches bit for bit.
void RowsScalar(const Int8Gemm::Packed& p, const int8_t* x, size_t begin, size_t count,
                float* y) {
  for (size_t r = begin; r < begin + count; ++r) {
    const int8_t* xr = RowBase(p, x, r);
    for (size_t c = 0; c < p.n; ++c) {
      const int8_t* wc = p.w + c * p.k;
      int32_t sum = 0;
      for (size_t t = 0; t < p.taps; ++t)
        for (size_t i = 0; i < p.seg; ++i)
          sum += int32_t(xr[p.offsets[t] + i]) * int32_t(wc[t * p.seg + i]);
      const float v = std::fma(static_cast<float>(sum), p.scale[c], p.bias[c]);
      y[r * p.n + c] = std::min(std::max(v, p.lo), p.hi);
    }
  }
}

struct RunContext {
  Int8Gemm::Packed packed;
  Int8Gemm::Form form;
  const int8_t* x;
  float* y;
};

void RunTile(void* context, size_t begin, size_t count) {
  const RunContext& c = *static_cast<const RunContext*>(context);
  switch (c.form) {
#ifdef __aarch64__
    case Int8Gemm::Form::kDot: Int8GemmRowsDot(c.packed, c.x, begin, count, c.y); return;
#endif
    default: RowsScalar(c.packed, c.x, begin, count, c.y); return;
  }
}

}  // namespace

Int8Gemm::Form Int8Gemm::CpuForm() {
#ifdef __aarch64__
  static const Form form =
      cpuinfo_initialize() && cpuinfo_has_arm_neon_dot() ? Form::kDot : Form::kScalar;
  return form;
#else
  return Form::kScalar;
#endif
}

const char* Int8Gemm::name() const {
  return form_ == Form::kDot ? "int8_gemm_dot" : "int8_gemm_scalar";
}

bool Int8Gemm::Pack(const int8_t* w, size_t n, size_t k, const float* scale, const float* bias,
                    Form form, float lo, float hi) {
  if (std::find(w, w + n * k, int8_t{-128}) != w + n * k) return false;
#ifndef __aarch64__
  form = Form::kScalar;  // the SDOT form exists on aarch64 only
#endif
  form_ = form;
  n_ = n;
  k_ = k;
  lo_ = lo;
  hi_ = hi;
  const size_t block = form == Form::kDot ? 8 : 1;
  const size_t np = RoundUp(n, block);
  scale_.assign(np, 0.f);
  bias_.assign(np, 0.f);
  std::copy(scale, scale + n, scale_.begin());
  if (bias) std::copy(bias, bias + n, bias_.begin());
  if (form == Form::kScalar) {
    w_.assign(w, w + n * k);
    return true;
  }
  const size_t kp = RoundUp(k, 16);
  w_.assign(np * kp, 0);
  // Level i of channel c within its block's quad.
  const size_t group = 4;
  for (size_t c = 0; c < n; ++c) {
    const size_t nb = c / block, cb = c % block;
    for (size_t i = 0; i < k; ++i) {
      const size_t run = i / group, j = i % group;
      w_[(nb * (kp / group) + run) * block * group + cb * group + j] = w[c * k + i];
    }
  }
  return true;
}

void Int8Gemm::Run(const int8_t* x, size_t m, float* y, pthreadpool_t pool) const {
  static const size_t kNoOffset = 0;
  RunContext c{{w_.data(), scale_.data(), bias_.data(), n_, k_, m, lo_, hi_, &kNoOffset, 1, k_,
                false, 0, 0, 0, 0, 0, 0, 0},
               form_, x, y};
  // 32 rows a task: whole 4-row tiles, and enough tasks to split the
  // pixels of a small feature map over a few threads.
  pthreadpool_parallelize_1d_tile_1d(pool, RunTile, &c, m, 32, 0);
}

bool Int8Gemm::PackWindow(const int8_t* w, size_t n, const Window& g, const float* scale,
                          const float* bias, Form form, float lo, float hi) {
  const size_t taps = g.kh * g.kw, cp = RoundUp(g.c, 16);
  std::vector<int8_t> padded(n * taps * cp, 0);
  for (size_t o = 0; o < n; ++o)
    for (size_t t = 0; t < taps; ++t)
      std::memcpy(&padded[(o * taps + t) * cp], w + (o * taps + t) * g.c, g.c);
  if (!Pack(padded.data(), n, taps * cp, scale, bias, form, lo, hi)) return false;
  g_ = g;
  cp_ = cp;
  batch_ = h_ = w_in_ = 0;  // offsets and the border depend on the input's dims
  return true;
}

void Int8Gemm::RunWindow(const int8_t* x, size_t batch, size_t h, size_t w, float* y,
                         pthreadpool_t pool) {
  const size_t hp = h + g_.top + g_.bottom, wp = w + g_.left + g_.right, c = g_.c;
  if (batch != batch_ || h != h_ || w != w_in_) {
    x_.assign(batch * hp * wp * cp_, 0);  // border and padded channels stay zero
    offsets_.clear();
    for (size_t ky = 0; ky < g_.kh; ++ky)
      for (size_t kx = 0; kx < g_.kw; ++kx)
        offsets_.push_back((ky * g_.dh * wp + kx * g_.dw) * cp_);
    batch_ = batch;
    h_ = h;
    w_in_ = w;
  }
  CopyIntoBorder(x, batch, h, w, c, cp_, g_.top, g_.left, hp, wp, x_.data());
  const size_t oh = (hp - (g_.kh - 1) * g_.dh - 1) / g_.sh + 1;
  const size_t ow = (wp - (g_.kw - 1) * g_.dw - 1) / g_.sw + 1;
  const size_t m = batch * oh * ow;
  RunContext ctx{{w_.data(), scale_.data(), bias_.data(), n_, k_, m, lo_, hi_, offsets_.data(),
                  offsets_.size(), cp_, true, oh, ow, hp, wp, g_.sh, g_.sw, cp_},
                 form_, x_.data(), y};
  pthreadpool_parallelize_1d_tile_1d(pool, RunTile, &ctx, m, 32, 0);
}

}  // namespace arm
}  // namespace lite
