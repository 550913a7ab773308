// Host fp32 kernel for roi_align (roi_align_op.h). The bilinear weights of
// one region's samples are computed once and applied to every channel.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/roi_align_op.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

// Most bilinear samples one region may take (sampling_ratio <= 0 takes
// ceil(size / pooled) per bin side, so a huge region would take millions).
constexpr double kMaxSamples = 1 << 24;

// One bilinear sample: four flat offsets into a channel and their weights.
struct Sample {
  int64_t pos[4] = {0, 0, 0, 0};
  float weight[4] = {0.f, 0.f, 0.f, 0.f};
};

Sample MakeSample(float y, float x, int64_t height, int64_t width) {
  Sample s;
  if (y < -1.f || y > height || x < -1.f || x > width) return s;  // contributes 0
  y = std::max(y, 0.f);
  x = std::max(x, 0.f);
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_low = y_high = height - 1;
    y = static_cast<float>(y_low);
  }
  if (x_low >= width - 1) {
    x_low = x_high = width - 1;
    x = static_cast<float>(x_low);
  }
  const float ly = y - y_low, lx = x - x_low, hy = 1.f - ly, hx = 1.f - lx;
  s.pos[0] = y_low * width + x_low;
  s.pos[1] = y_low * width + x_high;
  s.pos[2] = y_high * width + x_low;
  s.pos[3] = y_high * width + x_high;
  s.weight[0] = hy * hx;
  s.weight[1] = hy * lx;
  s.weight[2] = ly * hx;
  s.weight[3] = ly * lx;
  return s;
}

}  // namespace

class RoiAlignCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::RoiAlignParam>();
    const DDim& xd = p.x->dims();
    const int64_t batch = xd[0], channels = xd[1], height = xd[2], width = xd[3];
    const int64_t num_rois = p.rois->dims()[0];
    if (p.x->dtype() != DataType::kFloat32 || p.rois->dtype() != DataType::kFloat32) {
      return Unimplemented("roi_align on non-float32 X or ROIs");
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> offsets,
                     BoxImageOffsets(p.rois_num, *p.rois, num_rois, batch == 1, "roi_align"));
    if (static_cast<int64_t>(offsets.size()) - 1 != batch) {
      return InvalidArgument("roi_align: the regions are split over " +
                             std::to_string(offsets.size() - 1) + " images but X has batch " +
                             std::to_string(batch));
    }
    if (num_rois > 0 && (height <= 0 || width <= 0)) {
      return InvalidArgument("roi_align: X " + DimsToString(xd) + " has no pixels to sample");
    }
    const float* x = p.x->data<float>();
    const float* rois = p.rois->data<float>();
    float* out = p.out->mutable_data<float>();
    const int ph_n = p.pooled_height, pw_n = p.pooled_width;
    const float roi_offset = p.aligned ? 0.5f : 0.f;
    std::vector<Sample> samples;
    for (int64_t img = 0; img < batch; ++img) {
      for (int64_t r = offsets[img]; r < offsets[img + 1]; ++r) {
        const float* roi = rois + r * 4;
        const float x0 = roi[0] * p.spatial_scale - roi_offset;
        const float y0 = roi[1] * p.spatial_scale - roi_offset;
        float roi_w = roi[2] * p.spatial_scale - roi_offset - x0;
        float roi_h = roi[3] * p.spatial_scale - roi_offset - y0;
        if (!p.aligned) {
          roi_w = std::max(roi_w, 1.f);
          roi_h = std::max(roi_h, 1.f);
        }
        const float bin_h = roi_h / ph_n, bin_w = roi_w / pw_n;
        const double adaptive_h = std::ceil(static_cast<double>(roi_h) / ph_n);
        const double adaptive_w = std::ceil(static_cast<double>(roi_w) / pw_n);
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(adaptive_h) ||
            !std::isfinite(adaptive_w) ||
            (p.sampling_ratio <= 0 && adaptive_h * adaptive_w * ph_n * pw_n > kMaxSamples)) {
          return InvalidArgument("roi_align: region " + std::to_string(r) +
                                 " is not finite or needs more than " +
                                 std::to_string(kMaxSamples) + " samples");
        }
        const int grid_h = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<int>(adaptive_h);
        const int grid_w = p.sampling_ratio > 0 ? p.sampling_ratio : static_cast<int>(adaptive_w);
        const float count = static_cast<float>(std::max(grid_h * grid_w, 1));
        samples.clear();
        for (int ph = 0; ph < ph_n; ++ph) {
          for (int pw = 0; pw < pw_n; ++pw) {
            for (int iy = 0; iy < grid_h; ++iy) {
              const float y = y0 + ph * bin_h + (iy + 0.5f) * bin_h / grid_h;
              for (int ix = 0; ix < grid_w; ++ix) {
                const float xx = x0 + pw * bin_w + (ix + 0.5f) * bin_w / grid_w;
                samples.push_back(MakeSample(y, xx, height, width));
              }
            }
          }
        }
        const size_t per_bin = static_cast<size_t>(std::max(grid_h * grid_w, 0));
        for (int64_t c = 0; c < channels; ++c) {
          const float* plane = x + (img * channels + c) * height * width;
          float* o = out + (r * channels + c) * ph_n * pw_n;
          for (int bin = 0; bin < ph_n * pw_n; ++bin) {
            float sum = 0.f;
            for (size_t k = bin * per_bin; k < (bin + 1) * per_bin; ++k) {
              const Sample& s = samples[k];
              for (int q = 0; q < 4; ++q) sum += s.weight[q] * plane[s.pos[q]];
            }
            o[bin] = sum / count;
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

REGISTER_LITE_KERNEL(roi_align, kHost, kFloat, kNCHW, lite::kernels::host::RoiAlignCompute, def)
    .BindInput("RoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
