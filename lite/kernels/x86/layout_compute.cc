// x86 kernels of the `layout` op (inserted by layout_cast_pass): a oneDNN
// reorder between NCHW and NHWC element order for rank-4 float or int32
// tensors (to NHWC with at most 4 float channels, an input image, our own
// loop), a plain copy for any other rank (NHWC means plain order there) or
// type.
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
    if (kToNhwc && t == DataType::kFloat32 && d[1] <= kMaxInterleavedChannels) {
      InterleaveChannels(d, p.x->data<float>(), p.out->mutable_data<float>());
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
  // A model's input image (1 to 4 channels) to NHWC: one pass over the
  // pixels, writing each pixel's channels together. oneDNN's reorder took
  // 0.1 ms on squeezenet's 3 x 227 x 227 input, this 0.03.
  static constexpr int64_t kMaxInterleavedChannels = 4;
  // (The channel count is a template argument so the inner loop unrolls.)
  template <int kC>
  static void Interleave(const float* x, int64_t hw, float* y) {
    const float* planes[kC];
    for (int k = 0; k < kC; ++k) planes[k] = x + k * hw;
    for (int64_t i = 0; i < hw; ++i, y += kC) {
#pragma GCC unroll 4
      for (int k = 0; k < kC; ++k) y[k] = planes[k][i];
    }
  }
  static void InterleaveChannels(const DDim& d, const float* x, float* y) {
    const int64_t c = d[1], hw = d[2] * d[3];
    for (int64_t n = 0; n < d[0]; ++n, x += c * hw, y += c * hw) {
      switch (c) {
        case 1: Interleave<1>(x, hw, y); break;
        case 2: Interleave<2>(x, hw, y); break;
        case 3: Interleave<3>(x, hw, y); break;
        default: Interleave<4>(x, hw, y); break;
      }
    }
  }

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
