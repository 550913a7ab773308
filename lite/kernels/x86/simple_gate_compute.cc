// x86 simple_gate (simple_gate_op.h) on float32, registered at layout NHWC:
// for a rank-4 X, a channel gate multiplies each pixel's two channel halves
// (contiguous runs), one read of X and one write of Out where split + mul
// wrote both halves and read them back. Other axes and ranks are rows of X
// in its element order (NHWC for rank 4), as the split kernel walks them.
#include "lite/core/kernel.h"
#include "lite/operators/simple_gate_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class SimpleGateCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::SimpleGateParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("simple_gate on " + std::string(DataTypeName(p.x->dtype())) +
                           " input (float32 only)");
    }
    const DDim& xd = p.x->dims();
    std::vector<int64_t> order(xd.size());
    for (size_t i = 0; i < xd.size(); ++i) order[i] = static_cast<int64_t>(i);
    if (xd.size() == 4) order = {0, 2, 3, 1};
    int64_t outer = 1, half = xd[p.axis] / 2;
    bool seen = false;
    for (int64_t a : order) {
      if (a == p.axis) seen = true;
      else if (seen) half *= xd[a];
      else outer *= xd[a];
    }
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    for (int64_t o = 0; o < outer; ++o) {
      const float* a = x + o * 2 * half;
      float* yo = y + o * half;
#pragma omp simd
      for (int64_t k = 0; k < half; ++k) yo[k] = a[k] * a[half + k];
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(simple_gate, kX86, kFloat, kNHWC, lite::kernels::x86::SimpleGateCompute,
                     def)
    .Finalize();
