#include "lite/kernels/host/rnn_util.h"

#include <algorithm>
#include <cmath>

namespace lite {
namespace kernels {
namespace host {

void RnnActivate(operators::RnnActivation act, float* x, int64_t n, bool clamps) {
  if (!clamps && act == operators::RnnActivation::kSigmoid) {
    for (int64_t i = 0; i < n; ++i) x[i] = 1.f / (1.f + std::exp(-x[i]));
    return;
  }
  if (!clamps && act == operators::RnnActivation::kTanh) {
    for (int64_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
    return;
  }
  switch (act) {
    case operators::RnnActivation::kSigmoid:
      for (int64_t i = 0; i < n; ++i) {
        const float a = std::min(std::max(x[i], -40.f), 13.f);
        x[i] = 1.f / (1.f + std::exp(-a));
      }
      return;
    case operators::RnnActivation::kTanh:
      for (int64_t i = 0; i < n; ++i) {
        const float a = std::min(-2.f * x[i], 40.f);
        x[i] = 2.f / (1.f + std::exp(a)) - 1.f;
      }
      return;
    case operators::RnnActivation::kRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] > 0.f ? x[i] : 0.f;
      return;
    case operators::RnnActivation::kIdentity:
      return;
  }
}

BatchPlan MakeBatchPlan(const std::vector<uint64_t>& level, bool reverse) {
  BatchPlan plan;
  const int64_t seqs = level.empty() ? 0 : static_cast<int64_t>(level.size()) - 1;
  auto len = [&level](int64_t s) { return static_cast<int64_t>(level[s + 1] - level[s]); };
  plan.order.resize(seqs);
  for (int64_t s = 0; s < seqs; ++s) plan.order[s] = s;
  std::stable_sort(plan.order.begin(), plan.order.end(),
                   [&len](int64_t a, int64_t b) { return len(a) > len(b); });
  const int64_t steps = seqs > 0 ? len(plan.order[0]) : 0;
  plan.step_starts.assign(1, 0);
  for (int64_t t = 0; t < steps; ++t) {
    for (int64_t s : plan.order) {
      if (len(s) <= t) break;  // the rest are shorter still
      const int64_t start = static_cast<int64_t>(level[s]);
      plan.rows.push_back(reverse ? start + len(s) - 1 - t : start + t);
    }
    plan.step_starts.push_back(static_cast<int64_t>(plan.rows.size()));
  }
  return plan;
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
