// What quant_dequant_fuse_pass reads from the quantization ops in front of
// an op's input, in both PaddleSlim export forms (see the pass's comment):
// the fake quant-dequant ops, and quantize_linear -> dequantize_linear pairs
// or a lone dequantize_linear on a weight stored as int8 levels.
// MatchActivationQuant follows an activation input back to its quant ops,
// MatchWeightQuant a weight input (computing the weight's int8 levels by the
// ops' rule, operators/quant_math.h). Neither changes the graph; the results
// own the levels and point at graph nodes. A malformed quant op (bit_length,
// round_type, scale var missing or not positive, quant_axis or Scale length
// out of range) is an error naming it.
#pragma once

#include <string>
#include <vector>

#include "lite/core/mir/ssa_graph.h"
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

// The activation side of `x_q` (an op's activation input): not present
// when no quant op produced it.
StatusOr<Side<ActivationQuant>> MatchActivationQuant(const SSAGraph& graph, Node* x_q);
// The weight side of `w_q` (an op's weight input): not present when no
// quant op produced it from a weight.
StatusOr<Side<WeightQuant>> MatchWeightQuant(const SSAGraph& graph, Node* w_q);

}  // namespace fusion
}  // namespace mir
}  // namespace lite
