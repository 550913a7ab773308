// Recurrent ops of Paddle fluid: lstm and gru over LoD sequences, and the
// single-step gru_unit.
//
// lstm: Input [T, 4D] is the input projection x*W_x (the graph's mul/fc
// before the op); Weight [D, 4D] is the hidden-to-hidden weight; Bias is
// [1, 4D], or [1, 7D] with use_peepholes. Paddle's column blocks of Input,
// Weight and Bias[0:4D] are {candidate c~, input gate i, forget gate f,
// output gate o} (lstm_op.cc: Weight = {W_ch, W_ih, W_fh, W_oh}, Bias =
// {b_c, b_i, b_f, b_o, W_ic, W_fc, W_oc}); Bias[4D:7D] are the diagonal
// peephole weights W_ic, W_fc, W_oc. Per sequence and step:
//   z  = Input[t] + Bias[0:4D] + h_prev * Weight
//   c~ = cand_act(z_c)
//   i  = gate_act(z_i + c_prev . W_ic)     f = gate_act(z_f + c_prev . W_fc)
//   c  = c~ . i + c_prev . f
//   o  = gate_act(z_o + c . W_oc)          (the new cell)
//   h  = o . cell_act(c)
// h_prev/c_prev start at H0/C0 rows of the sequence ([N, D], N sequences),
// or zeros. is_reverse walks each sequence from its last row to its first.
// Hidden and Cell [T, D] keep Input's LoD (one level). BatchGate [T, 4D]
// and BatchCellPreAct [T, D], when bound, receive the activated gates and
// cell_act(c) in the kernel's batch order (longest sequence first, step by
// step), as Paddle's kernel leaves them; their batch LoD is not set.
// Activations: sigmoid (argument clamped to [-40, 13]), tanh
// (2 / (1 + exp(min(-2a, 40))) - 1), relu, identity, as Paddle's
// math/detail/activation_functions.h.
//
// gru: Input [T, 3D] is the input projection, column blocks {update u,
// reset r, candidate c~}; Weight [D, 3D] is stored as two row-major blocks
// in this order: W_ur [D, 2D] (the first 2D*D floats) then W_c [D, D]
// (gru_op.h: gate_weight = data, state_weight = data + 2D*D); Bias [1, 3D]
// optional. Per sequence and step:
//   z = Input[t] + Bias;  [u, r] = gate_act(z_ur + h_prev * W_ur)
//   c~ = activation(z_c + (r . h_prev) * W_c)
//   h = u . c~ + (1 - u) . h_prev    (origin_mode: u . h_prev + (1 - u) . c~)
// h_prev starts at the H0 row of the sequence [N, D] or zeros; is_reverse,
// LoD and activations as lstm. Hidden [T, D] keeps Input's LoD; BatchGate,
// BatchResetHiddenPrev and BatchHidden (when bound) receive the activated
// gates, r . h_prev and h in batch order.
//
// gru_unit: one step for N rows: Input [N, 3D], HiddenPrev [N, D], the
// same Weight layout, Bias [1, 3D] optional; outputs Gate [N, 3D]
// (activated), ResetHiddenPrev [N, D], Hidden [N, D]. Its activation
// attributes are ints (0 identity, 1 sigmoid, 2 tanh, 3 relu; defaults
// activation 2, gate_activation 1) computed without the clamps (Paddle's
// Eigen functors). No LoD is needed; Hidden keeps Input's.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class RnnActivation { kSigmoid, kTanh, kRelu, kIdentity };

// Parses a Paddle recurrent activation name ("" is identity); the error
// names the op and attribute.
StatusOr<RnnActivation> ParseRnnActivation(const OpLite& op, const std::string& attr,
                                           const std::string& value);

struct LstmParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;
  const Tensor* h0 = nullptr;  // optional [N, D]
  const Tensor* c0 = nullptr;  // optional [N, D]
  Tensor* hidden = nullptr;
  Tensor* cell = nullptr;
  Tensor* batch_gate = nullptr;         // optional
  Tensor* batch_cell_pre_act = nullptr;  // optional
  bool use_peepholes = true;
  bool is_reverse = false;
  RnnActivation gate_act = RnnActivation::kSigmoid;
  RnnActivation cell_act = RnnActivation::kTanh;
  RnnActivation cand_act = RnnActivation::kTanh;
};

struct GruParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* weight = nullptr;
  const Tensor* bias = nullptr;  // optional [1, 3D]
  const Tensor* h0 = nullptr;    // gru: optional [N, D]; gru_unit: HiddenPrev
  Tensor* hidden = nullptr;
  Tensor* batch_gate = nullptr;        // gru: BatchGate; gru_unit: Gate
  Tensor* batch_reset_hidden = nullptr;  // BatchResetHiddenPrev / ResetHiddenPrev
  Tensor* batch_hidden = nullptr;      // gru only, optional
  bool unit = false;                   // gru_unit
  bool is_reverse = false;
  bool origin_mode = false;
  RnnActivation gate_act = RnnActivation::kSigmoid;
  RnnActivation cand_act = RnnActivation::kTanh;
};

}  // namespace operators
}  // namespace lite
