#include "lite/kernels/host/fused_rnn_impl.h"

#include <cstring>

#include "lite/backends/host/gemm.h"
#include "lite/kernels/host/rnn_util.h"

namespace lite {
namespace kernels {
namespace host {

using operators::FusedRnnMode;
using operators::RnnActivation;

void RnnDirectionWeights::Prepare(FusedRnnMode m, int64_t hidden_size, int64_t input_size,
                                  const float* w_ih_data, const float* w_hh, const float* b_ih,
                                  const float* b_hh) {
  mode = m;
  hidden = hidden_size;
  input = input_size;
  gates = operators::FusedRnnGates(m) * hidden;
  w_ih = w_ih_data;
  w_hh_t.resize(hidden * gates);
  for (int64_t g = 0; g < gates; ++g) {
    for (int64_t k = 0; k < hidden; ++k) w_hh_t[k * gates + g] = w_hh[g * hidden + k];
  }
  PackPanels(w_hh_t.data(), hidden, gates, gates, &packed_hh);
  bias.resize(gates);
  // GRU's n block adds b_hh inside r . (h w_hn^T + b_hn), not to the input.
  const int64_t summed = m == FusedRnnMode::kGru ? 2 * hidden : gates;
  for (int64_t g = 0; g < gates; ++g) bias[g] = b_ih[g] + (g < summed ? b_hh[g] : 0.f);
  if (m == FusedRnnMode::kGru) {
    b_hn.assign(b_hh + 2 * hidden, b_hh + 3 * hidden);
  } else {
    b_hn.clear();
  }
}

namespace {

// The new state of one row from its gate pre-activations `g` (input
// projection + recurrent product; GRU: `hg` holds the recurrent product
// apart) and previous state h, c. Writes row_h (and row_c for LSTM).
void StepRow(const RnnDirectionWeights& w, float* g, const float* hg, const float* h,
             const float* c, float* row_h, float* row_c) {
  const int64_t hs = w.hidden;
  switch (w.mode) {
    case FusedRnnMode::kLstm: {  // {i, f, c~, o}
      RnnActivate(RnnActivation::kSigmoid, g, 2 * hs, false);
      RnnActivate(RnnActivation::kTanh, g + 2 * hs, hs, false);
      RnnActivate(RnnActivation::kSigmoid, g + 3 * hs, hs, false);
      for (int64_t k = 0; k < hs; ++k) row_c[k] = g[hs + k] * c[k] + g[k] * g[2 * hs + k];
      std::memcpy(row_h, row_c, sizeof(float) * hs);
      RnnActivate(RnnActivation::kTanh, row_h, hs, false);
      for (int64_t k = 0; k < hs; ++k) row_h[k] *= g[3 * hs + k];
      return;
    }
    case FusedRnnMode::kGru: {  // {r, u, n}
      for (int64_t k = 0; k < 2 * hs; ++k) g[k] += hg[k];
      RnnActivate(RnnActivation::kSigmoid, g, 2 * hs, false);
      float* n = g + 2 * hs;
      for (int64_t k = 0; k < hs; ++k) n[k] += g[k] * (hg[2 * hs + k] + w.b_hn[k]);
      RnnActivate(RnnActivation::kTanh, n, hs, false);
      for (int64_t k = 0; k < hs; ++k) row_h[k] = n[k] + g[hs + k] * (h[k] - n[k]);
      return;
    }
    case FusedRnnMode::kRnnTanh:
    case FusedRnnMode::kRnnRelu:
      RnnActivate(w.mode == FusedRnnMode::kRnnTanh ? RnnActivation::kTanh : RnnActivation::kRelu, g,
                  hs, false);
      std::memcpy(row_h, g, sizeof(float) * hs);
      return;
  }
}

}  // namespace

void RunRnnDirection(const RnnDirectionWeights& w, const RnnDirectionArgs& a, RnnScratch* s,
                     const KernelContext* ctx) {
  const int64_t hs = w.hidden, gs = w.gates, n = a.batch, rows = a.steps * a.batch;
  const bool lstm = w.mode == FusedRnnMode::kLstm, gru = w.mode == FusedRnnMode::kGru;
  s->gates.resize(rows * gs);
  if (rows > 0) {
    Gemm(false, true, rows, gs, w.input, 1.f, a.x, w.input, w.w_ih, w.input, 0.f, s->gates.data(),
         gs);
  }
  for (int64_t r = 0; r < rows; ++r) {
    float* g = s->gates.data() + r * gs;
    for (int64_t k = 0; k < gs; ++k) g[k] += w.bias[k];
  }
  s->h.assign(a.h0, a.h0 + n * hs);
  if (lstm) s->c.assign(a.c0, a.c0 + n * hs);
  s->row_h.resize(hs);
  s->row_c.resize(hs);
  for (int64_t step = 0; step < a.steps; ++step) {
    const int64_t t = a.reverse ? a.steps - 1 - step : step;
    float* g = s->gates.data() + t * n * gs;
    float* hg = g;
    if (gru) {
      s->hidden_gates.assign(n * gs, 0.f);
      hg = s->hidden_gates.data();
    }
    RecurrentGemm(n, s->h.data(), hs, w.w_hh_t.data(), gs, w.packed_hh, hg, gs, ctx);
    for (int64_t i = 0; i < n; ++i) {
      float* h = s->h.data() + i * hs;
      float* c = lstm ? s->c.data() + i * hs : nullptr;
      float* out = a.out + (t * n + i) * a.out_stride;
      if (a.lengths && t >= (*a.lengths)[i]) {  // past the sequence: state kept
        std::memset(out, 0, sizeof(float) * hs);
        continue;
      }
      StepRow(w, g + i * gs, hg + i * gs, h, c, s->row_h.data(), s->row_c.data());
      std::memcpy(h, s->row_h.data(), sizeof(float) * hs);
      if (lstm) std::memcpy(c, s->row_c.data(), sizeof(float) * hs);
      std::memcpy(out, h, sizeof(float) * hs);
    }
  }
  std::memcpy(a.last_h, s->h.data(), sizeof(float) * n * hs);
  if (lstm) std::memcpy(a.last_c, s->c.data(), sizeof(float) * n * hs);
}

void FusedRnnForward(const std::vector<RnnDirectionWeights>& weights, const FusedRnnArgs& a,
                     FusedRnnScratch* s, const KernelContext* ctx) {
  const int64_t hs = weights[0].hidden, n = a.batch;
  const int64_t out_numel = a.steps * n * a.directions * hs;
  const float* x = a.x;
  for (int l = 0; l < a.layers; ++l) {
    float* y = a.out;
    if (l + 1 < a.layers) {
      std::vector<float>& buf = s->layer_out[l % 2];
      buf.resize(out_numel);
      y = buf.data();
    }
    for (int d = 0; d < a.directions; ++d) {
      const int64_t state = (static_cast<int64_t>(l) * a.directions + d) * n * hs;
      RnnDirectionArgs da;
      da.steps = a.steps;
      da.batch = n;
      da.x = x;
      da.lengths = a.lengths;
      da.reverse = d == 1;
      da.h0 = a.h0 + state;
      da.c0 = a.c0 ? a.c0 + state : nullptr;
      da.out = y + d * hs;
      da.out_stride = a.directions * hs;
      da.last_h = a.last_h + state;
      da.last_c = a.last_c ? a.last_c + state : nullptr;
      RunRnnDirection(weights[l * a.directions + d], da, &s->direction, ctx);
    }
    x = y;
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
