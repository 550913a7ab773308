// Epilogue: a fused activation (fuse_activation, conv_activation_fuse_pass
// and friends) applied by an arm kernel to its output.
//
// Where the activation is a clamp (none, relu, relu6) it is folded into the
// XNNPACK operator's output range (clamp()), at no cost. Otherwise the
// operator runs unclamped and Run() applies the activation in place
// afterwards: on XNNPACK's hardswish (Paddle's default threshold 6, scale 6,
// offset 3), sigmoid or leaky_relu operator, else with the activation's own
// element-wise loop (FusedActivation::ApplyInPlace: hard_sigmoid, swish,
// tanh, hard_swish with other attributes), so every fused form stays on
// the arm target instead of sending the whole op to host. One per kernel;
// its operator is created once and set up again when the size or pointer
// changes.
#pragma once

#include <string>

#include "lite/backends/arm/xnnpack_util.h"

namespace lite {
namespace kernels {
namespace arm {

class Epilogue {
 public:
  // `what` names the kernel in errors.
  Status Init(const operators::FusedActivation& act, const std::string& what);
  // The clamp the operator itself should apply.
  const lite::arm::Clamp& clamp() const { return clamp_; }
  // Applies what the clamp does not cover to `n` values at `data`.
  Status Run(float* data, size_t n, pthreadpool_t pool);

 private:
  // "<kernel> fused <activation>" for errors, built only when one occurs
  // (Run is on every inference).
  std::string What() const;

  operators::FusedActivation act_;
  std::string what_;
  bool folded_ = true;
  lite::arm::Clamp clamp_;
  lite::arm::XnnOperator op_;
  size_t n_ = 0;
  float* data_ = nullptr;
  pthreadpool_t pool_ = nullptr;  // setup tiles the work for the pool's threads
};

}  // namespace arm
}  // namespace kernels
}  // namespace lite
