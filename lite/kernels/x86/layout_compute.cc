// x86 kernels of the `layout` op (inserted by layout_cast_pass): a oneDNN
// reorder between NCHW and NHWC element order for rank-4 float tensors, a
// plain copy for any other rank or type (NHWC means plain order there).
// Aliases name the direction; the registered layout is the output's.
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/io_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

template <bool kToNhwc>
class LayoutCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::IoCopyParam>();
    const DDim& d = p.x->dims();
    if (d.size() != 4 || p.x->dtype() != DataType::kFloat32) {
      p.out->CopyDataFrom(*p.x);
      return Status::OK();
    }
    using lite::x86::NhwcDesc;
    using lite::x86::PlainDesc;
    auto src = lite::x86::WrapMemory(kToNhwc ? PlainDesc(d) : NhwcDesc(d), p.x->data<float>());
    auto dst = lite::x86::WrapMemory(kToNhwc ? NhwcDesc(d) : PlainDesc(d),
                                     p.out->mutable_data<float>());
    if (d != dims_) {
      reorder_ = dnnl::reorder(src, dst);
      dims_ = d;
    }
    reorder_.execute(stream(), src, dst);
    return Status::OK();
  }

 private:
  DDim dims_;
  dnnl::reorder reorder_;
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

using LayoutToNhwc = lite::kernels::x86::LayoutCompute<true>;
using LayoutToNchw = lite::kernels::x86::LayoutCompute<false>;
REGISTER_LITE_KERNEL(layout, kX86, kFloat, kNHWC, LayoutToNhwc, nchw_to_nhwc).Finalize();
REGISTER_LITE_KERNEL(layout, kX86, kFloat, kNCHW, LayoutToNchw, nhwc_to_nchw).Finalize();
