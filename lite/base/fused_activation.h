// FusedActivation: an activation folded into a producing op by a fusion pass
// (conv2d, elementwise_*, fc, ...).
//
// Stored on the op as attributes so it survives save/load:
//   "fuse_activation": "" (none), "relu", "relu6", "leaky_relu",
//                      "hard_swish", "hard_sigmoid", "sigmoid", "swish", "tanh"
//   "fuse_alpha": leaky_relu alpha, relu6/hard_swish threshold,
//                 hard_sigmoid slope, swish beta
//   "fuse_beta":  hard_swish scale, hard_sigmoid offset
//   "fuse_gamma": hard_swish offset
// Kernels apply it element-wise to their output with Apply(); bridges read
// the same fields. Parsing rejects unknown names (never a wrong answer).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace operators {

struct FusedActivation {
  enum Kind { kNone, kRelu, kRelu6, kLeakyRelu, kHardSwish, kHardSigmoid,
              kSigmoid, kSwish, kTanh };
  Kind kind = kNone;
  float alpha = 0.f;
  float beta = 0.f;
  float gamma = 0.f;

  bool enabled() const { return kind != kNone; }
  const char* name() const;

  inline float Apply(float v) const {
    switch (kind) {
      case kNone: return v;
      case kRelu: return v > 0.f ? v : 0.f;
      case kRelu6: return std::min(std::max(v, 0.f), alpha);
      case kLeakyRelu: return v > 0.f ? v : v * alpha;
      case kHardSwish:
        return v * std::min(std::max(v + gamma, 0.f), alpha) / beta;
      case kHardSigmoid: return std::min(std::max(v * alpha + beta, 0.f), 1.f);
      case kSigmoid: return 1.f / (1.f + std::exp(-v));
      case kSwish: return v / (1.f + std::exp(-alpha * v));
      case kTanh: return std::tanh(v);
    }
    return v;
  }
  void ApplyInPlace(float* data, int64_t n) const {
    if (kind == kNone) return;
    for (int64_t i = 0; i < n; ++i) data[i] = Apply(data[i]);
  }

  // Reads the fuse_* attributes of `desc` (absent -> kNone).
  static StatusOr<FusedActivation> FromOpDesc(const cpp::OpDesc& desc);
  // Builds the spec for folding activation op `act` (its type and attrs,
  // with Paddle's defaults) into a producer. Unimplemented if not foldable.
  static StatusOr<FusedActivation> FromActivationOp(const cpp::OpDesc& act);
  // Writes the fuse_* attributes onto `desc`.
  void ToOpDesc(cpp::OpDesc* desc) const;
};

}  // namespace operators
}  // namespace lite
