// Host fp32 kernel for channel_layer_norm (lite/operators/channel_layer_norm_op.h):
// LayerNorm over the C values of each pixel of an NCHW tensor. The
// statistics of a sample's H x W pixels are accumulated in double over the
// channel planes (each plane read in order, not at a stride of H x W per
// value), then every plane is normalized.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/channel_layer_norm_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

class ChannelLayerNormCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::ChannelLayerNormParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("channel_layer_norm host kernel supports float32 only, got ") +
                           DataTypeName(p.x->dtype()));
    }
    const DDim& d = p.x->dims();
    const int64_t n = d[0], c = d[1], plane = d[2] * d[3];
    const float* x = p.x->data<float>();
    const float* scale = p.scale ? p.scale->data<float>() : nullptr;
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    float* y = p.y->mutable_data<float>();
    mean_.resize(plane);
    var_.resize(plane);
    for (int64_t b = 0; b < n; ++b) {
      const float* xb = x + b * c * plane;
      float* yb = y + b * c * plane;
      std::fill(mean_.begin(), mean_.end(), 0.0);
      std::fill(var_.begin(), var_.end(), 0.0);
      for (int64_t ch = 0; ch < c; ++ch) {
        for (int64_t i = 0; i < plane; ++i) mean_[i] += xb[ch * plane + i];
      }
      for (int64_t i = 0; i < plane; ++i) mean_[i] /= static_cast<double>(c);
      for (int64_t ch = 0; ch < c; ++ch) {
        for (int64_t i = 0; i < plane; ++i) {
          const double dv = xb[ch * plane + i] - mean_[i];
          var_[i] += dv * dv;
        }
      }
      for (int64_t i = 0; i < plane; ++i) {
        var_[i] = 1.0 / std::sqrt(var_[i] / static_cast<double>(c) + p.epsilon);  // inv std
      }
      for (int64_t ch = 0; ch < c; ++ch) {
        const double s = scale ? scale[ch] : 1.0, t = bias ? bias[ch] : 0.0;
        for (int64_t i = 0; i < plane; ++i) {
          const double v = (xb[ch * plane + i] - mean_[i]) * var_[i];
          yb[ch * plane + i] = static_cast<float>(v * s + t);
        }
      }
    }
    return Status::OK();
  }

 private:
  std::vector<double> mean_, var_;  // per pixel of one sample
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(channel_layer_norm, kHost, kFloat, kNCHW,
                     lite::kernels::host::ChannelLayerNormCompute, def)
    .Finalize();
