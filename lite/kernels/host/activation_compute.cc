// Host fp32 kernels for the unary activations and prelu declared in
// activation_ops.h. One kernel class switches on the activation kind once per
// run; each kind then runs its own tight loop.
#include <algorithm>
#include <cmath>

#include "lite/core/kernel.h"
#include "lite/operators/activation_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ActivationKind;
using operators::ActivationParam;
using operators::PReluParam;

template <typename F>
void Map(const float* x, float* y, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
}

class ActivationCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ActivationParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(p.act_type + " on " + DataTypeName(p.x->dtype()) +
                           " input (float32 only)");
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const int64_t n = p.x->numel();
    switch (p.kind) {
      case ActivationKind::kRelu:
        Map(x, y, n, [](float v) { return v > 0.f ? v : 0.f; });
        break;
      case ActivationKind::kTanh:
        Map(x, y, n, [](float v) { return std::tanh(v); });
        break;
      case ActivationKind::kSigmoid:
        Map(x, y, n, [](float v) { return 1.f / (1.f + std::exp(-v)); });
        break;
      case ActivationKind::kRelu6: {
        const float t = p.threshold;
        Map(x, y, n, [t](float v) { return std::min(std::max(v, 0.f), t); });
        break;
      }
      case ActivationKind::kLeakyRelu: {
        const float a = p.alpha;
        Map(x, y, n, [a](float v) { return v > 0.f ? v : v * a; });
        break;
      }
      case ActivationKind::kHardSwish: {
        const float t = p.threshold, o = p.offset, s = p.scale;
        Map(x, y, n, [=](float v) { return v * std::min(std::max(v + o, 0.f), t) / s; });
        break;
      }
      case ActivationKind::kHardSigmoid: {
        const float s = p.slope, o = p.offset;
        Map(x, y, n, [=](float v) { return std::min(std::max(s * v + o, 0.f), 1.f); });
        break;
      }
      case ActivationKind::kSwish: {
        const float b = p.beta;
        Map(x, y, n, [b](float v) { return v / (1.f + std::exp(-b * v)); });
        break;
      }
      case ActivationKind::kGelu:
        if (p.approximate) {
          const float k = std::sqrt(2.f / static_cast<float>(M_PI));
          Map(x, y, n, [k](float v) {
            return 0.5f * v * (1.f + std::tanh(k * (v + 0.044715f * v * v * v)));
          });
        } else {
          const float r = static_cast<float>(M_SQRT1_2);
          Map(x, y, n, [r](float v) { return 0.5f * v * (1.f + std::erf(v * r)); });
        }
        break;
      case ActivationKind::kExp:
        Map(x, y, n, [](float v) { return std::exp(v); });
        break;
      case ActivationKind::kLog:
        Map(x, y, n, [](float v) { return std::log(v); });
        break;
      case ActivationKind::kSqrt:
        Map(x, y, n, [](float v) { return std::sqrt(v); });
        break;
      case ActivationKind::kAbs:
        Map(x, y, n, [](float v) { return std::fabs(v); });
        break;
    }
    return Status::OK();
  }
};

class PReluCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<PReluParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.alpha->dtype() != DataType::kFloat32) {
      return Unimplemented("prelu supports float32 X and Alpha only");
    }
    const float* x = p.x->data<float>();
    const float* a = p.alpha->data<float>();
    float* y = p.out->mutable_data<float>();
    const DDim& d = p.x->dims();
    const int64_t n = p.x->numel();
    auto f = [](float v, float s) { return v > 0.f ? v : v * s; };
    if (p.mode == "all") {
      const float s = a[0];
      for (int64_t i = 0; i < n; ++i) y[i] = f(x[i], s);
    } else if (p.mode == "element") {
      const int64_t per = d.empty() || d[0] == 0 ? n : n / d[0];
      for (int64_t i = 0; i < n; i += per) {
        for (int64_t j = 0; j < per; ++j) y[i + j] = f(x[i + j], a[j]);
      }
    } else if (p.channel_last) {
      const int64_t c = d.back();
      for (int64_t i = 0; i < n; i += c) {
        for (int64_t j = 0; j < c; ++j) y[i + j] = f(x[i + j], a[j]);
      }
    } else {  // channel, NCHW
      const int64_t c = d[1];
      int64_t inner = 1;
      for (size_t i = 2; i < d.size(); ++i) inner *= d[i];
      const int64_t outer = d[0];
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t ch = 0; ch < c; ++ch) {
          const float s = a[ch];
          const int64_t base = (o * c + ch) * inner;
          for (int64_t k = 0; k < inner; ++k) y[base + k] = f(x[base + k], s);
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_ACTIVATION(op)                                           \
  REGISTER_LITE_KERNEL(op, kHost, kFloat, kNCHW,                               \
                       lite::kernels::host::ActivationCompute, def)            \
      .Finalize()

LITE_REGISTER_ACTIVATION(relu);
LITE_REGISTER_ACTIVATION(tanh);
LITE_REGISTER_ACTIVATION(sigmoid);
LITE_REGISTER_ACTIVATION(relu6);
LITE_REGISTER_ACTIVATION(leaky_relu);
LITE_REGISTER_ACTIVATION(hard_swish);
LITE_REGISTER_ACTIVATION(hard_sigmoid);
LITE_REGISTER_ACTIVATION(swish);
LITE_REGISTER_ACTIVATION(gelu);
LITE_REGISTER_ACTIVATION(exp);
LITE_REGISTER_ACTIVATION(log);
LITE_REGISTER_ACTIVATION(sqrt);
LITE_REGISTER_ACTIVATION(abs);

REGISTER_LITE_KERNEL(prelu, kHost, kFloat, kNCHW, lite::kernels::host::PReluCompute, def)
    .Finalize();
