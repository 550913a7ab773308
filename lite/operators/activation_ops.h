// Unary activation ops and prelu: Out = f(X), same shape and LoD as X.
//
// ActivationOp serves every parameter-free or attribute-only activation
// (relu, tanh, sigmoid, relu6, leaky_relu, hard_swish, hard_sigmoid, swish,
// gelu, exp, log, sqrt, abs); its param carries the kind and the attributes,
// parsed once with Paddle's defaults for that op type. PReluOp takes its
// slopes from the Alpha input (mode "all", "channel" or "element").
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class ActivationKind {
  kRelu, kTanh, kSigmoid, kRelu6, kLeakyRelu, kHardSwish, kHardSigmoid,
  kSwish, kGelu, kExp, kLog, kSqrt, kAbs,
};

struct ActivationParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  std::string act_type;  // the op type: "relu", "leaky_relu", ...
  ActivationKind kind = ActivationKind::kRelu;
  float alpha = 0.02f;       // leaky_relu
  float threshold = 6.0f;    // relu6, hard_swish
  float scale = 6.0f;        // hard_swish
  float offset = 3.0f;       // hard_swish (3.0); hard_sigmoid (0.5)
  float slope = 0.2f;        // hard_sigmoid
  float beta = 1.0f;         // swish
  bool approximate = false;  // gelu: tanh approximation
};

// prelu: Out = X > 0 ? X : alpha * X, alpha broadcast per `mode`:
// "all" one value, "channel" one per channel (dim 1 for NCHW, last dim for
// NHWC), "element" one per element of a sample (X.numel() / X.dims[0]).
struct PReluParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* alpha = nullptr;
  Tensor* out = nullptr;
  std::string mode = "all";
  bool channel_last = false;  // data_format "NHWC"
};

}  // namespace operators
}  // namespace lite
