// arm concat (float32): the inputs' rows copied into the output, in the
// output's memory order. Registered at layout NHWC: for rank-4 activations
// the logical axis is mapped to its memory position (channels innermost:
// a channel concat interleaves each pixel's channels); an input held in plain
// order there (a weight) is permuted to NHWC first. XNNPACK has no concat
// operator in this version, so the copies are plain memcpy rows split over
// nothing (they are bandwidth-bound). Inputs nearest-upscaled into the
// concat (input_upscale, concat_upscale_fuse_pass; channel axis, rank 4)
// copy each source pixel's channels to their f x f output pixels, and
// inputs with an InputScale (concat_scale_fuse_pass) are multiplied per
// sample and channel on the way. Declines at kernel pick: AxisTensor.
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
    if (!p.upscale.empty() || !p.input_scales.empty()) return RunUpscaled(p);
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
  // Channel concat (NCHW axis 1) of NHWC inputs, input i upscaled by
  // p.upscale[i] in H and W (1 without input_upscale) and multiplied by its
  // InputScale when there are some.
  Status RunUpscaled(const operators::ConcatParam& p) {
    const DDim& od = p.out->dims();
    const bool scaled = !p.input_scales.empty();
    if (od.size() != 4 || !Nhwc(*p.out) ||
        (!p.upscale.empty() && p.upscale.size() != p.xs.size()) ||
        (scaled && p.input_scales.size() != p.xs.size())) {
      return InvalidArgument(What() + ": input_upscale / InputScale need rank-4 activations "
                             "on axis 1, one per input");
    }
    const int64_t n = od[0], ctot = od[1], oh = od[2], ow = od[3];
    float* out = p.out->mutable_data<float>();
    copies_.resize(p.xs.size());
    int64_t offset = 0;
    for (size_t i = 0; i < p.xs.size(); ++i) {
      const Tensor& x = *p.xs[i];
      const DDim& d = x.dims();
      const int64_t c = d[1], h = d[2], w = d[3], f = p.upscale.empty() ? 1 : p.upscale[i];
      if (f < 1 || h * f != oh || w * f != ow) {
        return InvalidArgument(What() + ": input " + std::to_string(i) + " " + DimsToString(d) +
                               " upscaled by " + std::to_string(f) + " does not give " +
                               DimsToString(od));
      }
      const float* src = x.data<float>();
      if (!Nhwc(x)) {
        copies_[i].resize(static_cast<size_t>(x.numel()));
        PermuteNchw(src, copies_[i].data(), d[0], c, h * w, true);
        src = copies_[i].data();
      }
      for (int64_t b = 0; b < n; ++b) {
        const float* s =
            scaled ? p.input_scales[i]->data<float>() + operators::ConcatScaleOffset(p, i, b)
                   : nullptr;
        for (int64_t y = 0; y < oh; ++y) {
          const float* srow = src + (b * h + y / f) * w * c;
          float* drow = out + (b * oh + y) * ow * ctot + offset;
          for (int64_t xo = 0; xo < ow; ++xo) {
            const float* sp = srow + (xo / f) * c;
            float* dp = drow + xo * ctot;
            if (s) {
              for (int64_t k = 0; k < c; ++k) dp[k] = sp[k] * s[k];
            } else {
              std::memcpy(dp, sp, sizeof(float) * c);
            }
          }
        }
      }
      offset += c;
    }
    return Status::OK();
  }

  std::vector<std::vector<float>> copies_;
};

bool ConcatAccepts(const cpp::OpDesc& desc) {
  return !desc.HasInput("AxisTensor") &&
         desc.GetAttr<std::string>("Output_dtype", "float32") == "float32";
}

}  // namespace
}  // namespace arm
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kARM, kFloat, kNHWC, lite::kernels::arm::ConcatCompute, def)
    .SetAccepts(lite::kernels::arm::ConcatAccepts)
    .Finalize();
