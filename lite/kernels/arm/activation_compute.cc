// arm activations (float32) on XNNPACK's unary nc operators, over the tensor
// as one row of numel values (element-wise, so any layout: registered at
// NHWC to sit between NHWC kernels): relu and relu6 on clamp_nc_f32,
// sigmoid, leaky_relu, hard_swish (Paddle's default threshold 6, scale 6,
// offset 3), abs and sqrt on their own operators. The operator is created
// once; it is set up again when the size or a pointer changes. tanh, swish,
// hard_sigmoid and hard_swish with other attributes have no XNNPACK
// operator here: they run the fused-activation loop
// (FusedActivation::Apply, the host kernels' arithmetic) in place, so
// NHWC chains need no layout change around them. gelu, exp and log are not
// registered and stay on host.
#include <limits>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/activation_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

using operators::ActivationKind;

class ActivationCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::ActivationParam>();
    if (!op_ && !loop_.enabled()) RETURN_IF_ERROR(Create(p));
    const size_t n = static_cast<size_t>(p.x->numel());
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    if (loop_.enabled()) {
      for (size_t i = 0; i < n; ++i) y[i] = loop_.Apply(x[i]);
      return Status::OK();
    }
    if (n != n_ || x != x_ || y != y_ || PoolChanged()) {
      RETURN_IF_ERROR(Setup(p.kind, n, x, y));
      n_ = n;
      x_ = x;
      y_ = y;
    }
    return Check(xnn_run_operator(op_.get(), pool()), "xnn_run_operator (activation)");
  }

 private:
  Status Create(const operators::ActivationParam& p) {
    const float inf = std::numeric_limits<float>::infinity();
    xnn_operator_t op = nullptr;
    switch (p.kind) {
      case ActivationKind::kRelu:
        RETURN_IF_ERROR(Check(xnn_create_clamp_nc_f32(1, 1, 1, 0.f, inf, 0, &op),
                              "xnn_create_clamp_nc_f32"));
        break;
      case ActivationKind::kRelu6:
        RETURN_IF_ERROR(Check(xnn_create_clamp_nc_f32(1, 1, 1, 0.f, p.threshold, 0, &op),
                              "xnn_create_clamp_nc_f32"));
        break;
      case ActivationKind::kSigmoid:
        RETURN_IF_ERROR(Check(xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &op),
                              "xnn_create_sigmoid_nc_f32"));
        break;
      case ActivationKind::kLeakyRelu:
        RETURN_IF_ERROR(Check(xnn_create_leaky_relu_nc_f32(1, 1, 1, p.alpha, 0, &op),
                              "xnn_create_leaky_relu_nc_f32"));
        break;
      case ActivationKind::kHardSwish:
        if (p.threshold != 6.f || p.scale != 6.f || p.offset != 3.f) {
          loop_.kind = operators::FusedActivation::kHardSwish;
          loop_.alpha = p.threshold;
          loop_.beta = p.scale;
          loop_.gamma = p.offset;
          return Status::OK();
        }
        RETURN_IF_ERROR(Check(xnn_create_hardswish_nc_f32(1, 1, 1, 0, &op),
                              "xnn_create_hardswish_nc_f32"));
        break;
      case ActivationKind::kTanh:
        loop_.kind = operators::FusedActivation::kTanh;
        return Status::OK();
      case ActivationKind::kSwish:
        loop_.kind = operators::FusedActivation::kSwish;
        loop_.alpha = p.beta;
        return Status::OK();
      case ActivationKind::kHardSigmoid:
        loop_.kind = operators::FusedActivation::kHardSigmoid;
        loop_.alpha = p.slope;
        loop_.beta = p.offset;
        return Status::OK();
      case ActivationKind::kAbs:
        RETURN_IF_ERROR(Check(xnn_create_abs_nc_f32(1, 1, 1, 0, &op), "xnn_create_abs_nc_f32"));
        break;
      case ActivationKind::kSqrt:
        RETURN_IF_ERROR(Check(xnn_create_square_root_nc_f32(1, 1, 1, 0, &op),
                              "xnn_create_square_root_nc_f32"));
        break;
      default: return Unimplemented(What() + ": no XNNPACK operator for " + p.act_type);
    }
    op_.reset(op);
    return Status::OK();
  }

  Status Setup(ActivationKind kind, size_t n, const float* x, float* y) {
    switch (kind) {
      case ActivationKind::kRelu:
      case ActivationKind::kRelu6:
        return Check(xnn_setup_clamp_nc_f32(op_.get(), n, x, y, pool()), "xnn_setup_clamp_nc_f32");
      case ActivationKind::kSigmoid:
        return Check(xnn_setup_sigmoid_nc_f32(op_.get(), n, x, y, pool()),
                     "xnn_setup_sigmoid_nc_f32");
      case ActivationKind::kLeakyRelu:
        return Check(xnn_setup_leaky_relu_nc_f32(op_.get(), n, x, y, pool()),
                     "xnn_setup_leaky_relu_nc_f32");
      case ActivationKind::kHardSwish:
        return Check(xnn_setup_hardswish_nc_f32(op_.get(), n, x, y, pool()),
                     "xnn_setup_hardswish_nc_f32");
      case ActivationKind::kAbs:
        return Check(xnn_setup_abs_nc_f32(op_.get(), n, x, y, pool()), "xnn_setup_abs_nc_f32");
      case ActivationKind::kSqrt:
        return Check(xnn_setup_square_root_nc_f32(op_.get(), n, x, y, pool()),
                     "xnn_setup_square_root_nc_f32");
      default: return Unimplemented(What() + ": no XNNPACK operator");
    }
  }

  lite::arm::XnnOperator op_;
  operators::FusedActivation loop_;  // enabled: the kinds run as a loop
  size_t n_ = 0;
  const float* x_ = nullptr;
  float* y_ = nullptr;
};

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_ARM_ACTIVATION(op)                                              \
  REGISTER_LITE_KERNEL(op, kARM, kFloat, kNHWC, lite::kernels::arm::ActivationCompute, \
                       def)                                                           \
      .Finalize()

LITE_REGISTER_ARM_ACTIVATION(relu);
LITE_REGISTER_ARM_ACTIVATION(relu6);
LITE_REGISTER_ARM_ACTIVATION(sigmoid);
LITE_REGISTER_ARM_ACTIVATION(leaky_relu);
LITE_REGISTER_ARM_ACTIVATION(hard_swish);
LITE_REGISTER_ARM_ACTIVATION(abs);
LITE_REGISTER_ARM_ACTIVATION(sqrt);
LITE_REGISTER_ARM_ACTIVATION(tanh);
LITE_REGISTER_ARM_ACTIVATION(swish);
LITE_REGISTER_ARM_ACTIVATION(hard_sigmoid);
