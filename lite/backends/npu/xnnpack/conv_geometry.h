// ConvGeometry: one input size of a 2-D convolution over NHWC data, and the
// two questions the driver's own direct convolutions (FewChannelConv,
// DepthwiseConv) ask of it for each output row: which input rows its tap
// rows read, and which output columns have every tap inside the input.
#pragma once

#include <algorithm>
#include <cstdint>

namespace lite {
namespace npu {

struct ConvGeometry {
  int64_t n = 1, ih = 0, iw = 0, oh = 0, ow = 0;
  int64_t stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0;
  int64_t dilation_h = 1, dilation_w = 1;

  // rows[ky] for output row `row` (of n * oh): the start of the input row
  // that tap row ky reads in `in` (rows of `row_floats`), or `zeros` when
  // that row lies in the padding.
  void TapRows(const float* in, int64_t row_floats, int64_t row, int64_t kh, const float* zeros,
               const float** rows) const {
    const int64_t image = row / oh, oy = row % oh;
    for (int64_t ky = 0; ky < kh; ++ky) {
      const int64_t iy = oy * stride_h - pad_top + ky * dilation_h;
      rows[ky] = iy < 0 || iy >= ih ? zeros : in + (image * ih + iy) * row_floats;
    }
  }

  // The output columns [*x0, *x1) whose kw taps all lie inside the input
  // columns: x * sw - pl >= 0 and x * sw - pl + (kw - 1) * dw <= iw - 1.
  void InteriorColumns(int64_t kw, int64_t* x0, int64_t* x1) const {
    const int64_t last = iw - 1 - (kw - 1) * dilation_w + pad_left;
    const int64_t first = (pad_left + stride_w - 1) / stride_w;
    *x0 = std::min(first, ow);
    *x1 = std::max(*x0, std::min(last < 0 ? 0 : last / stride_w + 1, ow));
  }
};

}  // namespace npu
}  // namespace lite
