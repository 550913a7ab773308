// Host fp32 kernel for simple_gate (simple_gate_op.h): each row of X (the
// dims before the axis) is [first half | second half]; Out's row is their
// product.
#include "lite/core/kernel.h"
#include "lite/operators/simple_gate_op.h"

namespace lite {
namespace kernels {
namespace host {

class SimpleGateCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::SimpleGateParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("simple_gate on " + std::string(DataTypeName(p.x->dtype())) +
                           " input (float32 only)");
    }
    const DDim& xd = p.x->dims();
    int64_t outer = 1, half = xd[p.axis] / 2;
    for (int i = 0; i < p.axis; ++i) outer *= xd[i];
    for (size_t i = p.axis + 1; i < xd.size(); ++i) half *= xd[i];
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    for (int64_t o = 0; o < outer; ++o) {
      const float* a = x + o * 2 * half;
      for (int64_t k = 0; k < half; ++k) y[o * half + k] = a[k] * a[half + k];
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(simple_gate, kHost, kFloat, kNCHW, lite::kernels::host::SimpleGateCompute,
                     def)
    .Finalize();
