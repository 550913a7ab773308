#include "lite/kernels/host/gru_impl.h"

#include <cstring>

namespace lite {
namespace kernels {
namespace host {

void GruWeights::Pack(const float* w, int64_t hidden_size) {
  weight = w;
  d = hidden_size;
  PackPanels(w, d, 2 * d, 2 * d, &packed_ur);
  PackPanels(w + 2 * d * d, d, d, d, &packed_c);
}

void GruStep(const GruWeights& w, int64_t n, float* gates, const float* h_prev,
             float* reset_hidden, float* h, const KernelContext* ctx) {
  const int64_t d = w.d, g3 = 3 * d;
  if (h_prev) {
    RecurrentGemm(n, h_prev, d, w.weight, 2 * d, w.packed_ur, gates, g3, ctx);
  }
  for (int64_t i = 0; i < n; ++i) {
    float* g = gates + i * g3;
    RnnActivate(w.gate_act, g, 2 * d, w.clamps);  // u and r are adjacent
    float* rh = reset_hidden + i * d;
    if (h_prev) {
      for (int64_t k = 0; k < d; ++k) rh[k] = g[d + k] * h_prev[i * d + k];
    } else {
      std::memset(rh, 0, sizeof(float) * d);
    }
  }
  if (h_prev) {
    RecurrentGemm(n, reset_hidden, d, w.weight + 2 * d * d, d, w.packed_c, gates + 2 * d, g3,
                  ctx);
  }
  for (int64_t i = 0; i < n; ++i) {
    float* g = gates + i * g3;
    const float *u = g, *c = g + 2 * d;
    RnnActivate(w.cand_act, g + 2 * d, d, w.clamps);
    float* out = h + i * d;
    const float* prev = h_prev ? h_prev + i * d : nullptr;
    for (int64_t k = 0; k < d; ++k) {
      const float hp = prev ? prev[k] : 0.f;
      out[k] = w.origin_mode ? u[k] * hp + c[k] - u[k] * c[k] : hp - u[k] * hp + u[k] * c[k];
    }
  }
}

void GruForward(const GruWeights& w, const GruBuffers& b, const BatchPlan& plan,
                const KernelContext* ctx) {
  const int64_t d = w.d, g3 = 3 * d;
  const int64_t rows = static_cast<int64_t>(plan.rows.size());
  for (int64_t r = 0; r < rows; ++r) {
    const float* src = b.input + plan.rows[r] * g3;
    float* dst = b.batch_gate + r * g3;
    for (int64_t k = 0; k < g3; ++k) dst[k] = src[k] + (b.bias ? b.bias[k] : 0.f);
  }
  for (int64_t t = 0; t < plan.steps(); ++t) {
    const int64_t base = plan.step_starts[t], n = plan.active(t);
    const float* h_prev = nullptr;
    if (t > 0) {
      h_prev = b.batch_hidden + plan.step_starts[t - 1] * d;
    } else if (b.h0) {
      b.h0_scratch->resize(n * d);
      for (int64_t i = 0; i < n; ++i) {
        std::memcpy(&(*b.h0_scratch)[i * d], b.h0 + plan.order[i] * d, sizeof(float) * d);
      }
      h_prev = b.h0_scratch->data();
    }
    GruStep(w, n, b.batch_gate + base * g3, h_prev, b.batch_reset_hidden + base * d,
            b.batch_hidden + base * d, ctx);
  }
  for (int64_t r = 0; r < rows; ++r) {
    std::memcpy(b.hidden + plan.rows[r] * d, b.batch_hidden + r * d, sizeof(float) * d);
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
