// roi_align (Mask R-CNN): average of bilinear samples over each bin of each
// region. X is [N, C, H, W]; ROIs [R, 4] hold (x1, y1, x2, y2) in image
// pixels, split over the N images by RoisNum (int [N], optional) or else by
// ROIs' last LoD level (neither: all regions belong to image 0 when N == 1).
// Out is [R, C, pooled_height, pooled_width].
//
// A region scaled by spatial_scale (and shifted by -0.5 when `aligned`) is
// cut into pooled bins; each bin averages sampling_ratio^2 samples, or
// ceil(roi_h / pooled_h) x ceil(roi_w / pooled_w) when sampling_ratio <= 0.
// Without `aligned`, regions are at least 1x1. A sample outside
// [-1, H] x [-1, W] counts as 0; others are clamped to the map. A region
// with non-finite coordinates, or one that would take more than 2^24
// adaptive samples, is an error. Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct RoiAlignParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* rois = nullptr;
  const Tensor* rois_num = nullptr;  // optional
  Tensor* out = nullptr;
  int pooled_height = 1;
  int pooled_width = 1;
  float spatial_scale = 1.f;
  int sampling_ratio = -1;
  bool aligned = false;
};

}  // namespace operators
}  // namespace lite
