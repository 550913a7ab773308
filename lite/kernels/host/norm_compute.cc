// Host fp32 kernels for instance_norm, layer_norm and lrn (see
// lite/operators/norm_ops.h). Statistics are accumulated in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/norm_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {
// Mean and population variance of n values.
inline void MeanVar(const float* x, int64_t n, double* mean, double* var) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  const double m = n > 0 ? s / n : 0.0;
  double v = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = x[i] - m;
    v += d * d;
  }
  *mean = m;
  *var = n > 0 ? v / n : 0.0;
}

Status RequireFloat(const char* op, std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts) {
    if (t && t->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string(op) + " host kernel supports float32 only, got " +
                           DataTypeName(t->dtype()));
    }
  }
  return Status::OK();
}
}  // namespace

class InstanceNormCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::InstanceNormParam>();
    RETURN_IF_ERROR(RequireFloat("instance_norm", {p.x, p.scale, p.bias}));
    const DDim& d = p.x->dims();
    const int64_t n = d[0], c = d[1];
    int64_t inner = 1;
    for (size_t i = 2; i < d.size(); ++i) inner *= d[i];
    const float* x = p.x->data<float>();
    const float* scale = p.scale ? p.scale->data<float>() : nullptr;
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    float* y = p.y->mutable_data<float>();
    float* sm = p.saved_mean ? p.saved_mean->mutable_data<float>() : nullptr;
    float* sv = p.saved_variance ? p.saved_variance->mutable_data<float>() : nullptr;
    for (int64_t i = 0; i < n * c; ++i) {
      const int64_t ch = i % c;
      const float* xp = x + i * inner;
      float* yp = y + i * inner;
      double mean, var;
      MeanVar(xp, inner, &mean, &var);
      const double inv_std = 1.0 / std::sqrt(var + p.epsilon);
      const double a = inv_std * (scale ? scale[ch] : 1.f);
      const double b = (bias ? bias[ch] : 0.f) - mean * a;
      for (int64_t j = 0; j < inner; ++j) yp[j] = static_cast<float>(xp[j] * a + b);
      if (sm) sm[i] = static_cast<float>(mean);
      if (sv) sv[i] = static_cast<float>(inv_std);
    }
    return Status::OK();
  }
};

class LayerNormCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::LayerNormParam>();
    RETURN_IF_ERROR(RequireFloat("layer_norm", {p.x, p.scale, p.bias}));
    const DDim& d = p.x->dims();
    int64_t left = 1, right = 1;
    for (int i = 0; i < static_cast<int>(d.size()); ++i) {
      (i < p.begin_norm_axis ? left : right) *= d[i];
    }
    const float* x = p.x->data<float>();
    const float* scale = p.scale ? p.scale->data<float>() : nullptr;
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    float* y = p.y->mutable_data<float>();
    float* mean_out = p.mean ? p.mean->mutable_data<float>() : nullptr;
    float* var_out = p.variance ? p.variance->mutable_data<float>() : nullptr;
    for (int64_t r = 0; r < left; ++r) {
      const float* xp = x + r * right;
      float* yp = y + r * right;
      double mean, var;
      MeanVar(xp, right, &mean, &var);
      const float inv_std = static_cast<float>(1.0 / std::sqrt(var + p.epsilon));
      const float m = static_cast<float>(mean);
      for (int64_t j = 0; j < right; ++j) {
        float v = (xp[j] - m) * inv_std;
        if (scale) v *= scale[j];
        if (bias) v += bias[j];
        yp[j] = v;
      }
      if (mean_out) mean_out[r] = m;
      if (var_out) var_out[r] = static_cast<float>(var);
    }
    return Status::OK();
  }
};

class LrnCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::LrnParam>();
    RETURN_IF_ERROR(RequireFloat("lrn", {p.x}));
    const DDim& d = p.x->dims();
    const int64_t n = d[0], c = d[1], plane = d[2] * d[3];
    const int pre_pad = (p.n - 1) / 2;
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    mid_.resize(plane);
    float* mid_out = p.mid_out ? p.mid_out->mutable_data<float>() : nullptr;
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        std::fill(mid_.begin(), mid_.end(), p.k);
        const int64_t lo = std::max<int64_t>(ch - pre_pad, 0);
        const int64_t hi = std::min<int64_t>(ch - pre_pad + p.n, c);
        for (int64_t j = lo; j < hi; ++j) {
          const float* xj = x + (b * c + j) * plane;
          for (int64_t i = 0; i < plane; ++i) mid_[i] += p.alpha * xj[i] * xj[i];
        }
        const int64_t off = (b * c + ch) * plane;
        for (int64_t i = 0; i < plane; ++i) {
          out[off + i] = x[off + i] * std::pow(mid_[i], -p.beta);
        }
        if (mid_out) std::copy(mid_.begin(), mid_.end(), mid_out + off);
      }
    }
    return Status::OK();
  }

 private:
  std::vector<float> mid_;
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(instance_norm, kHost, kFloat, kNCHW,
                     lite::kernels::host::InstanceNormCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(layer_norm, kHost, kFloat, kNCHW, lite::kernels::host::LayerNormCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(lrn, kHost, kFloat, kNCHW, lite::kernels::host::LrnCompute, def)
    .Finalize();
