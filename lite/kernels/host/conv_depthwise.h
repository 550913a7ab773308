// Direct depthwise 2-D convolution (channel multiplier 1) for one NCHW image.
//
// Each of the `channels` input planes is convolved with its own kh x kw
// filter (filter layout [channels, 1, kh, kw]) into the matching output
// plane. Any kernel size, stride, padding and dilation; rows are accumulated
// tap by tap over the valid output range, so the inner loop has no bounds
// checks. Bias and activation are left to the caller.
#pragma once

#include "lite/kernels/host/im2col.h"

namespace lite {
namespace kernels {
namespace host {

void DepthwiseConv2d(const float* in, int channels, int height, int width,
                     const float* filter, const ConvWindow& win, int out_h,
                     int out_w, float* out);

}  // namespace host
}  // namespace kernels
}  // namespace lite
