// Host fp32 kernel for pad2d / pad3d (see lite/operators/pad_ops.h). Both run
// as a 3-D pad (pad2d has depth 1 and no depth padding). Each output index
// maps to a source index per dim (or to the constant), as in Paddle
// (operators::PadSourceIndex).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/pad_ops.h"

namespace lite {
namespace kernels {
namespace host {

using operators::PadParam;
using operators::PadSourceIndex;

class PadCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<PadParam>();
    if (p.x->dtype() != DataType::kFloat32) {
      return Unimplemented(std::string(p.spatial_rank == 3 ? "pad3d" : "pad2d") +
                           " host kernel supports float32 only");
    }
    ASSIGN_OR_RETURN(auto pads, operators::ResolvePadding(
                                    p, p.spatial_rank == 3 ? "pad3d" : "pad2d"));
    const DDim& in = p.x->dims();
    // Paddings from a tensor may change without any input dims changing.
    p.out->Resize(operators::PaddedDims(in, p.spatial_rank, pads));
    const DDim& out = p.out->dims();
    const int r = static_cast<int>(in.size());
    const int64_t id = p.spatial_rank == 3 ? in[r - 3] : 1;
    const int64_t od = p.spatial_rank == 3 ? out[r - 3] : 1;
    const int64_t ih = in[r - 2], iw = in[r - 1], oh = out[r - 2], ow = out[r - 1];
    const int64_t planes = in[0] * in[1];

    std::vector<int64_t> src_d(od), src_h(oh), src_w(ow);
    for (int64_t o = 0; o < od; ++o) src_d[o] = PadSourceIndex(p.mode, o, pads[0], id);
    for (int64_t o = 0; o < oh; ++o) src_h[o] = PadSourceIndex(p.mode, o, pads[2], ih);
    for (int64_t o = 0; o < ow; ++o) src_w[o] = PadSourceIndex(p.mode, o, pads[4], iw);

    const float* x = p.x->data<float>();
    float* y = p.out->mutable_data<float>();
    const float value = p.value;
    for (int64_t pl = 0; pl < planes; ++pl) {
      const float* xp = x + pl * id * ih * iw;
      float* yp = y + pl * od * oh * ow;
      for (int64_t d = 0; d < od; ++d) {
        for (int64_t h = 0; h < oh; ++h) {
          float* row = yp + (d * oh + h) * ow;
          if (src_d[d] < 0 || src_h[h] < 0) {
            std::fill(row, row + ow, value);
            continue;
          }
          const float* in_row = xp + (src_d[d] * ih + src_h[h]) * iw;
          for (int64_t w = 0; w < ow; ++w) {
            row[w] = src_w[w] < 0 ? value : in_row[src_w[w]];
          }
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(pad2d, kHost, kFloat, kNCHW, lite::kernels::host::PadCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(pad3d, kHost, kFloat, kNCHW, lite::kernels::host::PadCompute, def)
    .Finalize();
