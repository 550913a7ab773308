// The int8 forms of conv2d and of fc / mul / matmul(_v2) as the bridges see
// them, and the NN IR pieces they become: the float input quantized by a
// kQuantize with the op's Input_scale, the int8 weight levels marked
// per-channel with Filter_scales / 127. Plain functions on the bridge's
// model; the op keeps owning its attributes and the context its operands.
#pragma once

#include <string>
#include <vector>

#include "lite/kernels/npu/bridges/bridge.h"

namespace lite {
namespace npu {

// The attributes quant_dequant_fuse_pass sets on an int8 consumer (the
// contract of lite/operators/conv_op.h): `enable_int8`, `Input_scale` (the
// input's levels are x * 127 / Input_scale), `Filter_scales` (one per output
// channel: weight = level * scale / 127) and `quant_round_type` (0 ties to
// even, 1 half away from zero).
struct Int8Form {
  bool enabled = false;
  float input_scale = 0.f;
  std::vector<float> filter_scales;
  int round_type = 1;
};

// Reads the int8 form from `op`'s desc; enabled false when enable_int8 is
// absent or false. A malformed form (Input_scale not > 0, round type not 0
// or 1) is an error naming the op.
StatusOr<Int8Form> ReadInt8Form(const OpLite& op);

// Marks the int8 constant `w` quantized per channel along `axis` with
// scales |filter_scales[c]| / 127. NN IR scales are > 0, so a channel with
// a negative scale (batch norm folded into it) gets negated levels and one
// with a zero scale zero levels. Errors (naming `param`) when `w` is not
// int8 or the scale count differs from dims[axis].
Status MarkChannelQuantized(const OpLite& op, BridgeContext* ctx, const std::string& param,
                            int w, int axis, const std::vector<float>& filter_scales);

// Adds a kQuantize of the float operand `x` (named after `var`) to int8
// levels of scale input_scale / 127; returns the int8 operand.
int QuantizedInput(BridgeContext* ctx, const OpLite& op, int x, const std::string& var,
                   float input_scale, int round_type);

}  // namespace npu
}  // namespace lite
