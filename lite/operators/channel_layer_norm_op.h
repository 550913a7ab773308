// channel_layer_norm (fused, made by layer_norm_fuse_pass): LayerNorm over
// the channels of a rank-4 NCHW activation, the form image-restoration nets
// (NAFNet's LayerNorm2d) write as reduce_mean / sub / pow / sqrt / div ops
// over dim 1; no Paddle op computes it (layer_norm normalizes trailing dims).
// For every (n, h, w): Y = (x - mean_c) / sqrt(var_c + epsilon) * Scale[c] +
// Bias[c], mean and population variance over the C values; Scale and Bias
// (C values each) optional. Kernels: host (NCHW) and x86 (NHWC, where the
// channels are innermost and each pixel is one row of C values).
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ChannelLayerNormParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // optional
  const Tensor* bias = nullptr;   // optional
  Tensor* y = nullptr;
  float epsilon = 1e-5f;
};

}  // namespace operators
}  // namespace lite
