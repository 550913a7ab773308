// The GRU step and the batched fluid GRU forward pass (semantics in
// lite/operators/rnn_ops.h).
//
// GruStep updates n rows at once: two RecurrentGemm products (h_prev * W_ur
// into the u/r gates, then (r . h_prev) * W_c into the candidate), with the
// gate equations row by row; gru_unit is one GruStep. GruForward gathers the
// input rows into batch order (BatchPlan) with the bias added, then runs one
// GruStep per time step over the sequences still active and scatters the
// hidden rows back to their input positions. The caller owns every buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/rnn_gemm.h"
#include "lite/kernels/host/rnn_util.h"

namespace lite {
namespace kernels {
namespace host {

struct GruWeights {
  const float* weight = nullptr;       // W_ur [D, 2D] then W_c [D, D]
  PackedPanels packed_ur, packed_c;    // Pack(weight) fills both
  int64_t d = 0;
  operators::RnnActivation gate_act = operators::RnnActivation::kSigmoid;
  operators::RnnActivation cand_act = operators::RnnActivation::kTanh;
  bool origin_mode = false;
  bool clamps = true;  // Paddle's clamped sigmoid/tanh (gru) or plain (gru_unit)

  void Pack(const float* w, int64_t hidden_size);
};

// gates [n, 3D] hold the pre-activations (input + bias) and receive the
// activated {u, r, c~}; h_prev [n, D] may be null (zero state); writes
// reset_hidden [n, D] = r . h_prev and h [n, D].
void GruStep(const GruWeights& w, int64_t n, float* gates, const float* h_prev,
             float* reset_hidden, float* h, const KernelContext* ctx);

struct GruBuffers {
  const float* input = nullptr;  // [T, 3D]
  const float* bias = nullptr;   // [3D] or nullptr
  const float* h0 = nullptr;     // [N, D] by sequence id, or nullptr
  float* hidden = nullptr;       // [T, D]
  float* batch_gate = nullptr;   // [T, 3D], batch order
  float* batch_reset_hidden = nullptr;  // [T, D], batch order
  float* batch_hidden = nullptr;        // [T, D], batch order
  std::vector<float>* h0_scratch = nullptr;
};

void GruForward(const GruWeights& w, const GruBuffers& b, const BatchPlan& plan,
                const KernelContext* ctx);

}  // namespace host
}  // namespace kernels
}  // namespace lite
