// grid_sampler: samples float32 X [N, C, H, W] at the locations of Grid
// [N, Ho, Wo, 2] ((x, y) pairs normalised to [-1, 1]; -1 is the left / top
// edge) into Out [N, C, Ho, Wo].
//   align_corners (default true): -1 and 1 are the centres of the corner
//     pixels, x' = (x + 1) / 2 * (W - 1); otherwise the outer edges of the
//     corner pixels, x' = ((x + 1) * W - 1) / 2.
//   padding_mode: zeros (samples outside X read 0), border (coordinates
//     clipped to the image), reflection (coordinates reflected at the
//     border, then clipped).
//   mode: bilinear (the 4 neighbours weighted) or nearest (rounded half to
//     even, like Paddle).
// Owned by lite/operators.
#pragma once

#include <string>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct GridSamplerParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* grid = nullptr;
  Tensor* out = nullptr;
  bool bilinear = true;
  std::string padding_mode = "zeros";
  bool align_corners = true;
};

}  // namespace operators
}  // namespace lite
