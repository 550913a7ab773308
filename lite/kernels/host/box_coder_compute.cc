// Host kernel for box_coder (box_coder_op.h): one loop over (target, prior)
// pairs for either direction.
#include <cmath>

#include "lite/core/kernel.h"
#include "lite/operators/box_coder_op.h"

namespace lite {
namespace kernels {
namespace host {

class BoxCoderCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::BoxCoderParam>();
    const float one = p.normalized ? 0.f : 1.f;
    const float* prior = p.prior->data<float>();
    const float* pvar = p.prior_var ? p.prior_var->data<float>() : nullptr;
    const float* t = p.target->data<float>();
    float* out = p.out->mutable_data<float>();
    const int64_t rows = p.out->dims()[0], cols = p.out->dims()[1];
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t k = p.encode || p.axis == 0 ? j : i;  // the prior
        const float* pb = prior + k * 4;
        const float pw = pb[2] - pb[0] + one, ph = pb[3] - pb[1] + one;
        const float pcx = pb[0] + pw / 2, pcy = pb[1] + ph / 2;
        float v[4] = {1.f, 1.f, 1.f, 1.f};
        for (int c = 0; c < 4; ++c) {
          if (pvar) v[c] = pvar[k * 4 + c];
          else if (!p.variance.empty()) v[c] = p.variance[c];
        }
        float* o = out + (i * cols + j) * 4;
        if (p.encode) {
          const float* tb = t + i * 4;
          const float tw = tb[2] - tb[0] + one, th = tb[3] - tb[1] + one;
          const float tcx = (tb[0] + tb[2]) / 2, tcy = (tb[1] + tb[3]) / 2;
          o[0] = (tcx - pcx) / pw / v[0];
          o[1] = (tcy - pcy) / ph / v[1];
          o[2] = std::log(std::fabs(tw / pw)) / v[2];
          o[3] = std::log(std::fabs(th / ph)) / v[3];
        } else {
          const float* tb = t + (i * cols + j) * 4;
          const float cx = v[0] * tb[0] * pw + pcx, cy = v[1] * tb[1] * ph + pcy;
          const float w = std::exp(v[2] * tb[2]) * pw, h = std::exp(v[3] * tb[3]) * ph;
          o[0] = cx - w / 2;
          o[1] = cy - h / 2;
          o[2] = cx + w / 2 - one;
          o[3] = cy + h / 2 - one;
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(box_coder, kHost, kFloat, kNCHW, lite::kernels::host::BoxCoderCompute, def)
    .Finalize();
