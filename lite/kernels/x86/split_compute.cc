// x86 split of float32 tensors along a static axis (num or sections; an
// AxisTensor or SectionsTensorList input declines at kernel pick).
// Registered at layout NHWC: a rank-4 X and its outputs are in NHWC element
// order, so a channel split (NAFNet's SimpleGate halves) copies each pixel's
// channel runs, with no layout casts around it; other axes are runs of whole
// pixels or rows. Shapes as the host kernel (operators::ComputeSplitDims).
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/concat_split_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class SplitCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SplitParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented("split on x86: float32 only, got " +
                           std::string(DataTypeName(p.x->dtype())));
    }
    int axis = 0;
    ASSIGN_OR_RETURN(std::vector<DDim> dims, operators::ComputeSplitDims(p, &axis));
    const DDim& xd = p.x->dims();
    // X's dims in element order (NHWC for rank 4) and the split axis there.
    std::vector<int64_t> order(xd.size());
    for (size_t i = 0; i < xd.size(); ++i) order[i] = static_cast<int64_t>(i);
    if (xd.size() == 4) order = {0, 2, 3, 1};
    int64_t outer = 1, after = 1;
    bool seen = false;
    for (int64_t a : order) {
      if (a == axis) seen = true;
      else if (seen) after *= xd[a];
      else outer *= xd[a];
    }
    std::vector<int64_t> inner;
    int64_t row = 0;
    for (size_t i = 0; i < dims.size(); ++i) {
      p.outs[i]->Resize(dims[i]);
      inner.push_back(dims[i][axis] * after);
      row += inner.back();
    }
    const float* x = p.x->data<float>();
    for (size_t i = 0, at = 0; i < dims.size(); at += inner[i], ++i) {
      float* y = p.outs[i]->mutable_data<float>();
      const size_t bytes = static_cast<size_t>(inner[i]) * sizeof(float);
      for (int64_t o = 0; o < outer; ++o) std::memcpy(y + o * inner[i], x + o * row + at, bytes);
    }
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(split, kX86, kFloat, kNHWC, lite::kernels::x86::SplitCompute, def)
    .SetAccepts([](const lite::cpp::OpDesc& desc) {
      return !desc.HasInput("AxisTensor") && !desc.HasInput("SectionsTensorList");
    })
    .Finalize();
