// Host kernel for prior_box (prior_box_op.h): the box list of each cell is
// written in the order the op header gives, then clipped.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/prior_box_op.h"

namespace lite {
namespace kernels {
namespace host {

class PriorBoxCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::PriorBoxParam>();
    const int64_t fh = p.input->dims()[2], fw = p.input->dims()[3];
    const float ih = static_cast<float>(p.image->dims()[2]);
    const float iw = static_cast<float>(p.image->dims()[3]);
    const float step_w = p.step_w == 0.f ? iw / fw : p.step_w;
    const float step_h = p.step_h == 0.f ? ih / fh : p.step_h;
    float* boxes = p.boxes->mutable_data<float>();
    float* var = p.variances->mutable_data<float>();
    float* b = boxes;
    for (int64_t h = 0; h < fh; ++h) {
      for (int64_t w = 0; w < fw; ++w) {
        const float cx = (w + p.offset) * step_w, cy = (h + p.offset) * step_h;
        auto push = [&](float half_w, float half_h) {
          *b++ = (cx - half_w) / iw;
          *b++ = (cy - half_h) / ih;
          *b++ = (cx + half_w) / iw;
          *b++ = (cy + half_h) / ih;
        };
        for (size_t s = 0; s < p.min_sizes.size(); ++s) {
          const float mn = p.min_sizes[s];
          const float sq = p.max_sizes.empty() ? 0.f : std::sqrt(mn * p.max_sizes[s]) / 2.f;
          if (p.min_max_aspect_ratios_order) {
            push(mn / 2.f, mn / 2.f);
            if (!p.max_sizes.empty()) push(sq, sq);
            for (float ar : p.aspect_ratios) {
              if (std::fabs(ar - 1.f) < 1e-6f) continue;
              push(mn * std::sqrt(ar) / 2.f, mn / std::sqrt(ar) / 2.f);
            }
          } else {
            for (float ar : p.aspect_ratios) push(mn * std::sqrt(ar) / 2.f, mn / std::sqrt(ar) / 2.f);
            if (!p.max_sizes.empty()) push(sq, sq);
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

REGISTER_LITE_KERNEL(prior_box, kHost, kFloat, kNCHW, lite::kernels::host::PriorBoxCompute, def)
    .Finalize();
