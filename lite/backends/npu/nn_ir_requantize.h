// Int8 outputs for quantized convolutions whose float output only reaches a
// quantize through a hard_swish (conv -> hard_swish -> quantize, the
// MobileNetV3 pattern of PaddleSlim models). Such a conv gets an int8
// output whose range covers every input of the hard_swish that changes the
// quantize's levels: from -offset (below, hard_swish is 0) to the larger of
// t - offset (above, it is the identity when threshold == scale) and the
// quantize's clip 127 * q (above, the quantize saturates). A dequantize
// then feeds the hard_swish. The conv output's extra rounding (one step of
// (hi - lo) / 255, asymmetric with a zero point) is the price of running
// the conv as an int8 convolution with int8 output, which XNNPACK's qs8
// convolution needs; every driver computes the rewritten model, so they
// agree. Applied by the NPU subgraph converter (lite/kernels/npu) to each
// converted model; plain function on a Model the caller owns.
#pragma once

#include "lite/backends/npu/nn_ir.h"

namespace lite {
namespace npu {

// Rewrites every such conv2d in `model`; returns how many.
int RequantizeConvsBeforeHardSwish(Model* model);

}  // namespace npu
}  // namespace lite
