// conv2d_transpose_pair: a conv2d_transpose whose output only a second
// conv2d_transpose reads, as one op (conv_transpose_pair_fuse_pass). A
// kernel can then run the second on bands of the first's output while they
// are in cache instead of writing the whole intermediate map and reading it
// back (PP-OCR's DB detection heads upsample 24 channels 160x160 ->
// 320x320 -> 640x640 through a 9.8 MB intermediate).
//
// Inputs: Input, Filter0 and Bias0 (optional) of the first, Filter1 and
// Bias1 (optional) of the second; output Out. The attributes of transpose i
// are stored under "conv<i>_<name>" (ConvTransposePairPart rebuilds its
// desc). The op holds the two conv2d_transpose ops
// (lite/operators/conv_transpose_op.h) and delegates shape rules and checks
// to them: the first writes "<Out>@0", a var of the scope only this op knows
// (the host kernel runs both host kernels through it; the x86 one never
// allocates it). Flops() is their sum.
#pragma once

#include <memory>
#include <string>

#include "lite/core/op_lite.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace operators {

struct ConvTransposePairParam : OpParam {
  ConvTransposeParam* first = nullptr;   // Output: "<Out>@0"
  ConvTransposeParam* second = nullptr;  // Input: that var; Output: Out
};

// The fused desc of `first` and `second` (conv2d_transpose descs; second's
// Input is first's Output), writing second's Output.
cpp::OpDesc MakeConvTransposePair(const cpp::OpDesc& first, const cpp::OpDesc& second);
// Transpose i (0 or 1) of a conv2d_transpose_pair desc.
cpp::OpDesc ConvTransposePairPart(const cpp::OpDesc& fused, int i);

}  // namespace operators
}  // namespace lite
