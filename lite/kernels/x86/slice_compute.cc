// x86 slice on tensors as the NHWC kernels hold them (any dtype, any axes,
// decrease_axis): the resolved window (operators::ComputeSlice, evaluated
// every run since StartsTensor / EndsTensor values can change) is copied as
// a box from Input's memory order to Out's. A rank-4 activation is read in
// NHWC order and a rank-4 Out written in NHWC order, so a slice between x86
// kernels (a face detector's channel splits, 14 of them) needs no layout
// cast on either side; a channel slice copies one run of channels per
// pixel. Registered at layout NHWC; the host kernel remains the pick for
// integer inputs (shape arithmetic), which the float registration declines.
#include <algorithm>

#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/base/memory_box.h"
#include "lite/operators/slice_op.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class SliceCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::SliceParam>();
    ASSIGN_OR_RETURN(operators::SliceWindow w, operators::ComputeSlice(p));
    p.out->Resize(w.out_dims);
    const DataType t = p.x->dtype();
    char* dst = static_cast<char*>(p.out->mutable_data(t));
    if (Product(w.sliced_dims) == 0) return Status::OK();
    const char* src = static_cast<const char*>(p.x->raw_data());
    if (!src) return FailedPrecondition("slice: Input has no data");
    const size_t bytes = DataTypeSize(t);
    const int rank = static_cast<int>(p.x->dims().size());
    const std::vector<int64_t> in_strides = MemoryStrides(p.x->dims(), nhwc());
    // Out's strides per kept dim of the window; a dim decrease_axis drops
    // has extent 1 and stride 0.
    const std::vector<int64_t> kept_strides = MemoryStrides(w.out_dims, nhwc());
    std::vector<int64_t> out_strides(rank, 0);
    if (static_cast<int>(w.out_dims.size()) == rank) {
      out_strides = kept_strides;
    } else {
      size_t j = 0;
      for (int k = 0; k < rank; ++k) {
        const bool dropped =
            std::find(p.decrease_axis.begin(), p.decrease_axis.end(), k) !=
                p.decrease_axis.end() ||
            std::find(p.decrease_axis.begin(), p.decrease_axis.end(), k - rank) !=
                p.decrease_axis.end();
        if (!dropped && j < kept_strides.size()) out_strides[k] = kept_strides[j++];
      }
    }
    int64_t offset = 0;
    for (int k = 0; k < rank; ++k) offset += w.begin[k] * in_strides[k];
    CopyBox(src + offset * static_cast<int64_t>(bytes), in_strides, dst, out_strides,
            w.sliced_dims, bytes);
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(slice, kX86, kFloat, kNHWC, lite::kernels::x86::SliceCompute, def)
    .BindInput("StartsTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("EndsTensor", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("StartsTensorList", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindInput("EndsTensorList", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
