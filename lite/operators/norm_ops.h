// Normalization ops other than batch_norm:
//  - instance_norm: per (n, c) over the spatial dims of X [N, C, ...];
//    Y = (x - mean) / sqrt(var + epsilon) * Scale[c] + Bias[c] (Scale / Bias
//    optional). Optional SavedMean / SavedVariance [N*C] get the mean and
//    1 / sqrt(var + epsilon), like Paddle.
//  - layer_norm: X flattened to [left, right] at begin_norm_axis (default 1,
//    must be in [1, rank)); each row normalised, then * Scale + Bias (both
//    optional, `right` values). Optional Mean / Variance get the row mean and
//    (biased) variance, dims X.dims[0 : begin_norm_axis].
//  - lrn: across channels of NCHW X, Paddle's formula
//    mid = k + alpha * sum_{j = c - (n-1)/2}^{c + n/2} x_j^2 (alpha is NOT
//    divided by n), Out = x * mid^-beta; optional MidOut = mid. n must be a
//    positive odd number; NHWC returns Unimplemented.
// All variances are population (divide by count). epsilon defaults to 1e-5.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct InstanceNormParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // optional
  const Tensor* bias = nullptr;   // optional
  Tensor* y = nullptr;
  Tensor* saved_mean = nullptr;      // optional
  Tensor* saved_variance = nullptr;  // optional
  float epsilon = 1e-5f;
};

struct LayerNormParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // optional
  const Tensor* bias = nullptr;   // optional
  Tensor* y = nullptr;
  Tensor* mean = nullptr;      // optional
  Tensor* variance = nullptr;  // optional
  int begin_norm_axis = 1;
  float epsilon = 1e-5f;
};

struct LrnParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* mid_out = nullptr;  // optional
  int n = 5;
  float k = 2.f;
  float alpha = 1e-4f;
  float beta = 0.75f;
};

}  // namespace operators
}  // namespace lite
