#include "lite/backends/npu/xnnpack/depthwise_conv.h"

#include <algorithm>

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
    if (bias) SetLane(&bias_[b], lane, bias[c]);
    for (int64_t t = 0; t < kh * kw; ++t) {
      SetLane(&w_[b * kh * kw + t], lane, filter[c * kh * kw + t]);
    }
  }
}

// P pixels, the full 8-channel blocks. Tap (ky, kx) of pixel p, block b is
// rows[ky][first + p * pixel_step + kx * tap_step + 8 * b]. KH and KW are
// the kernel's size when known at compile time (0: read from the object);
// the loops over pixels are unrolled so that the accumulators stay in
// registers, which -O2 does not do by itself.
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
        for (int p = 0; p < P; ++p) acc[p] += LoadVec8(at + p * pixel_step) * wv;
      }
    }
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p) StoreClamped(out + p * c_ + b * 8, acc[p], lo_, hi_, 8);
  }
}

// Output columns [x0, x1) of one row, every tap of which reads
// rows[ky][(x * stride - origin) * channels + ...]: four pixels at a time,
// then single ones; a last block of fewer than 8 channels pixel by pixel.
template <int KH, int KW>
void DepthwiseConv::Columns(const ConvGeometry& g, const float* const* rows, int64_t origin,
                            int64_t x0, int64_t x1, float* out) const {
  const int64_t pixel_step = g.stride_w * c_, tap_step = g.dilation_w * c_;
  auto first = [&](int64_t x) { return (x * g.stride_w - origin) * c_; };
  int64_t x = x0;
  for (; x + 4 <= x1; x += 4) {
    FullBlocks<4, KH, KW>(rows, first(x), pixel_step, tap_step, out + x * c_);
  }
  for (; x < x1; ++x) FullBlocks<1, KH, KW>(rows, first(x), pixel_step, tap_step, out + x * c_);
  if (tail_ == 0) return;
  const int64_t b = full_blocks_;
  for (x = x0; x < x1; ++x) {
    const Vec8* w = &w_[static_cast<size_t>(b * kh_ * kw_)];
    Vec8 acc = bias_[b];
    for (int64_t ky = 0; ky < kh_; ++ky) {
      for (int64_t kx = 0; kx < kw_; ++kx, ++w) {
        acc += LoadLanes(rows[ky] + first(x) + kx * tap_step + b * 8, tail_) * *w;
      }
    }
    StoreClamped(out + x * c_ + b * 8, acc, lo_, hi_, tail_);
  }
}

// Border columns [x0, x1): their taps' input columns, zeros outside the
// image, are copied into a patch first, which they then read as interior
// columns do.
template <int KH, int KW>
void DepthwiseConv::Border(const ConvGeometry& g, const float* const* rows, int64_t x0,
                           int64_t x1, std::vector<float>* patch, float* out) const {
  if (x0 >= x1) return;
  const int64_t begin = x0 * g.stride_w - g.pad_left;  // the first input column read
  const int64_t width = (x1 - 1 - x0) * g.stride_w + (kw_ - 1) * g.dilation_w + 1;
  const size_t row_floats = static_cast<size_t>(width * c_);
  if (patch->size() < kh_ * row_floats) patch->resize(kh_ * row_floats);
  const float* patch_rows[kMaxKernel];
  for (int64_t ky = 0; ky < kh_; ++ky) {
    float* dst = patch->data() + ky * row_floats;
    const int64_t inside_begin = std::max<int64_t>(begin, 0);
    const int64_t inside_end = std::max(inside_begin, std::min(begin + width, g.iw));
    std::fill(dst, dst + (inside_begin - begin) * c_, 0.f);
    std::copy(rows[ky] + inside_begin * c_, rows[ky] + inside_end * c_,
              dst + (inside_begin - begin) * c_);
    std::fill(dst + (inside_end - begin) * c_, dst + row_floats, 0.f);
    patch_rows[ky] = dst;
  }
  // Column x reads the patch from (x * stride - pad_left - begin) on.
  Columns<KH, KW>(g, patch_rows, g.pad_left + begin, x0, x1, out);
}

template <int KH, int KW>
void DepthwiseConv::Row(const ConvGeometry& g, const float* const* rows, int64_t x0, int64_t x1,
                        std::vector<float>* patch, float* out) const {
  Columns<KH, KW>(g, rows, g.pad_left, x0, x1, out);
  Border<KH, KW>(g, rows, 0, x0, patch, out);
  Border<KH, KW>(g, rows, x1, g.ow, patch, out);
}

void DepthwiseConv::RunRow(const ConvGeometry& g, const float* in, float* out, int64_t row,
                           Scratch* scratch) const {
  const int64_t row_floats = g.iw * c_;
  // Never written, so it stays zeros as it grows.
  if (scratch->zeros.size() < static_cast<size_t>(row_floats)) {
    scratch->zeros.assign(static_cast<size_t>(row_floats), 0.f);
  }
  const float* rows[kMaxKernel];
  g.TapRows(in, row_floats, row, kh_, scratch->zeros.data(), rows);
  int64_t x0, x1;
  g.InteriorColumns(kw_, &x0, &x1);
  float* dst = out + row * g.ow * c_;
  // det's and most mobile backbones' kernels unrolled in full.
  if (kh_ == 3 && kw_ == 3) {
    Row<3, 3>(g, rows, x0, x1, &scratch->patch, dst);
  } else if (kh_ == 5 && kw_ == 5) {
    Row<5, 5>(g, rows, x0, x1, &scratch->patch, dst);
  } else {
    Row<0, 0>(g, rows, x0, x1, &scratch->patch, dst);
  }
}

struct DepthwiseConv::Rows {
  const DepthwiseConv* conv;
  const ConvGeometry* g;
  const float* in;
  float* out;
  static void Run(void* context, size_t row) {
    thread_local Scratch scratch;
    auto* r = static_cast<Rows*>(context);
    r->conv->RunRow(*r->g, r->in, r->out, static_cast<int64_t>(row), &scratch);
  }
};

void DepthwiseConv::Run(const ConvGeometry& g, const float* in, float* out,
                        pthreadpool_t pool) const {
  Rows r{this, &g, in, out};
  pthreadpool_parallelize_1d(pool, &Rows::Run, &r, static_cast<size_t>(g.n * g.oh), 0);
}

}  // namespace npu
}  // namespace lite
