// Conv helpers: MulAdd (fused where available) and the epilogue
// BiasActRow: dst[i] = act(src[i] + bias) over one contiguous run, with the activation switch hoisted out of the loop so the simple
// kinds vectorize. Used by conv2d, depthwise and conv2d_transpose while the
// freshly computed rows are still in cache. src may equal dst.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "lite/base/fused_activation.h"

namespace lite {
namespace kernels {
namespace host {

// a * b + c as one fused instruction where the target has it, plain
// multiply-add elsewhere: explicit, because whether GCC contracts a plain
// `a * b + c` depends on the code around it (-ffp-contract=fast is its
// default for C++; -std=c++17 turns contraction off only for C).
inline float MulAdd(float a, float b, float c) {
#ifdef FP_FAST_FMAF
  return std::fma(a, b, c);
#else
  return a * b + c;
#endif
}

namespace epilogue_detail {
// Blocks of 8 with a constant trip count: GCC's -O2 vectorizer (very-cheap
// cost model) only vectorizes loops it needs no scalar epilogue for.
template <typename F>
inline void Map(const float* src, float bias, int64_t n, float* dst, F f) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    float t[8];  // load first: src may alias dst
    for (int v = 0; v < 8; ++v) t[v] = src[i + v];
    for (int v = 0; v < 8; ++v) dst[i + v] = f(t[v] + bias);
  }
  for (; i < n; ++i) dst[i] = f(src[i] + bias);
}
}  // namespace epilogue_detail

inline void BiasActRow(const float* src, float bias,
                       const operators::FusedActivation& act, int64_t n,
                       float* dst) {
  using A = operators::FusedActivation;
  using epilogue_detail::Map;
  switch (act.kind) {
    case A::kNone:
      if (bias == 0.f) {
        if (src != dst) std::memcpy(dst, src, sizeof(float) * n);
        return;
      }
      return Map(src, bias, n, dst, [](float v) { return v; });
    case A::kRelu:
      return Map(src, bias, n, dst, [](float v) { return v > 0.f ? v : 0.f; });
    case A::kRelu6: {
      const float hi = act.alpha;
      return Map(src, bias, n, dst,
                 [hi](float v) { return std::min(std::max(v, 0.f), hi); });
    }
    case A::kLeakyRelu: {
      const float a = act.alpha;
      return Map(src, bias, n, dst, [a](float v) { return v > 0.f ? v : v * a; });
    }
    case A::kHardSwish: {
      const float t = act.alpha, s = act.beta, o = act.gamma;
      return Map(src, bias, n, dst, [t, s, o](float v) {
        return v * std::min(std::max(v + o, 0.f), t) / s;
      });
    }
    case A::kHardSigmoid: {
      const float sl = act.alpha, o = act.beta;
      return Map(src, bias, n, dst, [sl, o](float v) {
        return std::min(std::max(v * sl + o, 0.f), 1.f);
      });
    }
    default:
      return Map(src, bias, n, dst, [&act](float v) { return act.Apply(v); });
  }
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
