// Host kernel for box_clip (box_clip_op.h).
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/box_clip_op.h"

namespace lite {
namespace kernels {
namespace host {

class BoxClipCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::BoxClipParam>();
    const DDim& d = p.input->dims();
    const int64_t images = p.im_info->dims()[0];
    // Box row ranges per image.
    std::vector<uint64_t> bounds;
    if (d.size() == 3) {
      for (int64_t n = 0; n <= images; ++n) bounds.push_back(n * d[1]);
    } else if (!p.input->lod().empty()) {
      bounds = p.input->lod().back();
    } else {
      bounds = {0, static_cast<uint64_t>(d[0])};
    }
    const float* info = p.im_info->data<float>();
    const float* in = p.input->data<float>();
    float* out = p.out->mutable_data<float>();
    for (int64_t n = 0; n < images; ++n) {
      const float h = std::round(info[n * 3] / info[n * 3 + 2]);
      const float w = std::round(info[n * 3 + 1] / info[n * 3 + 2]);
      for (uint64_t r = bounds[n]; r < bounds[n + 1]; ++r) {
        for (int c = 0; c < 4; ++c) {
          const float hi = (c % 2 == 0 ? w : h) - 1.f;
          out[r * 4 + c] = std::max(std::min(in[r * 4 + c], hi), 0.f);
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(box_clip, kHost, kFloat, kNCHW, lite::kernels::host::BoxClipCompute, def)
    .Finalize();
