// Host fp32 kernel for p_norm (p_norm_op.h), accumulating in double.
#include <cmath>
#include <limits>

#include "lite/core/kernel.h"
#include "lite/operators/p_norm_op.h"

namespace lite {
namespace kernels {
namespace host {

class PNormCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::PNormParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("p_norm on ") + DataTypeName(p.x->dtype()) +
                           " input (float32 only)");
    }
    const float* x = p.x->data<float>();
    float* out = p.out->mutable_data<float>();
    const double q = p.porder;
    for (int64_t o = 0; o < p.outer; ++o) {
      for (int64_t k = 0; k < p.inner; ++k) {
        const float* line = x + o * p.n * p.inner + k;
        double acc = std::isinf(q) && q < 0 ? std::numeric_limits<double>::infinity() : 0.0;
        for (int64_t j = 0; j < p.n; ++j) {
          const double a = std::fabs(static_cast<double>(line[j * p.inner]));
          if (std::isinf(q)) {
            acc = q > 0 ? std::max(acc, a) : std::min(acc, a);
          } else if (q == 0) {
            acc += a != 0 ? 1.0 : 0.0;
          } else {
            acc += std::pow(a, q);
          }
        }
        if (!std::isinf(q) && q != 0) acc = std::pow(acc, 1.0 / q);
        out[o * p.inner + k] = static_cast<float>(acc);
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(p_norm, kHost, kFloat, kNCHW, lite::kernels::host::PNormCompute, def)
    .Finalize();
