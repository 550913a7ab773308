// squeeze_excitation: a whole squeeze-excitation block in one op, made by
// se_block_fuse_pass from MobileNetV3-style blocks (avg pool to 1x1, 1x1
// conv + activation, 1x1 conv, gate activation, per-channel multiply).
// For X of dims [N, C, H, W]:
//   m   = mean of X over H and W                          [N, C]
//   h   = act(SqueezeFilter . m + SqueezeBias)            [N, R]
//   g   = y_act(ExciteFilter . h + ExciteBias)            [N, C]
//   Out = X * g, g broadcast over H and W                 X's dims
// SqueezeFilter is [R, C, 1, 1], ExciteFilter [C, R, 1, 1] (conv filters);
// the biases ([R], [C]) are optional. `act` comes from the fuse_* attributes
// (FusedActivation) and `y_act` from the y_activation family (as on
// elementwise_mul: the activation of the multiplier).
// From a quantized model (int8 convs, see conv_op.h) the block also carries
// `Squeeze_input_scale` / `Squeeze_round_type` and `Excite_input_scale` /
// `Excite_round_type`: m and h are then quantized and dequantized with them
// (lite/base/quant_math.h, bin_cnt 127) before their product, as the
// fake quant ops before each conv compute; the filters are the dequantized
// weights. An absent scale means no quantization there. int8_requantize_pass
// may make Out int8 levels (SqueezeExcitationParam::levels, levels_output.h;
// x86 kernel). The four ops' outputs
// in between are never written: on small feature maps the block costs about
// what one of its ops did.
#pragma once

#include "lite/core/op_lite.h"
#include "lite/base/fused_activation.h"
#include "lite/operators/levels_output.h"

namespace lite {
namespace operators {

struct SqueezeExcitationParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* squeeze_filter = nullptr;  // [R, C, 1, 1]
  const Tensor* squeeze_bias = nullptr;    // [R] or null
  const Tensor* excite_filter = nullptr;   // [C, R, 1, 1]
  const Tensor* excite_bias = nullptr;     // [C] or null
  Tensor* out = nullptr;
  FusedActivation act;    // on the squeezed values h
  FusedActivation y_act;  // on the gate g
  // Quant-dequant of m and h before the products; scale 0: none.
  float squeeze_input_scale = 0.f;
  int squeeze_round_type = 1;
  float excite_input_scale = 0.f;
  int excite_round_type = 1;
  LevelsOutput levels;  // Out as int8 levels (x86 kernel)
};

// v[0, n) = quant-dequant of v with `scale` by `round_type`'s rule (bin_cnt
// 127); nothing when scale is 0 (no quantization).
void QuantDequantInPlace(float scale, int round_type, float* v, int64_t n);

}  // namespace operators
}  // namespace lite
