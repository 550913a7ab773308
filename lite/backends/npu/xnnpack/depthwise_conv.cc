#include "lite/backends/npu/xnnpack/depthwise_conv.h"

#include <algorithm>
#include <cstring>

namespace lite {
namespace npu {

DepthwiseConv::DepthwiseConv(const float* filter, const float* bias, int64_t channels,
                             int64_t kh, int64_t kw, float lo, float hi)
    : c_(channels), kh_(kh), kw_(kw), full_blocks_(channels / 8), tail_(channels % 8),
      lo_(lo), hi_(hi) {
  const int64_t blocks = (channels + 7) / 8;
  w_.assign(static_cast<size_t>(blocks * kh * kw), Vec8{});
  bias_.assign(static_cast<size_t>(blocks), Vec8{});
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t b = c / 8, lane = c % 8;
    if (bias) bias_[b][lane] = bias[c];
    for (int64_t t = 0; t < kh * kw; ++t) w_[b * kh * kw + t][lane] = filter[c * kh * kw + t];
  }
}

namespace {

typedef float Vec8 __attribute__((vector_size(32)));

// `lanes` floats at p into a vector (the rest zero); 8 is one unaligned
// load. (A memcpy of a variable length would be a library call.)
inline Vec8 Load(const float* p, int64_t lanes) {
  Vec8 v = {};
  if (lanes == 8) {
    std::memcpy(&v, p, sizeof v);
  } else {
    for (int64_t i = 0; i < lanes; ++i) v[i] = p[i];
  }
  return v;
}

inline void Store(float* p, Vec8 v, float lo, float hi, int64_t lanes) {
  v = v < lo ? lo : v;  // lanewise select; NaN passes through
  v = v > hi ? hi : v;
  if (lanes == 8) {
    std::memcpy(p, &v, sizeof v);
  } else {
    for (int64_t i = 0; i < lanes; ++i) p[i] = v[i];
  }
}

}  // namespace

// P interior pixels from output column x, the full 8-channel blocks. Tap
// (ky, kx) of pixel p, block b is rows[ky][first + p * pixel_step + kx *
// tap_step + 8 * b]. KH and KW are the kernel's size when known at compile
// time (0: read from the object); the loops over pixels are unrolled so
// that the accumulators stay in registers, which -O2 does not do by itself.
template <int P, int KH, int KW>
void DepthwiseConv::FullBlocks(const float* const* rows, int64_t first, int64_t pixel_step,
                               int64_t tap_step, float* out) const {
  const int64_t kh = KH > 0 ? KH : kh_, kw = KW > 0 ? KW : kw_;
  for (int64_t b = 0; b < full_blocks_; ++b) {
    const Vec8* w = &w_[static_cast<size_t>(b * kh * kw)];
    Vec8 acc[P];
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) acc[p] = bias_[b];
    for (int64_t ky = 0; ky < kh; ++ky) {
      const float* at = rows[ky] + first + b * 8;
      for (int64_t kx = 0; kx < kw; ++kx, at += tap_step, ++w) {
        const Vec8 wv = *w;
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
          Vec8 v;
          std::memcpy(&v, at + p * pixel_step, sizeof v);
          acc[p] += v * wv;
        }
      }
    }
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) Store(out + p * c_ + b * 8, acc[p], lo_, hi_, 8);
  }
}

// Interior columns [x0, x1) of one output row: four pixels at a time, then
// single ones; a tail of fewer than 8 channels pixel by pixel.
template <int KH, int KW>
void DepthwiseConv::Interior(const ConvGeometry& g, const float* const* rows, int64_t x0,
                             int64_t x1, float* out) const {
  const int64_t pixel_step = g.stride_w * c_, tap_step = g.dilation_w * c_;
  auto first = [&](int64_t x) { return (x * g.stride_w - g.pad_left) * c_; };  // >= 0 inside
  int64_t x = x0;
  for (; x + 4 <= x1; x += 4) {
    FullBlocks<4, KH, KW>(rows, first(x), pixel_step, tap_step, out + x * c_);
  }
  for (; x < x1; ++x) FullBlocks<1, KH, KW>(rows, first(x), pixel_step, tap_step, out + x * c_);
  if (tail_ > 0) {
    for (x = x0; x < x1; ++x) Pixel(g, rows, x, full_blocks_, out);
  }
}

// Output column x, blocks from `block` on: the taps inside the input only.
void DepthwiseConv::Pixel(const ConvGeometry& g, const float* const* rows, int64_t x,
                          int64_t block, float* out) const {
  const int64_t blocks = full_blocks_ + (tail_ > 0 ? 1 : 0);
  for (int64_t b = block; b < blocks; ++b) {
    const int64_t lanes = b < full_blocks_ ? 8 : tail_;
    const Vec8* w = &w_[static_cast<size_t>(b * kh_ * kw_)];
    Vec8 acc = bias_[b];
    for (int64_t ky = 0; ky < kh_; ++ky) {
      for (int64_t kx = 0; kx < kw_; ++kx) {
        const int64_t ix = x * g.stride_w - g.pad_left + kx * g.dilation_w;
        if (ix < 0 || ix >= g.iw) continue;
        acc += Load(rows[ky] + ix * c_ + b * 8, lanes) * w[ky * kw_ + kx];
      }
    }
    Store(out + x * c_ + b * 8, acc, lo_, hi_, lanes);
  }
}

void DepthwiseConv::RunRow(const ConvGeometry& g, const float* in, float* out, int64_t row,
                           std::vector<float>* zeros) const {
  const int64_t row_floats = g.iw * c_;
  // Never written, so it stays zeros as it grows.
  if (zeros->size() < static_cast<size_t>(row_floats)) {
    zeros->assign(static_cast<size_t>(row_floats), 0.f);
  }
  const float* rows[kMaxKernel];
  g.TapRows(in, row_floats, row, kh_, zeros->data(), rows);
  int64_t x0, x1;
  g.InteriorColumns(kw_, &x0, &x1);
  float* dst = out + row * g.ow * c_;
  // det's and most mobile backbones' kernels unrolled in full.
  if (kh_ == 3 && kw_ == 3) {
    Interior<3, 3>(g, rows, x0, x1, dst);
  } else if (kh_ == 5 && kw_ == 5) {
    Interior<5, 5>(g, rows, x0, x1, dst);
  } else {
    Interior<0, 0>(g, rows, x0, x1, dst);
  }
  for (int64_t x = 0; x < x0; ++x) Pixel(g, rows, x, 0, dst);
  for (int64_t x = x1; x < g.ow; ++x) Pixel(g, rows, x, 0, dst);
}

struct DepthwiseConv::Row {
  const DepthwiseConv* conv;
  const ConvGeometry* g;
  const float* in;
  float* out;
  static void Run(void* context, size_t row) {
    thread_local std::vector<float> zeros;
    auto* r = static_cast<Row*>(context);
    r->conv->RunRow(*r->g, r->in, r->out, static_cast<int64_t>(row), &zeros);
  }
};

void DepthwiseConv::Run(const ConvGeometry& g, const float* in, float* out,
                        pthreadpool_t pool) const {
  Row r{this, &g, in, out};
  pthreadpool_parallelize_1d(pool, &Row::Run, &r, static_cast<size_t>(g.n * g.oh), 0);
}

}  // namespace npu
}  // namespace lite
