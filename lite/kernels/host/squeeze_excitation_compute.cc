// Host squeeze_excitation (NCHW): the block's formula as written in
// lite/operators/squeeze_excitation_op.h, one batch item at a time: plane
// means, the two small matrix-vector products, then each plane scaled by its
// gate (with the quant-dequant steps of a quantized block). The reference for
// the x86 kernel.
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/squeeze_excitation_op.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

class SqueezeExcitationCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::SqueezeExcitationParam>();
    const DDim& d = p.x->dims();
    const int64_t c = d[1], plane = d[2] * d[3];
    const int64_t r = p.squeeze_filter->dims()[0];
    const float* w1 = p.squeeze_filter->data<float>();
    const float* w2 = p.excite_filter->data<float>();
    const float* b1 = p.squeeze_bias ? p.squeeze_bias->data<float>() : nullptr;
    const float* b2 = p.excite_bias ? p.excite_bias->data<float>() : nullptr;
    std::vector<float> mean(c), hidden(r);
    for (int64_t n = 0; n < d[0]; ++n) {
      const float* x = p.x->data<float>() + n * c * plane;
      float* y = p.out->mutable_data<float>() + n * c * plane;
      for (int64_t ch = 0; ch < c; ++ch) {
        float sum = 0.f;
        for (int64_t i = 0; i < plane; ++i) sum += x[ch * plane + i];
        mean[ch] = sum / static_cast<float>(plane);
      }
      operators::QuantDequantInPlace(p.squeeze_input_scale, p.squeeze_round_type, mean.data(), c);
      for (int64_t i = 0; i < r; ++i) {
        float v = b1 ? b1[i] : 0.f;
        for (int64_t ch = 0; ch < c; ++ch) v += w1[i * c + ch] * mean[ch];
        hidden[i] = p.act.Apply(v);
      }
      operators::QuantDequantInPlace(p.excite_input_scale, p.excite_round_type, hidden.data(), r);
      for (int64_t ch = 0; ch < c; ++ch) {
        float v = b2 ? b2[ch] : 0.f;
        for (int64_t i = 0; i < r; ++i) v += w2[ch * r + i] * hidden[i];
        const float gate = p.y_act.Apply(v);
        for (int64_t i = 0; i < plane; ++i) y[ch * plane + i] = x[ch * plane + i] * gate;
      }
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(squeeze_excitation, kHost, kFloat, kNCHW,
                     lite::kernels::host::SqueezeExcitationCompute, def)
    .Finalize();
