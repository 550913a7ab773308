// The fused `rnn` op of Paddle 2.x (paddle.nn.SimpleRNN / LSTM / GRU):
// multi-layer, optionally bidirectional recurrences over a time-major
// batch, in one op. The legacy LoD ops lstm / gru live in rnn_ops.h.
//
// Input [T, N, I] is time-major (the Python layer transposes batch-major
// inputs before the op). PreState is {h0} or, for LSTM, {h0, c0}, each
// [L*D, N, H] (L = num_layers, D = 2 with is_bidirec else 1, row l*D + d
// for layer l, direction d). WeightList holds 4*L*D tensors: first every
// weight pair, then every bias pair, each group ordered by layer then
// direction (Paddle's RNNBase.flatten_parameters):
//   w_ih [G*H, I_l], w_hh [G*H, H]   ... then   b_ih [G*H], b_hh [G*H] ...
// with G gates (LSTM 4, GRU 3, RNN_TANH / RNN_RELU 1), I_0 = I and
// I_l = D*H above. Gate blocks (rows of the weights, entries of the biases)
// and one step, for x the layer's input row and h, c the previous state:
//   LSTM {i, f, c~, o}: z = x w_ih^T + b_ih + h w_hh^T + b_hh,
//     i, f, o = sigmoid(z_i, z_f, z_o), c~ = tanh(z_c~),
//     c' = f . c + i . c~, h' = o . tanh(c')
//   GRU {r, u, n} (cuDNN style: r is applied after the hidden product):
//     xg = x w_ih^T + b_ih, hg = h w_hh^T + b_hh,
//     r = sigmoid(xg_r + hg_r), u = sigmoid(xg_u + hg_u),
//     n = tanh(xg_n + r . hg_n), h' = (1 - u) . n + u . h
//   RNN_TANH / RNN_RELU: h' = act(x w_ih^T + b_ih + h w_hh^T + b_hh)
// Sigmoid and tanh are unclamped (Paddle's *_v2 activations). Direction 1
// walks time from T-1 to 0. Out [T, N, D*H] holds direction d's h' in
// columns [d*H, (d+1)*H); layer l > 0 reads layer l-1's Out. State is
// {last h} or {last h, last c}, shaped like PreState.
//
// SequenceLength (optional, int32 or int64 [N], each in [0, T]): at times
// t >= len[n] the row's state is kept and its Out row is zero, so the
// reverse direction starts from h0 at the sequence's last valid step and
// State holds the state after the last valid step.
//
// Inference only: dropout_prob and seed (dropout between layers in
// training) are not applied, whatever is_test says; Reserve and
// DropoutState (training buffers) are sized [0] without data. input_size
// and hidden_size must match the tensors. The op owns its param struct;
// the tensors belong to the scope.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

enum class FusedRnnMode { kLstm, kGru, kRnnTanh, kRnnRelu };

// Gates per step: LSTM 4, GRU 3, RNN_* 1.
int FusedRnnGates(FusedRnnMode mode);

struct FusedRnnParam : OpParam {
  const Tensor* input = nullptr;
  std::vector<const Tensor*> pre_state;  // {h0} or {h0, c0}
  std::vector<const Tensor*> weights;    // WeightList, Paddle's order
  const Tensor* sequence_length = nullptr;
  Tensor* out = nullptr;
  std::vector<Tensor*> state;       // {last h} or {last h, last c}
  Tensor* reserve = nullptr;        // optional, sized [0]
  Tensor* dropout_state = nullptr;  // optional, sized [0]
  FusedRnnMode mode = FusedRnnMode::kRnnTanh;
  bool bidirectional = false;
  int num_layers = 1;
  int hidden_size = 0;
  int input_size = 0;

  int directions() const { return bidirectional ? 2 : 1; }
  // WeightList entries of layer l, direction d.
  size_t pair(int l, int d) const { return 2 * static_cast<size_t>(l * directions() + d); }
  const Tensor* w_ih(int l, int d) const { return weights[pair(l, d)]; }
  const Tensor* w_hh(int l, int d) const { return weights[pair(l, d) + 1]; }
  const Tensor* b_ih(int l, int d) const { return weights[weights.size() / 2 + pair(l, d)]; }
  const Tensor* b_hh(int l, int d) const { return weights[weights.size() / 2 + pair(l, d) + 1]; }
};

}  // namespace operators
}  // namespace lite
