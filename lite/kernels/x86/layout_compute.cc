// x86 kernels of the `layout` op (inserted by layout_cast_pass): a oneDNN
// reorder between NCHW and NHWC element order for rank-4 float or int32
// tensors, a plain copy for any other rank (NHWC means plain order there)
// or type.
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
    const DataType t = p.x->dtype();
    if (d.size() != 4 || (t != DataType::kFloat32 && t != DataType::kInt32)) {
      p.out->CopyDataFrom(*p.x);
      return Status::OK();
    }
    // int32 tensors follow the same order rules (an s32 reorder is a copy).
    using dnnl::memory;
    const auto dt = t == DataType::kInt32 ? memory::data_type::s32 : memory::data_type::f32;
    const memory::desc plain(lite::x86::ToDnnlDims(d), dt, memory::format_tag::nchw);
    const memory::desc nhwc(lite::x86::ToDnnlDims(d), dt, memory::format_tag::nhwc);
    auto src = Mem(DNNL_ARG_SRC, kToNhwc ? plain : nhwc, p.x->raw_data());
    auto dst = Mem(DNNL_ARG_DST, kToNhwc ? nhwc : plain, p.out->mutable_data(t));
    if (d != dims_ || t != type_) {
      reorder_ = dnnl::reorder(src, dst);
      dims_ = d;
      type_ = t;
    }
    Execute(reorder_, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
    return Status::OK();
  }

 private:
  DDim dims_;
  DataType type_ = DataType::kUnknown;
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
