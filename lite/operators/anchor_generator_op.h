// anchor_generator: Faster R-CNN anchors for a feature map Input
// [N, C, H, W]. Per cell the centre is (w * sw + offset * (sw - 1),
// h * sh + offset * (sh - 1)) for stride (sw, sh); for each aspect ratio r
// (outer loop) and anchor size s (inner loop): base_w = round(sqrt(sw * sh
// / r)), base_h = round(base_w * r), width = s / sw * base_w, height =
// s / sh * base_h, and the anchor is centre -/+ (size - 1) / 2.
// Anchors [H, W, R * S, 4] (pixels, not clipped); Variances the same dims
// repeating the four `variances`. Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct AnchorGeneratorParam : OpParam {
  const Tensor* input = nullptr;
  Tensor* anchors = nullptr;
  Tensor* variances = nullptr;
  std::vector<float> anchor_sizes;
  std::vector<float> aspect_ratios;
  std::vector<float> variance;
  std::vector<float> stride;
  float offset = 0.5f;
};

}  // namespace operators
}  // namespace lite
