// prior_box: SSD anchor boxes for a feature map Input [N, C, H, W] over an
// image Image [N, C, IH, IW]. Aspect ratios expand to 1, then each given
// ratio not yet present (and its inverse with `flip`). Per cell (h, w), the
// centre is ((w + offset) * step_w, (h + offset) * step_h) (a step of 0 means
// IW / W, IH / H) and, for each min_size (with max_sizes[i] when given), the
// priors are: every ratio ar (w = min * sqrt(ar), h = min / sqrt(ar)) and
// then sqrt(min * max) square; with min_max_aspect_ratios_order the square
// min box, then the sqrt(min * max) box, then the ratios other than 1.
// Boxes [H, W, P, 4] hold (xmin, ymin, xmax, ymax) divided by the image
// size, clipped to [0, 1] with `clip`; Variances [H, W, P, 4] repeat the
// four `variances`. Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PriorBoxParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* image = nullptr;
  Tensor* boxes = nullptr;
  Tensor* variances = nullptr;
  std::vector<float> min_sizes;
  std::vector<float> max_sizes;
  std::vector<float> aspect_ratios;  // expanded by Attach
  std::vector<float> variance;
  bool clip = false;
  float step_w = 0.f;
  float step_h = 0.f;
  float offset = 0.5f;
  bool min_max_aspect_ratios_order = false;
  int64_t num_priors() const {
    return static_cast<int64_t>(aspect_ratios.size() * min_sizes.size() + max_sizes.size());
  }
};

}  // namespace operators
}  // namespace lite
