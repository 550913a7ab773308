#include "lite/kernels/host/conv_depthwise.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lite {
namespace kernels {
namespace host {

namespace {
// Output columns [lo, hi) whose input column ow*stride + offset is in [0, size).
inline void ValidCols(int offset, int stride, int size, int out, int* lo, int* hi) {
  int l = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int last = size - 1 - offset;
  int h = last < 0 ? 0 : last / stride + 1;
  l = std::min(l, out);
  h = std::min(h, out);
  *lo = l;
  *hi = std::max(h, l);
}

// One tap (weight wv at input column offset off_w) over an output row.
template <int kStride>
inline void AccumulateRow(const float* in_row, int off_w, int stride, int lo,
                          int hi, float wv, float* out_row) {
  const int s = kStride > 0 ? kStride : stride;
  for (int ow = lo; ow < hi; ++ow) out_row[ow] += wv * in_row[ow * s + off_w];
}
}  // namespace

void DepthwiseConv2d(const float* in, int channels, int height, int width,
                     const float* filter, const ConvWindow& win, int out_h,
                     int out_w, float* out) {
  const int ksize = win.kh * win.kw;
  // Per-tap valid output column range (independent of channel and row).
  std::vector<int> col_lo(win.kw), col_hi(win.kw), col_off(win.kw);
  for (int j = 0; j < win.kw; ++j) {
    col_off[j] = j * win.dil_w - win.pad_left;
    ValidCols(col_off[j], win.stride_w, width, out_w, &col_lo[j], &col_hi[j]);
  }
  for (int c = 0; c < channels; ++c) {
    const float* in_c = in + static_cast<int64_t>(c) * height * width;
    const float* w_c = filter + static_cast<int64_t>(c) * ksize;
    float* out_c = out + static_cast<int64_t>(c) * out_h * out_w;
    for (int oh = 0; oh < out_h; ++oh) {
      float* out_row = out_c + static_cast<int64_t>(oh) * out_w;
      std::fill(out_row, out_row + out_w, 0.f);
      for (int i = 0; i < win.kh; ++i) {
        const int ih = oh * win.stride_h - win.pad_top + i * win.dil_h;
        if (ih < 0 || ih >= height) continue;
        const float* in_row = in_c + static_cast<int64_t>(ih) * width;
        for (int j = 0; j < win.kw; ++j) {
          const float wv = w_c[i * win.kw + j];
          if (win.stride_w == 1) {
            AccumulateRow<1>(in_row, col_off[j], 1, col_lo[j], col_hi[j], wv, out_row);
          } else if (win.stride_w == 2) {
            AccumulateRow<2>(in_row, col_off[j], 2, col_lo[j], col_hi[j], wv, out_row);
          } else {
            AccumulateRow<0>(in_row, col_off[j], win.stride_w, col_lo[j], col_hi[j],
                             wv, out_row);
          }
        }
      }
    }
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
