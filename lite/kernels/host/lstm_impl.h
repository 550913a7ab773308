// The batched fluid LSTM forward pass (semantics in lite/operators/rnn_ops.h).
//
// LstmForward gathers the input rows into batch order (BatchPlan) with the
// gate biases added, then per step runs one [active, D] x [D, 4D] GEMM of
// the previous step's hidden rows (or the reordered H0) into the step's
// gates (RecurrentGemm, rnn_gemm.h), applies the gate equations row by row
// and finally scatters hidden and cell rows back to their input positions.
// The caller owns every buffer; LstmScratch holds the batch-order
// hidden/cell state between calls.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/rnn_gemm.h"
#include "lite/kernels/host/rnn_util.h"

namespace lite {
namespace kernels {
namespace host {

struct LstmArgs {
  const float* input = nullptr;     // [T, 4D], blocks {c~, i, f, o}
  const float* weight = nullptr;    // [D, 4D]
  const PackedPanels* packed_weight = nullptr;  // PackPanels(weight)
  const float* bias = nullptr;      // [4D] gate biases
  const float* peephole = nullptr;  // [3D] W_ic, W_fc, W_oc, or nullptr
  const float* h0 = nullptr;        // [N, D] by sequence id, or nullptr
  const float* c0 = nullptr;        // [N, D] by sequence id, or nullptr
  int64_t d = 0;
  operators::RnnActivation gate_act = operators::RnnActivation::kSigmoid;
  operators::RnnActivation cell_act = operators::RnnActivation::kTanh;
  operators::RnnActivation cand_act = operators::RnnActivation::kTanh;
  float* hidden = nullptr;          // [T, D]
  float* cell = nullptr;            // [T, D]
  float* batch_gate = nullptr;      // [T, 4D]: activated gates, batch order
  float* batch_cell_act = nullptr;  // [T, D]: cell_act(c), batch order
};

struct LstmScratch {
  std::vector<float> hidden, cell, h0;
};

void LstmForward(const LstmArgs& a, const BatchPlan& plan, LstmScratch* scratch,
                 const KernelContext* ctx);

}  // namespace host
}  // namespace kernels
}  // namespace lite
