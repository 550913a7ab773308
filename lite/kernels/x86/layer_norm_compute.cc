// x86 layer_norm (float32) on the own loops of lite/backends/x86/layer_norm.h:
// the dims before begin_norm_axis are rows, the rest one row of n values,
// Scale / Bias (n values each) optional, Mean / Variance (one per row)
// written when the op has them. Registered at layout NCHW: every rank is
// read in plain order, so a rank-4 input with any begin_norm_axis is right;
// the attention blocks of SVTR (PP-OCRv4 rec, [1, 76, 120] rows of 120) are
// rank 3, where layout_cast_pass inserts no casts between NCHW and NHWC
// kernels. Moves the op off the host kernel (doubles, scalar loops) and
// keeps the chain fc -> add -> layer_norm -> fc on the x86 target.
#include "lite/backends/x86/layer_norm.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/norm_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

class LayerNormCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<operators::LayerNormParam>();
    const DDim& d = p.x->dims();
    int64_t rows = 1, n = 1;
    for (int i = 0; i < static_cast<int>(d.size()); ++i) {
      (i < p.begin_norm_axis ? rows : n) *= d[i];
    }
    lite::x86::LayerNormRows(p.x->data<float>(), p.y->mutable_data<float>(), rows, n,
                             p.scale ? p.scale->data<float>() : nullptr,
                             p.bias ? p.bias->data<float>() : nullptr, p.epsilon,
                             p.mean ? p.mean->mutable_data<float>() : nullptr,
                             p.variance ? p.variance->mutable_data<float>() : nullptr);
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(layer_norm, kX86, kFloat, kNCHW, lite::kernels::x86::LayerNormCompute, def)
    .Finalize();
