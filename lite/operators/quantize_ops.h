// The quantization ops of PaddleSlim programs, computed in float32 exactly as
// Paddle's kernels simulate them (arithmetic in quant_math.h):
//
// fake_quantize_dequantize_moving_average_abs_max (activations):
//   X, InScale (a one-element weight) -> Out = quant-dequant of X with scale
//   InScale. Inference form: the scale is read, never updated; OutScale (the
//   same var as InScale in exported programs) is not written.
// fake_channel_wise_quantize_dequantize_abs_max (weights):
//   X -> Out with one scale per index of quant_axis (0 or 1), each the max
//   |X| over the other dims; OutScale, when bound, receives those scales.
// quantize_linear:   X, Scale, ZeroPoint -> Y = integer levels (as float32)
// dequantize_linear: X, Scale, ZeroPoint -> Y = X * Scale / bin_cnt
//   quant_axis -1: Scale holds one value; otherwise one per X.dims[axis].
//   ZeroPoint must be all zeros (Paddle's symmetric quantization).
//
// Attributes: bit_length (only 8 is accepted), round_type (absent: 1 for the
// fake_* ops, exported before the attribute existed; 0 for *_linear),
// qmin / qmax of the *_linear ops (only -128 / 127 when present),
// only_observer of the *_linear ops (true: Y is a copy of X, as Paddle's
// kernels do; the scale is still checked).
// A scale that is not a weight, or is zero, negative or not finite, a
// bit_length other than 8 and a quant_axis out of range are errors naming the
// op, raised when the predictor is created. The op owns its param struct.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct QuantParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // nullptr: per-channel abs-max of X
  Tensor* out = nullptr;
  Tensor* out_scale = nullptr;  // channel-wise op only, optional
  int bit_length = 8;
  int quant_axis = -1;  // -1: one scale for the whole tensor
  int round_type = 1;
  bool only_observer = false;  // *_linear: Y = X (Paddle's observer-only form)
};

// Checks shared by the four ops and by quant_dequant_fuse_pass: bit_length
// 8, round_type 0 or 1. `who` names the op in the message.
Status CheckQuantAttrs(const std::string& who, int bit_length, int round_type);
// The *_linear ops' optional qmin / qmax attributes (Paddle 2.5+: the level
// range) must be the 8-bit defaults -128 / 127, the range the arithmetic of
// quant_math.h implements.
Status CheckLevelRange(const std::string& who, const cpp::OpDesc& desc);
// Every value of `scale` finite and > 0 (`what` names the var).
Status CheckScaleValues(const std::string& who, const std::string& what, const Tensor& scale);

class FakeQuantDequantOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  QuantParam param_;
};

// quantize_linear and dequantize_linear (the kernel tells them apart).
class LinearQuantOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  QuantParam param_;
};

}  // namespace operators
}  // namespace lite
