#include "lite/kernels/host/lstm_impl.h"

#include <cstring>

namespace lite {
namespace kernels {
namespace host {

namespace {

// One LSTM cell update for one row: g holds the 4D pre-activations
// {c~, i, f, o} and receives the activated gates; c_prev may be null (zero
// state). Writes c, cell_act(c) and h.
void LstmRow(const LstmArgs& a, float* g, const float* c_prev, float* c, float* c_act,
             float* h) {
  const int64_t d = a.d;
  float *gc = g, *gi = g + d, *gf = g + 2 * d, *go = g + 3 * d;
  RnnActivate(a.cand_act, gc, d);
  if (a.peephole && c_prev) {
    for (int64_t k = 0; k < d; ++k) {
      gi[k] += c_prev[k] * a.peephole[k];
      gf[k] += c_prev[k] * a.peephole[d + k];
    }
  }
  RnnActivate(a.gate_act, gi, 2 * d);  // i and f are adjacent
  if (c_prev) {
    for (int64_t k = 0; k < d; ++k) c[k] = gc[k] * gi[k] + c_prev[k] * gf[k];
  } else {
    for (int64_t k = 0; k < d; ++k) c[k] = gc[k] * gi[k];
  }
  if (a.peephole) {
    for (int64_t k = 0; k < d; ++k) go[k] += c[k] * a.peephole[2 * d + k];
  }
  RnnActivate(a.gate_act, go, d);
  std::memcpy(c_act, c, sizeof(float) * d);
  RnnActivate(a.cell_act, c_act, d);
  for (int64_t k = 0; k < d; ++k) h[k] = go[k] * c_act[k];
}

}  // namespace

void LstmForward(const LstmArgs& a, const BatchPlan& plan, LstmScratch* s,
                 const KernelContext* ctx) {
  const int64_t d = a.d, g4 = 4 * d;
  const int64_t rows = static_cast<int64_t>(plan.rows.size());
  s->hidden.resize(rows * d);
  s->cell.resize(rows * d);
  for (int64_t b = 0; b < rows; ++b) {
    const float* src = a.input + plan.rows[b] * g4;
    float* dst = a.batch_gate + b * g4;
    for (int64_t k = 0; k < g4; ++k) dst[k] = src[k] + a.bias[k];
  }
  for (int64_t t = 0; t < plan.steps(); ++t) {
    const int64_t base = plan.step_starts[t], n = plan.active(t);
    float* gates = a.batch_gate + base * g4;
    const float* c_prev_rows = nullptr;
    if (t > 0) {
      const int64_t prev = plan.step_starts[t - 1];
      RecurrentGemm(n, &s->hidden[prev * d], d, a.weight, g4, *a.packed_weight, gates, g4, ctx);
      c_prev_rows = &s->cell[prev * d];
    } else {
      if (a.h0) {
        s->h0.resize(n * d);
        for (int64_t i = 0; i < n; ++i) {
          std::memcpy(&s->h0[i * d], a.h0 + plan.order[i] * d, sizeof(float) * d);
        }
        RecurrentGemm(n, s->h0.data(), d, a.weight, g4, *a.packed_weight, gates, g4, ctx);
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      const float* c_prev = c_prev_rows ? c_prev_rows + i * d
                            : a.c0      ? a.c0 + plan.order[i] * d
                                        : nullptr;
      const int64_t b = base + i;
      LstmRow(a, gates + i * g4, c_prev, &s->cell[b * d], a.batch_cell_act + b * d,
              &s->hidden[b * d]);
    }
  }
  for (int64_t b = 0; b < rows; ++b) {
    std::memcpy(a.hidden + plan.rows[b] * d, &s->hidden[b * d], sizeof(float) * d);
    std::memcpy(a.cell + plan.rows[b] * d, &s->cell[b * d], sizeof(float) * d);
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
