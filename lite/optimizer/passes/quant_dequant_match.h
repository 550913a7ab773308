// What quant_dequant_fuse_pass reads from the quantization ops in front of
// an op's input, in the PaddleSlim export forms (see the pass's comment):
// the fake quant-dequant ops, quantize_linear -> dequantize_linear pairs or
// a lone dequantize_linear on a weight stored as int8 levels, and the frozen
// form (MatchFrozenQuant: a levels quant op before the op, a dequantize op
// after it).
// MatchActivationQuant follows an activation input back to its quant ops,
// MatchWeightQuant a weight input (computing the weight's int8 levels by the
// ops' rule, operators/quant_math.h). Neither changes the graph; the results
// own the levels and point at graph nodes. A malformed quant op (bit_length,
// round_type, scale var missing or not positive, quant_axis or Scale length
// out of range) is an error naming it.
#pragma once

#include <string>
#include <vector>

#include "lite/optimizer/ssa_graph.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {
namespace fusion {

// What the activation side says: read `x` instead of `x_q`, quantized with
// `scale` by `round_type`; `ops` produce x_q (last first).
struct ActivationQuant {
  Node* x = nullptr;
  float scale = 0.f;
  int round_type = 1;
  std::vector<Node*> ops;
};

// What the weight side says: W's levels and one scale per index of
// `axis` (or one for all), produced by `ops` (last first) from `w`.
struct WeightQuant {
  Node* w = nullptr;
  Tensor levels;  // int8, W's dims
  std::vector<float> scales;
  int axis = 0;
  std::vector<Node*> ops;
};

// A result: found, not quantized at all, or declined with a counter name.
template <typename T>
struct Side {
  bool present = false;
  std::string declined;  // empty: usable when present
  T value;
};

// The frozen form (Paddle's QuantizationFreezePass, quantization_pass.py)
// around a consumer: X -> fake_quantize_moving_average_abs_max or
// fake_quantize_range_abs_max (InScale s_a) -> levels -> consumer (weight:
// float32 holding integer levels) -> `out` -> fake_dequantize_max_abs (Scale
// s_a, max_range = 127 * 127 / s_w) or fake_channel_wise_dequantize_max_abs
// (Scales [s_w per output channel, s_a], quant_bits [8, 8]) -> `dequant_out`.
// `act` is the quant op's side (ops: {it}); `weight` holds the weight's
// levels and its real scales (one: 127 * 127 / max_range, or s_w per output
// channel, laid along `weight_axis`); no weight op. Declined: a quant op or
// a dequantize op alone, `out` read elsewhere or fetched, a dequantize scale
// other than the quant op's, a channel axis other than the output channels,
// weights that are not integer levels ("declined_pattern"), and scales
// computed at run time (fake_quantize_abs_max, "declined_dynamic_scale").
struct FrozenQuant {
  ActivationQuant act;
  WeightQuant weight;
  Node* out = nullptr;
  Node* dequant = nullptr;
  Node* dequant_out = nullptr;
};

// The frozen form around `op`, whose params `input`, `weight` and `output`
// are its activation, weight and result (`conv`: NCHW output channels on
// dim 1, else the last dim); not present when neither a levels quant op
// feeds `input` nor a dequantize op reads `output`. Malformed quant and
// dequantize ops are errors naming them.
StatusOr<Side<FrozenQuant>> MatchFrozenQuant(const SSAGraph& graph, Node* op,
                                             const std::string& input,
                                             const std::string& weight,
                                             const std::string& output, int weight_axis,
                                             bool conv);

// The activation side of `x_q` (an op's activation input): not present
// when no quant op produced it.
StatusOr<Side<ActivationQuant>> MatchActivationQuant(const SSAGraph& graph, Node* x_q);
// The weight side of `w_q` (an op's weight input): not present when no
// quant op produced it from a weight.
StatusOr<Side<WeightQuant>> MatchWeightQuant(const SSAGraph& graph, Node* w_q);

}  // namespace fusion
}  // namespace mir
}  // namespace lite
