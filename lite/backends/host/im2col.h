// im2col / col2im for 2-D convolution windows (NCHW, one image at a time).
//
// The column buffer is row-major [C * kh * kw, out_h * out_w]: row
// (c, i, j) holds input pixel (oh*sh - pad_top + i*dh, ow*sw - pad_left + j*dw)
// for every output position, or 0 where that falls in the padding. Only the
// top/left paddings are needed; bottom/right padding is implied by out_h/out_w.
// Im2Col feeds conv2d's GEMM; Col2Im (its adjoint, accumulating) finishes
// conv2d_transpose.
#pragma once

#include <cstdint>

namespace lite {
namespace kernels {
namespace host {

struct ConvWindow {
  int kh = 1, kw = 1;
  int stride_h = 1, stride_w = 1;
  int pad_top = 0, pad_left = 0;
  int dil_h = 1, dil_w = 1;
};

// im [channels, height, width] -> col [channels*kh*kw, out_h*out_w].
void Im2Col(const float* im, int channels, int height, int width,
            const ConvWindow& win, int out_h, int out_w, float* col);

// The columns of output rows [oh_begin, oh_end) only:
// col [channels*kh*kw, (oh_end - oh_begin)*out_w] (for spatially blocked GEMM).
void Im2ColRows(const float* im, int channels, int height, int width,
                const ConvWindow& win, int oh_begin, int oh_end, int out_w,
                float* col);

// Adds col [channels*kh*kw, col_h*col_w] into im [channels, height, width]
// (im must be initialised by the caller, e.g. zeroed).
void Col2ImAdd(const float* col, int channels, int height, int width,
               const ConvWindow& win, int col_h, int col_w, float* im);

}  // namespace host
}  // namespace kernels
}  // namespace lite
