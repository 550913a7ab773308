// x86 pad2d (every mode pad2d has: constant, reflect, edge) on an NHWC
// activation. Registered at layout NHWC: the rank-4 X and Out (pad2d's
// CheckShape) stay in NHWC order, so a pad between x86 convs needs no
// layout cast. Each output pixel is a run of C values: the constant, or the
// channels of its source pixel (operators::PadSourceIndex per row and
// column, Paddle's rule), one memcpy each. pad3d (rank 5, row-major for
// every kernel) stays on host.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "lite/backends/x86/omp_ranges.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/pad_ops.h"

namespace lite {
namespace kernels {
namespace x86 {

namespace {

using operators::PadParam;

class PadCompute : public DnnlKernel {
 protected:
  Status RunDnnl() override {
    auto& p = Param<PadParam>();
    if (p.x->dtype() != DataType::kFloat32 || p.x->dims().size() != 4 || p.spatial_rank != 2) {
      return Unimplemented("x86 pad2d takes a rank-4 float32 X, got " +
                           std::string(DataTypeName(p.x->dtype())) + " " +
                           DimsToString(p.x->dims()));
    }
    ASSIGN_OR_RETURN(auto pads, operators::ResolvePadding(p, "pad2d"));
    const DDim& in = p.x->dims();
    // Paddings from a tensor may change without any input dims changing.
    p.out->Resize(operators::PaddedDims(in, 2, pads));
    const DDim& out = p.out->dims();
    const int64_t n = in[0], c = in[1], ih = in[2], iw = in[3], oh = out[2], ow = out[3];
    std::vector<int64_t> src_h(oh), src_w(ow);
    for (int64_t o = 0; o < oh; ++o) src_h[o] = operators::PadSourceIndex(p.mode, o, pads[2], ih);
    for (int64_t o = 0; o < ow; ++o) src_w[o] = operators::PadSourceIndex(p.mode, o, pads[4], iw);
    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const float value = p.value;
    lite::x86::OmpForRanges(threads(), n * oh, p.out->numel(), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t b = r / oh, sh = src_h[r % oh];
        float* row = y + r * ow * c;
        if (sh < 0) {
          std::fill(row, row + ow * c, value);
          continue;
        }
        const float* in_row = x + (b * ih + sh) * iw * c;
        for (int64_t ox = 0; ox < ow; ++ox) {
          if (src_w[ox] < 0) {
            std::fill(row + ox * c, row + (ox + 1) * c, value);
          } else {
            std::memcpy(row + ox * c, in_row + src_w[ox] * c, c * sizeof(float));
          }
        }
      }
    });
    return Status::OK();
  }
};

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pad2d, kX86, kFloat, kNHWC, lite::kernels::x86::PadCompute, def)
    .BindInput("Paddings", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
