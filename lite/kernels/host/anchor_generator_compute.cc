// Host kernel for anchor_generator (anchor_generator_op.h).
#include <cmath>

#include "lite/core/kernel.h"
#include "lite/operators/anchor_generator_op.h"

namespace lite {
namespace kernels {
namespace host {

class AnchorGeneratorCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::AnchorGeneratorParam>();
    const int64_t fh = p.input->dims()[2], fw = p.input->dims()[3];
    const float sw = p.stride[0], sh = p.stride[1];
    float* a = p.anchors->mutable_data<float>();
    for (int64_t h = 0; h < fh; ++h) {
      for (int64_t w = 0; w < fw; ++w) {
        const float cx = w * sw + p.offset * (sw - 1), cy = h * sh + p.offset * (sh - 1);
        for (float r : p.aspect_ratios) {
          const float base_w = std::round(std::sqrt(sw * sh / r));
          const float base_h = std::round(base_w * r);
          for (float s : p.anchor_sizes) {
            const float aw = s / sw * base_w, ah = s / sh * base_h;
            *a++ = cx - 0.5f * (aw - 1);
            *a++ = cy - 0.5f * (ah - 1);
            *a++ = cx + 0.5f * (aw - 1);
            *a++ = cy + 0.5f * (ah - 1);
          }
        }
      }
    }
    float* v = p.variances->mutable_data<float>();
    for (int64_t i = 0; i < p.variances->numel(); ++i) v[i] = p.variance[i % 4];
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(anchor_generator, kHost, kFloat, kNCHW,
                     lite::kernels::host::AnchorGeneratorCompute, def)
    .Finalize();
