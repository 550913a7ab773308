// arm concat (float32): the inputs' rows copied into the output, in the
// output's memory order. Registered at layout NHWC: for rank-4 activations
// the logical axis is mapped to its memory position (channels innermost:
// a channel concat interleaves each pixel's channels); an input held in plain
// order there (a weight) is permuted to NHWC first. XNNPACK has no concat
// operator in this version, so the copies are plain memcpy rows split over
// nothing (they are bandwidth-bound). Declines at kernel pick: AxisTensor,
// and the fused forms (input_upscale, InputScale) the x86 kernel handles.
#include <cstring>
#include <vector>

#include "lite/kernels/arm/arm_kernel.h"
#include "lite/operators/concat_split_ops.h"

namespace lite {
namespace kernels {
namespace arm {

namespace {

class ConcatCompute : public ArmKernel {
 public:
  Status Run() override {
    const auto& p = Param<operators::ConcatParam>();
    const DDim& od = p.out->dims();
    const int rank = static_cast<int>(od.size());
    int axis = p.axis < 0 ? p.axis + rank : p.axis;
    if (axis < 0 || axis >= rank) {
      return InvalidArgument(What() + ": axis " + std::to_string(p.axis) + " for rank " +
                             std::to_string(rank));
    }
    const bool nhwc = Nhwc(*p.out);
    // Extents in memory order.
    auto memory = [&](const DDim& d) {
      return nhwc ? std::vector<int64_t>{d[0], d[2], d[3], d[1]}
                  : std::vector<int64_t>(d.begin(), d.end());
    };
    if (nhwc) {
      static const int kNchwToNhwc[4] = {0, 3, 1, 2};
      axis = kNchwToNhwc[axis];
    }
    const std::vector<int64_t> om = memory(od);
    int64_t outer = 1;
    for (int i = 0; i < axis; ++i) outer *= om[i];
    int64_t inner = 1;
    for (int i = axis + 1; i < rank; ++i) inner *= om[i];
    float* out = p.out->mutable_data<float>();
    const int64_t out_row = om[axis] * inner;
    copies_.resize(p.xs.size());
    int64_t offset = 0;
    for (size_t i = 0; i < p.xs.size(); ++i) {
      const Tensor& x = *p.xs[i];
      const float* src = x.data<float>();
      if (nhwc && !Nhwc(x)) {
        const DDim& d = x.dims();
        copies_[i].resize(static_cast<size_t>(x.numel()));
        PermuteNchw(src, copies_[i].data(), d[0], d[1], d[2] * d[3], true);
        src = copies_[i].data();
      }
      const int64_t row = memory(x.dims())[axis] * inner;
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(out + o * out_row + offset, src + o * row, sizeof(float) * row);
      }
      offset += row;
    }
    return Status::OK();
  }

 private:
  std::vector<std::vector<float>> copies_;
};

bool ConcatAccepts(const cpp::OpDesc& desc) {
  return !desc.HasInput("AxisTensor") && !desc.HasInput("InputScale") &&
         desc.GetAttr<std::vector<int>>("input_upscale", {}).empty() &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "float32";
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kARM, kFloat, kNHWC, lite::kernels::arm::ConcatCompute, def)
    .SetAccepts(lite::kernels::arm::ConcatAccepts)
    .Finalize();
