// Direct depthwise 2-D convolution (channel multiplier 1) for one NCHW image.
//
// Each of the `channels` input planes is convolved with its own kh x kw
// filter (filter layout [channels, 1, kh, kw]) into the matching output
// plane. Any kernel size, stride, padding and dilation. Per channel the
// input plane is copied into a zero-padded scratch plane, split into
// stride_w column phases so every tap reads contiguous memory; the inner
// loops then need no bounds checks. 3x3 and 5x5 with stride 1 or 2 (no
// dilation) are compile-time specialised, anything else uses a general loop
// over a tap-offset table. The optional bias (per channel) and fused
// activation are applied to each output row while it is hot.
#pragma once

#include <vector>

#include "lite/backends/host/im2col.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace kernels {
namespace host {

// `scratch` (optional) is reused across calls and grown as needed.
void DepthwiseConv2d(const float* in, int channels, int height, int width,
                     const float* filter, const ConvWindow& win, int out_h,
                     int out_w, float* out, const float* bias = nullptr,
                     const operators::FusedActivation* act = nullptr,
                     std::vector<float>* scratch = nullptr);

}  // namespace host
}  // namespace kernels
}  // namespace lite
