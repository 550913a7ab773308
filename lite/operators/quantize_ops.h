// The quantization ops of PaddleSlim programs, computed in float32 exactly as
// Paddle's kernels simulate them (arithmetic in quant_math.h; checked against
// Paddle's fake_quantize_op.{cc,h}, fake_dequantize_op.{cc,h} and the
// ops.yaml signatures):
//
// The fake quantize family (FakeQuantOp), one scale source and one output
// form each (s: the scale; levels: round(bin_cnt / s * clip(x, -s, s)),
// values: level * s / bin_cnt):
//   op                                               scale             Out
//   fake_quantize_dequantize_moving_average_abs_max  InScale (weight)  values
//   fake_quantize_moving_average_abs_max             InScale (weight)  levels
//   fake_quantize_range_abs_max                      InScale (weight)  levels
//   fake_quantize_abs_max                            max |X| per run   levels
//   fake_quantize_dequantize_abs_max                 max |X| per run   values
//   fake_channel_wise_quantize_abs_max               max |X| per index levels
//   fake_channel_wise_quantize_dequantize_abs_max      of quant_axis   values
// InScale ops run their inference form (Paddle's is_test branch: the scale
// is read, never updated; is_test, moving_rate, window_size, InAccum,
// InState and Iter are not read; OutScale, the InScale var itself in
// exported programs, is not written). The abs-max ops write the scales they
// compute to OutScale when it is bound (one value, or one per index of
// quant_axis 0 or 1).
// The frozen form's dequantize ops (FakeDequantOp), after a conv or a matrix
// product whose operands were levels (QuantizationFreezePass):
//   fake_dequantize_max_abs: X, Scale -> Out = X * Scale / max_range
//   fake_channel_wise_dequantize_max_abs: X, Scales (a list: weight scales
//     per channel [, the activation scale]) -> Out (quant_math.h:
//     ChannelDequantize; quant_bits one entry per list, x_num_col_dims).
// A Scale that is a weight is checked when the op is created; one computed
// at run time (fake_quantize_abs_max's OutScale) is read as it comes.
// moving_average_abs_max_scale (ScaleObserverOp): an observer that some QAT
// exports leave in; Out (optional in Paddle's op) is a copy of X, nothing
// else is written.
// quantize_linear:   X, Scale, ZeroPoint -> Y = integer levels (as float32)
// dequantize_linear: X, Scale, ZeroPoint -> Y = X * Scale / bin_cnt
//   quant_axis -1: Scale holds one value; otherwise one per X.dims[axis].
//   ZeroPoint must be all zeros (Paddle's symmetric quantization).
//
// Attributes: bit_length / quant_bits (only 8 is accepted), round_type
// (absent: 1 for the fake_* ops, exported before the attribute existed and
// Paddle 3's default; 0 for *_linear), qmin / qmax of the *_linear ops (only
// -128 / 127 when present), only_observer of the *_linear ops (true: Y is a
// copy of X, as Paddle's kernels do; the scale is still checked), max_range
// (finite and > 0).
// A scale weight that is missing, zero, negative or not finite, a
// bit_length / quant_bits other than 8, a quant_axis out of range and a
// max_range <= 0 are errors naming the op, raised when the predictor is
// created. The op owns its param struct.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct QuantParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* scale = nullptr;  // nullptr: abs-max of X (per tensor or per channel)
  Tensor* out = nullptr;          // moving_average_abs_max_scale: optional
  Tensor* out_scale = nullptr;    // abs-max ops only, optional
  int bit_length = 8;
  int quant_axis = -1;  // -1: one scale for the whole tensor
  int round_type = 1;
  bool levels_out = false;     // fake_quantize_*: Out holds levels, not values
  bool only_observer = false;  // *_linear: Y = X (Paddle's observer-only form)
};

// fake_dequantize_max_abs ({Scale}) and fake_channel_wise_dequantize_max_abs
// (Scales, one or two lists).
struct DequantMaxAbsParam : OpParam {
  const Tensor* x = nullptr;
  std::vector<const Tensor*> scales;
  Tensor* out = nullptr;
  bool channel_wise = false;
  float max_range = 0.f;  // fake_dequantize_max_abs: the attribute; else the bins' product
  int quant_axis = 0;
  int x_num_col_dims = 1;
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
// fake_dequantize_max_abs's max_range: finite and > 0.
Status CheckMaxRange(const std::string& who, float max_range);
// fake_channel_wise_dequantize_max_abs's quant_bits: an entry of 8 for each
// of the `lists` scale lists.
Status CheckQuantBits(const std::string& who, const std::vector<int>& quant_bits, size_t lists);

}  // namespace operators
}  // namespace lite
