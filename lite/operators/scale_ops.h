// Element-wise ops with scalar parameters: scale, dropout (inference form),
// cast and clip. All keep X's dims and LoD.
//
// scale:   Out = bias_after_scale ? s*X + b : s*(X + b); s from ScaleTensor
//          when given. Honours FusedActivation (fuse_*) and Paddle-Lite's
//          activation_type (relu, relu6, leaky_relu with "alpha").
// dropout: "downgrade_in_infer" Out = X * (1 - dropout_prob);
//          "upscale_in_train" Out = X. Mask is not written.
// cast:    in_dtype/out_dtype are Paddle VarType codes; FP16 is Unimplemented.
// clip:    Out = min(max(X, min), max); Min/Max tensors override the attrs.
#pragma once

#include <string>

#include "lite/core/op_lite.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace operators {

struct ScaleParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale_tensor = nullptr;  // optional ScaleTensor
  Tensor* out = nullptr;
  float scale = 1.f;
  float bias = 0.f;
  bool bias_after_scale = true;
  FusedActivation act;
};

struct DropoutParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  float dropout_prob = 0.5f;
  bool upscale_in_train = false;  // else downgrade_in_infer
};

// Paddle VarType::Type element code -> DataType (kUnknown when not an
// element type this engine supports; FP16 maps to kFloat16).
DataType CastCodeToDataType(int code);

struct CastParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int in_code = 5;
  int out_code = 5;
  DataType out_dtype = DataType::kFloat32;
};

struct ClipParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* min_tensor = nullptr;  // optional Min
  const Tensor* max_tensor = nullptr;  // optional Max
  Tensor* out = nullptr;
  float min = 0.f;
  float max = 0.f;
};

}  // namespace operators
}  // namespace lite
