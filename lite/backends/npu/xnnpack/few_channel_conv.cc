#include "lite/backends/npu/xnnpack/few_channel_conv.h"

#include <algorithm>
#include <cstring>

namespace lite {
namespace npu {

FewChannelConv::FewChannelConv(const float* filter, const float* bias, int64_t oc, int64_t ic,
                               int64_t kh, int64_t kw, float lo, float hi)
    : oc_(oc), ic_(ic), kh_(kh), kw_(kw), blocks_((oc + 7) / 8), lo_(lo), hi_(hi) {
  w_.assign(static_cast<size_t>(blocks_ * kh * kw * ic), Vec8{});
  bias_.assign(static_cast<size_t>(blocks_), Vec8{});
  for (int64_t o = 0; o < oc; ++o) {
    const int64_t b = o / 8, lane = o % 8;
    if (bias) bias_[b][lane] = bias[o];
    for (int64_t c = 0; c < ic; ++c) {
      for (int64_t y = 0; y < kh; ++y) {
        for (int64_t x = 0; x < kw; ++x) {
          w_[((b * kh + y) * kw + x) * ic + c][lane] = filter[((o * ic + c) * kh + y) * kw + x];
        }
      }
    }
  }
}

// P output pixels from column x of one output row, every block of output
// channels. patch holds kh rows of patch_stride floats (the padded input
// row, channels innermost).
template <int P>
void FewChannelConv::Block(const float* patch, int64_t patch_stride, int64_t x, int64_t stride_w,
                           int64_t dilation_w, float* out) const {
  for (int64_t b = 0; b < blocks_; ++b) {
    Vec8 acc[P];
    for (int p = 0; p < P; ++p) acc[p] = bias_[b];
    const Vec8* w = &w_[static_cast<size_t>(b * kh_ * kw_ * ic_)];
    for (int64_t ky = 0; ky < kh_; ++ky) {
      const float* row = patch + ky * patch_stride + x * stride_w * ic_;
      for (int64_t kx = 0; kx < kw_; ++kx) {
        const float* at = row + kx * dilation_w * ic_;
        for (int64_t c = 0; c < ic_; ++c, ++w) {
          const Vec8 wv = *w;
          for (int p = 0; p < P; ++p) acc[p] += at[p * stride_w * ic_ + c] * wv;
        }
      }
    }
    const int64_t lanes = std::min<int64_t>(8, oc_ - b * 8);
    for (int p = 0; p < P; ++p) {
      Vec8 v = acc[p];
      v = v < lo_ ? lo_ : v;  // lanewise select; NaN passes through
      v = v > hi_ ? hi_ : v;
      std::memcpy(out + p * oc_ + b * 8, &v, sizeof(float) * static_cast<size_t>(lanes));
    }
  }
}

void FewChannelConv::RunRow(const Geometry& g, const float* in, float* out, int64_t row,
                            std::vector<float>* patch) const {
  const int64_t n = row / g.oh, oy = row % g.oh;
  const int64_t cols = (g.ow - 1) * g.stride_w + (kw_ - 1) * g.dilation_w + 1;
  const int64_t stride = cols * ic_;
  patch->assign(static_cast<size_t>(kh_ * stride), 0.f);
  // The columns of the input inside the patch: [x0, x1) of the input row.
  const int64_t x0 = std::max<int64_t>(0, g.pad_left);
  const int64_t x1 = std::min<int64_t>(cols, g.iw + g.pad_left);
  for (int64_t ky = 0; ky < kh_; ++ky) {
    const int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dilation_h;
    if (iy < 0 || iy >= g.ih || x1 <= x0) continue;
    const float* src = in + ((n * g.ih + iy) * g.iw + (x0 - g.pad_left)) * ic_;
    std::memcpy(patch->data() + ky * stride + x0 * ic_, src,
                sizeof(float) * static_cast<size_t>((x1 - x0) * ic_));
  }
  float* dst = out + (n * g.oh + oy) * g.ow * oc_;
  int64_t x = 0;
  for (; x + 8 <= g.ow; x += 8) {
    Block<8>(patch->data(), stride, x, g.stride_w, g.dilation_w, dst + x * oc_);
  }
  for (; x < g.ow; ++x) Block<1>(patch->data(), stride, x, g.stride_w, g.dilation_w, dst + x * oc_);
}

struct FewChannelConv::Row {
  const FewChannelConv* conv;
  const Geometry* g;
  const float* in;
  float* out;
  static void Run(void* context, size_t row) {
    thread_local std::vector<float> patch;
    auto* r = static_cast<Row*>(context);
    r->conv->RunRow(*r->g, r->in, r->out, static_cast<int64_t>(row), &patch);
  }
};

void FewChannelConv::Run(const Geometry& g, const float* in, float* out,
                         pthreadpool_t pool) const {
  Row r{this, &g, in, out};
  pthreadpool_parallelize_1d(pool, &Row::Run, &r, static_cast<size_t>(g.n * g.oh), 0);
}

}  // namespace npu
}  // namespace lite
