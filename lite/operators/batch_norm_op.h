// batch_norm (inference): Y = (X - Mean) / sqrt(Variance + epsilon) * Scale + Bias
// per channel (dim 1 of a 2-D..5-D NC... tensor).
//
// Always uses the Mean / Variance inputs (is_test / use_global_stats /
// momentum are training-only and ignored). Scale and Bias are optional
// (default 1 and 0). data_layout NCHW / NCDHW / AnyLayout; channel-last
// layouts return Unimplemented. Optional outputs MeanOut / VarianceOut
// (copies of Mean / Variance) and SavedMean / SavedVariance (zeros) are sized
// [C] when bound.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct BatchNormParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // optional
  const Tensor* bias = nullptr;   // optional
  const Tensor* mean = nullptr;
  const Tensor* variance = nullptr;
  Tensor* y = nullptr;
  Tensor* mean_out = nullptr;        // optional
  Tensor* variance_out = nullptr;    // optional
  Tensor* saved_mean = nullptr;      // optional
  Tensor* saved_variance = nullptr;  // optional
  float epsilon = 1e-5f;
  std::string data_layout = "NCHW";
};

}  // namespace operators
}  // namespace lite
