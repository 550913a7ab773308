// Shared pieces of the recurrent host kernels (lstm, gru, gru_unit).
//
// RnnActivate applies Paddle's recurrent activations in place (sigmoid with
// its argument clamped to [-40, 13], tanh as 2 / (1 + exp(min(-2a, 40))) - 1,
// relu, identity; math/detail/activation_functions.h), 8 lanes at a time
// with a polynomial exp (about 1 ulp). With clamps = false sigmoid is
// unclamped (gru_unit's Eigen functor; tanh is the same in float).
//
// BatchPlan is Paddle's sequence-to-batch reordering (sequence2batch.h):
// sequences sorted by length, longest first (ties keep LoD order, so the plan
// depends on lengths only); step t holds every sequence longer than t, in
// that order, so the sequences active at a step are a prefix of the
// previous step's and one GEMM per step serves all of them. Batch rows are
// numbered step by step; rows[b] is the input row of batch row b: row
// start + t going forward, start + len - 1 - t with is_reverse.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/operators/rnn_ops.h"

namespace lite {
namespace kernels {
namespace host {

void RnnActivate(operators::RnnActivation act, float* x, int64_t n, bool clamps = true);

struct BatchPlan {
  std::vector<int64_t> order;         // sequence ids, longest first
  std::vector<int64_t> step_starts;   // steps + 1 offsets into batch rows
  std::vector<int64_t> rows;          // batch row -> input row
  int64_t steps() const { return static_cast<int64_t>(step_starts.size()) - 1; }
  int64_t active(int64_t t) const { return step_starts[t + 1] - step_starts[t]; }
};

// `level` is a validated LoD level (offsets from 0, non-decreasing).
BatchPlan MakeBatchPlan(const std::vector<uint64_t>& level, bool reverse);

}  // namespace host
}  // namespace kernels
}  // namespace lite
