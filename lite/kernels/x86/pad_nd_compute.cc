// x86 pad (the legacy N-D constant pad, operators/pad_nd_op.h) on tensors
// as the NHWC kernels hold them: a face detector's channel padding of a
// rank-4 activation (paddings on dim 1) stays in NHWC order, no layout
// cast either side. Padding only the channels of an NHWC tensor writes each
// output pixel once (its channels, then pad_value); any other padding fills
// Out with pad_value, then copies X in as a box (memory_box.h: one run of
// channels per pixel). float32 only; the host kernel (any dtype) remains
// the pick for integer inputs.
#include <algorithm>

#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/base/memory_box.h"
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
    const auto& pd = p.paddings;
    if (nhwc() && rank == 4 && pd[0] == 0 && pd[1] == 0 && pd[4] == 0 && pd[5] == 0 &&
        pd[6] == 0 && pd[7] == 0) {
      PadChannels(p.x->data<float>(), y, xd[0] * xd[2] * xd[3], xd[1], pd[2], pd[3], p.pad_value);
      return Status::OK();
    }
    std::fill(y, y + p.out->numel(), p.pad_value);
    if (p.x->numel() == 0) return Status::OK();
    const std::vector<int64_t> xs = MemoryStrides(xd, nhwc()), os = MemoryStrides(od, nhwc());
    int64_t offset = 0;
    for (int k = 0; k < rank; ++k) offset += p.paddings[2 * k] * os[k];
    CopyBox(reinterpret_cast<const char*>(p.x->data<float>()), xs,
            reinterpret_cast<char*>(y + offset), os, xd, sizeof(float));
    return Status::OK();
  }

 private:
  // `pixels` NHWC pixels of `c` channels, each written as `before` values,
  // its channels, `after` values.
  static void PadChannels(const float* x, float* y, int64_t pixels, int64_t c, int64_t before,
                          int64_t after, float value) {
    const int64_t oc = before + c + after;
    for (int64_t i = 0; i < pixels; ++i) {
      float* o = y + i * oc;
      std::fill(o, o + before, value);
      std::copy(x + i * c, x + (i + 1) * c, o + before);
      std::fill(o + before + c, o + oc, value);
    }
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pad, kX86, kFloat, kNHWC, lite::kernels::x86::PadNdCompute, def).Finalize();
