// conv2d_resize_add: a 1x1 conv whose output is scaled per channel and added
// to a nearest-upscaled smaller map, as one op (conv_resize_add_fuse_pass):
//   Output[n, c, y, x] = (conv(Input) + Bias)[n, c, y, x] * ConvScale[n, c]
//                        + Addend[n, c, y / fh, x / fw]
// with integer factors fh = H_out / H_addend, fw = W_out / W_addend. It is
// the top-down add of a feature pyramid whose lateral branch is a 1x1 conv
// gated per channel (PP-OCRv3 det's RSE-FPN: p2 = in2 * (1 + se) + up(p3)):
// the conv's full-size output is never written and read back (at 96 x
// 160 x 160, 9.8 MB each way).
//
// Inputs and attributes are conv2d's (conv_op.h), int8 form included
// (Input_dtype / Output_dtype levels too), plus Addend (float32, required)
// and ConvScale (float32, optional: C_out or N * C_out values). No fused
// activation, ResidualData or post-activation map. The op class is ConvOp
// with those two inputs bound into ConvParam and their dims checked; only
// the x86 int8 kernel runs it, and the pass makes it only where that kernel
// takes it.
#pragma once

#include "lite/operators/conv_op.h"

namespace lite {
namespace operators {

}  // namespace operators
}  // namespace lite
