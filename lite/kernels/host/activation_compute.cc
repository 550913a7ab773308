// Host fp32 kernels for the unary activations declared in activation_ops.h.
#include <cmath>

#include "lite/core/kernel.h"
#include "lite/operators/activation_ops.h"

namespace lite {
namespace kernels {
namespace host {

template <typename F>
Status ApplyUnary(const operators::ActivationParam& p, F f) {
  const float* x = p.x->data<float>();
  float* y = p.out->mutable_data<float>();
  const int64_t n = p.x->numel();
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
  return Status::OK();
}

class ReluCompute : public KernelBase {
 public:
  Status Run() override {
    return ApplyUnary(Param<operators::ActivationParam>(),
                      [](float v) { return v > 0.f ? v : 0.f; });
  }
};

class TanhCompute : public KernelBase {
 public:
  Status Run() override {
    return ApplyUnary(Param<operators::ActivationParam>(),
                      [](float v) { return std::tanh(v); });
  }
};

class SigmoidCompute : public KernelBase {
 public:
  Status Run() override {
    return ApplyUnary(Param<operators::ActivationParam>(),
                      [](float v) { return 1.f / (1.f + std::exp(-v)); });
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(relu, kHost, kFloat, kNCHW, lite::kernels::host::ReluCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(tanh, kHost, kFloat, kNCHW, lite::kernels::host::TanhCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(sigmoid, kHost, kFloat, kNCHW, lite::kernels::host::SigmoidCompute, def)
    .Finalize();
