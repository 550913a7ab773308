// One direction of one layer of the fused `rnn` op (semantics in
// lite/operators/fused_rnn_op.h), on float32 time-major buffers.
//
// RnnDirectionWeights is made once from the op's weights: w_hh transposed
// and packed for RecurrentGemm (rnn_gemm.h), the biases pre-summed into the
// input projection (GRU keeps b_hh of the n block apart: it is scaled by r).
// RunRnnDirection computes the input projection of all T*N rows in one GEMM,
// then per time step one [N, H] x [H, G*H] recurrent GEMM and the gate
// equations row by row; rows past their SequenceLength keep their state and
// get zero output. FusedRnnForward runs every layer and direction. The
// caller owns every buffer; the scratch structs hold temporaries between
// calls.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/rnn_gemm.h"
#include "lite/operators/fused_rnn_op.h"

namespace lite {
namespace kernels {
namespace host {

struct RnnDirectionWeights {
  operators::FusedRnnMode mode = operators::FusedRnnMode::kRnnTanh;
  int64_t hidden = 0, input = 0, gates = 0;  // H, I_l, G*H
  const float* w_ih = nullptr;               // [G*H, I_l], the op's tensor
  std::vector<float> w_hh_t;                 // w_hh^T [H, G*H]
  PackedPanels packed_hh;
  std::vector<float> bias;  // [G*H] added to the input projection
  std::vector<float> b_hn;  // GRU: b_hh of the n block [H]

  void Prepare(operators::FusedRnnMode m, int64_t hidden_size, int64_t input_size,
               const float* w_ih_data, const float* w_hh, const float* b_ih, const float* b_hh);
};

struct RnnDirectionArgs {
  int64_t steps = 0, batch = 0;                   // T, N
  const float* x = nullptr;                       // [T, N, I_l]
  const std::vector<int64_t>* lengths = nullptr;  // [N] or nullptr
  bool reverse = false;
  const float* h0 = nullptr;  // [N, H]
  const float* c0 = nullptr;  // [N, H], LSTM
  float* out = nullptr;       // row (t, n) at out + (t*N + n) * out_stride
  int64_t out_stride = 0;
  float* last_h = nullptr;  // [N, H]
  float* last_c = nullptr;  // [N, H], LSTM
};

struct RnnScratch {
  std::vector<float> gates, hidden_gates, h, c, row_h, row_c;
};

void RunRnnDirection(const RnnDirectionWeights& w, const RnnDirectionArgs& a, RnnScratch* s,
                     const KernelContext* ctx);

// The whole op: layer by layer, each direction through RunRnnDirection;
// layer l > 0 reads layer l-1's output (kept in FusedRnnScratch, the last
// layer writes `out`).
struct FusedRnnArgs {
  int64_t steps = 0, batch = 0;  // T, N
  int layers = 1, directions = 1;
  const float* x = nullptr;                       // [T, N, I]
  const std::vector<int64_t>* lengths = nullptr;  // [N] or nullptr
  const float* h0 = nullptr;                      // [layers * directions, N, H]
  const float* c0 = nullptr;                      // LSTM, as h0
  float* out = nullptr;                           // [T, N, directions * H]
  float* last_h = nullptr;                        // as h0
  float* last_c = nullptr;                        // LSTM, as h0
};

struct FusedRnnScratch {
  RnnScratch direction;
  std::vector<float> layer_out[2];
};

// `weights` holds layers * directions entries, layer-major.
void FusedRnnForward(const std::vector<RnnDirectionWeights>& weights, const FusedRnnArgs& a,
                     FusedRnnScratch* s, const KernelContext* ctx);

}  // namespace host
}  // namespace kernels
}  // namespace lite
