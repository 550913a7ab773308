// Recurrent ops of Paddle fluid over LoD sequences: lstm (dynamic LSTM).
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

class LstmOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  LstmParam param_;
};

}  // namespace operators
}  // namespace lite
