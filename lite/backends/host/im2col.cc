#include "lite/backends/host/im2col.h"

#include <algorithm>
#include <cstring>

namespace lite {
namespace kernels {
namespace host {

namespace {
// Output columns [lo, hi) whose input column ow*stride + offset is in [0, size).
inline void ValidRange(int offset, int stride, int size, int out, int* lo,
                       int* hi) {
  int l = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int last = size - 1 - offset;  // ow*stride <= last
  int h = last < 0 ? 0 : last / stride + 1;
  l = std::min(l, out);
  h = std::min(h, out);
  *lo = l;
  *hi = std::max(h, l);
}
}  // namespace

void Im2Col(const float* im, int channels, int height, int width,
            const ConvWindow& win, int out_h, int out_w, float* col) {
  Im2ColRows(im, channels, height, width, win, 0, out_h, out_w, col);
}

void Im2ColRows(const float* im, int channels, int height, int width,
                const ConvWindow& win, int oh_begin, int oh_end, int out_w,
                float* col) {
  const int64_t out_size = static_cast<int64_t>(oh_end - oh_begin) * out_w;
  for (int c = 0; c < channels; ++c) {
    const float* im_c = im + static_cast<int64_t>(c) * height * width;
    for (int i = 0; i < win.kh; ++i) {
      const int off_h = i * win.dil_h - win.pad_top;
      for (int j = 0; j < win.kw; ++j) {
        const int off_w = j * win.dil_w - win.pad_left;
        int lo, hi;
        ValidRange(off_w, win.stride_w, width, out_w, &lo, &hi);
        for (int oh = oh_begin; oh < oh_end; ++oh) {
          float* dst = col + static_cast<int64_t>(oh - oh_begin) * out_w;
          const int ih = oh * win.stride_h + off_h;
          if (ih < 0 || ih >= height) {
            std::memset(dst, 0, sizeof(float) * out_w);
            continue;
          }
          const float* row = im_c + static_cast<int64_t>(ih) * width;
          std::fill(dst, dst + lo, 0.f);
          if (win.stride_w == 1) {
            if (hi > lo) {
              std::memcpy(dst + lo, row + lo + off_w, sizeof(float) * (hi - lo));
            }
          } else {
            for (int ow = lo; ow < hi; ++ow) dst[ow] = row[ow * win.stride_w + off_w];
          }
          std::fill(dst + hi, dst + out_w, 0.f);
        }
        col += out_size;
      }
    }
  }
}

void Col2ImAdd(const float* col, int channels, int height, int width,
               const ConvWindow& win, int col_h, int col_w, float* im) {
  const int64_t col_size = static_cast<int64_t>(col_h) * col_w;
  for (int c = 0; c < channels; ++c) {
    float* im_c = im + static_cast<int64_t>(c) * height * width;
    for (int i = 0; i < win.kh; ++i) {
      const int off_h = i * win.dil_h - win.pad_top;
      for (int j = 0; j < win.kw; ++j) {
        const int off_w = j * win.dil_w - win.pad_left;
        int lo, hi;
        ValidRange(off_w, win.stride_w, width, col_w, &lo, &hi);
        for (int h = 0; h < col_h; ++h) {
          const int ih = h * win.stride_h + off_h;
          if (ih < 0 || ih >= height) continue;
          const float* src = col + static_cast<int64_t>(h) * col_w;
          float* row = im_c + static_cast<int64_t>(ih) * width;
          for (int w = lo; w < hi; ++w) row[w * win.stride_w + off_w] += src[w];
        }
        col += col_size;
      }
    }
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
