// density_prior_box: the dense anchor grid of face detectors (PyramidBox,
// BlazeFace-like SSDs) for a feature map Input [N, C, H, W] over an image
// Image [N, C, IH, IW]. For each fixed_sizes[s] with densities[s] = d and
// each fixed_ratios r, a cell holds d x d boxes of width size * sqrt(r) and
// height size / sqrt(r), their centres shifted by `shift` = int(step_avg) / d
// (integer division) from the cell centre ((w + offset) * step_w,
// (h + offset) * step_h) - step_avg / 2 + shift / 2, where step_avg =
// int((step_w + step_h) / 2) and a step of 0 (either) means IW / W, IH / H.
// Boxes hold (xmin, ymin, xmax, ymax) divided by the image size and always
// clamped to [0, 1] (as Paddle's kernel does; `clip` clamps again).
// Boxes and Variances are [H, W, P, 4], or [H * W * P, 4] with
// flatten_to_2d, P = sum_s d_s^2 * |fixed_ratios|. Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct DensityPriorBoxParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* image = nullptr;
  Tensor* boxes = nullptr;
  Tensor* variances = nullptr;
  std::vector<float> fixed_sizes;
  std::vector<float> fixed_ratios;
  std::vector<int32_t> densities;
  std::vector<float> variance;
  bool clip = false;
  bool flatten_to_2d = false;
  float step_w = 0.f;
  float step_h = 0.f;
  float offset = 0.5f;
  int64_t num_priors() const {
    int64_t n = 0;
    for (int32_t d : densities) n += static_cast<int64_t>(d) * d;
    return n * static_cast<int64_t>(fixed_ratios.size());
  }
};

}  // namespace operators
}  // namespace lite
