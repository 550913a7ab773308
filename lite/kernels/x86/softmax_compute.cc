// x86 softmax (any axis; log_softmax stays on host) on the own loops of
// lite/backends/x86/softmax.h. Registered at layout NHWC: the axis is
// logical, and for a rank-4 activation held in NHWC order it is mapped to
// its memory position (C innermost, W at a stride of C) before the
// [outer, axis, inner] view is taken. oneDNN's softmax took its reference
// path for an axis that is not innermost in memory (the attention softmax of
// PP-OCRv4 rec, [1, 8, 76, 76] in NHWC), hundreds of ns per value.
#include "lite/backends/x86/softmax.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/softmax_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class SoftmaxCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    const auto& p = Param<operators::SoftmaxParam>();
    const DDim& dims = p.x->dims();
    const int rank = static_cast<int>(dims.size());
    int axis = p.axis < 0 ? p.axis + rank : p.axis;
    if (axis < 0 || axis >= rank) {
      return InvalidArgument("softmax: axis " + std::to_string(p.axis) + " out of range for " +
                             "rank " + std::to_string(rank));
    }
    // The extents in memory order: NCHW logical dims held as NHWC.
    std::vector<int64_t> memory(dims.begin(), dims.end());
    if (Desc(*p.x) != lite::x86::PlainDesc(dims)) {
      memory = {dims[0], dims[2], dims[3], dims[1]};
      static const int kNchwToNhwc[4] = {0, 3, 1, 2};
      axis = kNchwToNhwc[axis];
    }
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= memory[i];
    for (int i = axis + 1; i < rank; ++i) inner *= memory[i];
    lite::x86::Softmax(p.x->data<float>(), p.out->mutable_data<float>(), outer, memory[axis],
                       inner);
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(softmax, kX86, kFloat, kNHWC, lite::kernels::x86::SoftmaxCompute, def)
    .Finalize();
