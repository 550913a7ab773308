// x86 pad (the legacy N-D constant pad, operators/pad_nd_op.h) on tensors
// as the NHWC kernels hold them: a face detector's channel padding of a
// rank-4 activation (paddings on dim 1) stays in NHWC order, no layout
// cast either side. Out is filled with pad_value, then X is copied in as a
// box (memory_box.h: one run of channels per pixel). float32 only; the host
// kernel (any dtype) remains the pick for integer inputs.
#include <algorithm>

#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/kernels/x86/memory_box.h"
#include "lite/operators/pad_nd_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class PadNdCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::PadNdParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string("x86 pad supports float32 only, got ") +
                           DataTypeName(p.x->dtype()));
    }
    const DDim& xd = p.x->dims();
    const DDim& od = p.out->dims();
    const int rank = static_cast<int>(xd.size());
    if (p.paddings.size() != 2 * xd.size() || od.size() != xd.size()) {
      return InvalidArgument("pad: " + std::to_string(p.paddings.size()) +
                             " paddings for X " + DimsToString(xd) + ", Out " + DimsToString(od));
    }
    float* y = p.out->mutable_data<float>();
    std::fill(y, y + p.out->numel(), p.pad_value);
    if (p.x->numel() == 0) return Status::OK();
    const std::vector<int64_t> xs = MemoryStrides(xd, nhwc()), os = MemoryStrides(od, nhwc());
    int64_t offset = 0;
    for (int k = 0; k < rank; ++k) offset += p.paddings[2 * k] * os[k];
    CopyBox(reinterpret_cast<const char*>(p.x->data<float>()), xs,
            reinterpret_cast<char*>(y + offset), os, xd, sizeof(float));
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pad, kX86, kFloat, kNHWC, lite::kernels::x86::PadNdCompute, def).Finalize();
