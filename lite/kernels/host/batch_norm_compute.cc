// Host fp32 kernel for batch_norm (see lite/operators/batch_norm_op.h).
// Prepare folds Scale/Bias/Mean/Variance into per-channel scale and shift
// (weights are persistable and fixed after load); Run refolds only when one
// of them is not persistable, then computes Y = X * scale[c] + shift[c].
#include <cmath>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/batch_norm_op.h"

namespace lite {
namespace kernels {
namespace host {

class BatchNormCompute : public KernelBase {
 public:
  Status Prepare() override { return Fold(); }

  Status Run() override {
    auto& p = Param<operators::BatchNormParam>();
    if (!AllPersistable(p)) RETURN_IF_ERROR(Fold());
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("batch_norm host kernel supports float32 only");
    }
    const DDim& d = p.x->dims();
    const int64_t n = d[0], c = d[1];
    if (static_cast<int64_t>(scale_.size()) != c) {
      return InvalidArgument("batch_norm: X has " + std::to_string(c) +
                             " channels but the statistics hold " +
                             std::to_string(scale_.size()));
    }
    int64_t inner = 1;
    for (size_t i = 2; i < d.size(); ++i) inner *= d[i];
    const float* x = p.x->data<float>();
    float* y = p.y->mutable_data<float>();
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        const float s = scale_[ch], t = shift_[ch];
        const float* xp = x + (b * c + ch) * inner;
        float* yp = y + (b * c + ch) * inner;
        for (int64_t i = 0; i < inner; ++i) yp[i] = xp[i] * s + t;
      }
    }
    CopyIfDistinct(p.mean, p.mean_out);
    CopyIfDistinct(p.variance, p.variance_out);
    for (Tensor* t : {p.saved_mean, p.saved_variance}) {
      if (t) std::memset(t->mutable_data<float>(), 0, sizeof(float) * t->numel());
    }
    return Status::OK();
  }

 private:
  static bool AllPersistable(const operators::BatchNormParam& p) {
    for (const Tensor* t : {p.scale, p.bias, p.mean, p.variance}) {
      if (t && !t->persistable()) return false;
    }
    return true;
  }

  static void CopyIfDistinct(const Tensor* src, Tensor* dst) {
    if (!dst || dst == src) return;
    const float* s = src->data<float>();
    float* o = dst->mutable_data<float>();
    std::memcpy(o, s, sizeof(float) * src->numel());
  }

  Status Fold() {
    auto& p = Param<operators::BatchNormParam>();
    for (const Tensor* t : {p.scale, p.bias, p.mean, p.variance}) {
      if (t && t->dtype() != DataType::kFloat32) {
        return Unimplemented("batch_norm host kernel supports float32 statistics only");
      }
    }
    const int64_t c = p.mean->numel();
    scale_.resize(c);
    shift_.resize(c);
    const float* mean = p.mean->data<float>();
    const float* var = p.variance->data<float>();
    const float* gamma = p.scale ? p.scale->data<float>() : nullptr;
    const float* beta = p.bias ? p.bias->data<float>() : nullptr;
    for (int64_t i = 0; i < c; ++i) {
      const float inv_std = 1.f / std::sqrt(var[i] + p.epsilon);
      const float s = (gamma ? gamma[i] : 1.f) * inv_std;
      scale_[i] = s;
      shift_[i] = (beta ? beta[i] : 0.f) - mean[i] * s;
    }
    return Status::OK();
  }

  std::vector<float> scale_, shift_;
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(batch_norm, kHost, kFloat, kNCHW,
                     lite::kernels::host::BatchNormCompute, def)
    .Finalize();
