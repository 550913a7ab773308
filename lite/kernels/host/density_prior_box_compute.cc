// Host kernel for density_prior_box (density_prior_box_op.h): boxes of each
// cell in the order fixed_sizes, fixed_ratios, density row, density column.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/density_prior_box_op.h"

namespace lite {
namespace kernels {
namespace host {

class DensityPriorBoxCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::DensityPriorBoxParam>();
    const int64_t fh = p.input->dims()[2], fw = p.input->dims()[3];
    const float ih = static_cast<float>(p.image->dims()[2]);
    const float iw = static_cast<float>(p.image->dims()[3]);
    const bool derive_steps = p.step_w == 0.f || p.step_h == 0.f;
    const float step_w = derive_steps ? iw / fw : p.step_w;
    const float step_h = derive_steps ? ih / fh : p.step_h;
    const int step_avg = static_cast<int>((step_w + step_h) * 0.5f);
    std::vector<float> sqrt_ratios;
    for (float r : p.fixed_ratios) sqrt_ratios.push_back(std::sqrt(r));
    float* b = p.boxes->mutable_data<float>();
    float* var = p.variances->mutable_data<float>();
    float* const boxes = b;
    for (int64_t h = 0; h < fh; ++h) {
      for (int64_t w = 0; w < fw; ++w) {
        const float cx = (w + p.offset) * step_w, cy = (h + p.offset) * step_h;
        for (size_t s = 0; s < p.fixed_sizes.size(); ++s) {
          const int density = p.densities[s];
          const int shift = step_avg / density;
          const float first_x = cx - step_avg / 2.f + shift / 2.f;
          const float first_y = cy - step_avg / 2.f + shift / 2.f;
          for (float sr : sqrt_ratios) {
            const float half_w = p.fixed_sizes[s] * sr / 2.f;
            const float half_h = p.fixed_sizes[s] / sr / 2.f;
            for (int di = 0; di < density; ++di) {
              for (int dj = 0; dj < density; ++dj) {
                const float x = first_x + dj * shift, y = first_y + di * shift;
                *b++ = std::max((x - half_w) / iw, 0.f);
                *b++ = std::max((y - half_h) / ih, 0.f);
                *b++ = std::min((x + half_w) / iw, 1.f);
                *b++ = std::min((y + half_h) / ih, 1.f);
              }
            }
          }
        }
      }
    }
    ClipBoxesAndFillVariances(boxes, var, p.boxes->numel(), p.clip, p.variance);
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(density_prior_box, kHost, kFloat, kNCHW,
                     lite::kernels::host::DensityPriorBoxCompute, def)
    .Finalize();
