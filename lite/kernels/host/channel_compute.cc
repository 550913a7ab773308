// Host kernels for group_norm and affine_channel (channel_ops.h): plain loops
// on float32; group statistics accumulate in double.
#include <algorithm>
#include <cmath>
#include <string>

#include "lite/core/kernel.h"
#include "lite/operators/channel_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::ChannelParam;

Status GroupNorm(const ChannelParam& p) {
  const DDim& xd = p.x->dims();
  const int64_t n = xd[0], c = xd[1];
  const int64_t spatial = p.x->numel() / (n * c == 0 ? 1 : n * c);
  const int64_t per_group = c / p.groups;
  const float* x = p.x->data<float>();
  const float* scale = p.scale ? p.scale->data<float>() : nullptr;
  const float* bias = p.bias ? p.bias->data<float>() : nullptr;
  float* y = p.out->mutable_data<float>();
  float* mean_out = p.mean ? p.mean->mutable_data<float>() : nullptr;
  float* var_out = p.variance ? p.variance->mutable_data<float>() : nullptr;
  const int64_t count = per_group * spatial;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t g = 0; g < p.groups; ++g) {
      const int64_t base = (b * c + g * per_group) * spatial;
      double sum = 0.0, sq = 0.0;
      for (int64_t i = 0; i < count; ++i) {
        sum += x[base + i];
        sq += double(x[base + i]) * x[base + i];
      }
      const double mean = count ? sum / count : 0.0;
      const double var = count ? std::max(sq / count - mean * mean, 0.0) : 0.0;
      const double inv = 1.0 / std::sqrt(var + p.epsilon);
      for (int64_t ch = 0; ch < per_group; ++ch) {
        const int64_t channel = g * per_group + ch;
        const float s = scale ? scale[channel] : 1.f;
        const float t = bias ? bias[channel] : 0.f;
        for (int64_t i = 0; i < spatial; ++i) {
          const int64_t at = base + ch * spatial + i;
          y[at] = static_cast<float>((x[at] - mean) * inv) * s + t;
        }
      }
      if (mean_out) mean_out[b * p.groups + g] = static_cast<float>(mean);
      if (var_out) var_out[b * p.groups + g] = static_cast<float>(var);
    }
  }
  return Status::OK();
}

Status AffineChannel(const ChannelParam& p) {
  const DDim& xd = p.x->dims();
  const int64_t c = p.channel_last ? xd.back() : xd[1];
  const int64_t inner = p.channel_last ? 1 : p.x->numel() / (xd[0] * c == 0 ? 1 : xd[0] * c);
  const float* x = p.x->data<float>();
  const float* scale = p.scale->data<float>();
  const float* bias = p.bias->data<float>();
  float* out = p.out->mutable_data<float>();
  const int64_t total = p.x->numel();
  for (int64_t i = 0; i < total; ++i) {
    const int64_t ch = i / inner % c;
    out[i] = x[i] * scale[ch] + bias[ch];
  }
  return Status::OK();
}

class ChannelCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<ChannelParam>();
    return def().op_type == "group_norm" ? GroupNorm(p) : AffineChannel(p);
  }
};

}  // namespace

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(group_norm, kHost, kFloat, kNCHW, lite::kernels::host::ChannelCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(affine_channel, kHost, kFloat, kNCHW, lite::kernels::host::ChannelCompute,
                     def)
    .Finalize();
