#include "lite/kernels/host/rnn_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace lite {
namespace kernels {
namespace host {

namespace {

typedef float V8 __attribute__((vector_size(32)));
typedef int32_t I8 __attribute__((vector_size(32)));

// exp on 8 lanes: 2^n * p(r) with n = round(x / ln 2), r = x - n ln 2
// (Cody-Waite split) and Cephes' degree-6 polynomial; about 1 ulp on
// [-87, 88], inputs clamped to it.
inline V8 Exp8(V8 x) {
  x = x < -87.3f ? V8{} - 87.3f : x;
  x = x > 88.3f ? V8{} + 88.3f : x;
  const V8 fx = x * 1.44269504088896341f + 0.5f;
  V8 n = __builtin_convertvector(__builtin_convertvector(fx, I8), V8);
  n = n > fx ? n - 1.f : n;  // floor
  const V8 r = x - n * 0.693359375f + n * 2.12194440e-4f;
  V8 y = r * 1.9875691500e-4f + 1.3981999507e-3f;
  y = y * r + 8.3334519073e-3f;
  y = y * r + 4.1665795894e-2f;
  y = y * r + 1.6666665459e-1f;
  y = y * r + 5.0000001201e-1f;
  y = y * r * r + r + 1.f;
  const I8 bits = (__builtin_convertvector(n, I8) + 127) << 23;
  V8 scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  return y * scale;
}

// f applied to x[0, n) 8 lanes at a time (the tail through a padded block,
// so every element sees the same arithmetic).
template <typename F>
void Apply8(float* x, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    V8 v;
    std::memcpy(&v, x + i, sizeof(v));
    v = f(v);
    std::memcpy(x + i, &v, sizeof(v));
  }
  if (i < n) {
    float tmp[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    std::memcpy(tmp, x + i, sizeof(float) * (n - i));
    V8 v;
    std::memcpy(&v, tmp, sizeof(v));
    v = f(v);
    std::memcpy(tmp, &v, sizeof(v));
    std::memcpy(x + i, tmp, sizeof(float) * (n - i));
  }
}

}  // namespace

void RnnActivate(operators::RnnActivation act, float* x, int64_t n, bool clamps) {
  switch (act) {
    case operators::RnnActivation::kSigmoid:
      Apply8(x, n, [clamps](V8 v) {
        if (clamps) {
          v = v < -40.f ? V8{} - 40.f : v;
          v = v > 13.f ? V8{} + 13.f : v;
        }
        return 1.f / (1.f + Exp8(-v));
      });
      return;
    case operators::RnnActivation::kTanh:
      // 2 / (1 + exp(-2a)) - 1; Paddle clamps the exp argument at 40, and
      // the plain tanh saturates the same way in float.
      Apply8(x, n, [](V8 v) {
        V8 e = -2.f * v;
        e = e > 40.f ? V8{} + 40.f : e;
        return 2.f / (1.f + Exp8(e)) - 1.f;
      });
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
