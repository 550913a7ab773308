// x86 softmax on oneDNN's softmax primitive (any axis; log_softmax stays on
// host). Registered at layout NHWC: the axis is logical, oneDNN follows the
// memory descriptor. Primitive re-created when dims change.
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
    const auto md = Desc(*p.x);
    if (dims != dims_) {
      const int rank = static_cast<int>(dims.size());
      const int axis = p.axis < 0 ? p.axis + rank : p.axis;
      dnnl::softmax_forward::desc d(dnnl::prop_kind::forward_inference, md, axis);
      softmax_ = dnnl::softmax_forward(
          dnnl::softmax_forward::primitive_desc(d, lite::x86::CpuEngine()));
      dims_ = dims;
    }
    Execute(softmax_, {{DNNL_ARG_SRC, Mem(DNNL_ARG_SRC, md, p.x->data<float>())},
                       {DNNL_ARG_DST, Mem(DNNL_ARG_DST, md, p.out->mutable_data<float>())}});
    return Status::OK();
  }

 private:
  DDim dims_;
  dnnl::softmax_forward softmax_;
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(softmax, kX86, kFloat, kNHWC, lite::kernels::x86::SoftmaxCompute, def)
    .Finalize();
