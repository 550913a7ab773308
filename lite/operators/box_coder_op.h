// box_coder: boxes against prior boxes in center-size form (float32).
//   PriorBox [M, 4] (xmin, ymin, xmax, ymax); optional PriorBoxVar [M, 4],
//   else the `variance` attribute (4 values, or empty for none).
//   encode_center_size: TargetBox [N, 4] -> OutputBox [N, M, 4] with
//     ((tcx - pcx) / pw, (tcy - pcy) / ph, log(|tw / pw|), log(|th / ph|)),
//     each divided by its variance.
//   decode_center_size: TargetBox [N, M, 4] (axis 0: prior j for column j;
//     axis 1: PriorBox is [N, 4], prior i for row i) -> OutputBox of the same
//     dims, tcx = v0 * t0 * pw + pcx, tw = exp(v2 * t2) * pw (likewise y/h),
//     written back as corners.
//   Widths and heights add 1 when box_normalized is false (pixel boxes), and
//   decoded max corners subtract it again.
// Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct BoxCoderParam : OpParam {
  const Tensor* prior = nullptr;
  const Tensor* prior_var = nullptr;  // optional
  const Tensor* target = nullptr;
  Tensor* out = nullptr;
  bool encode = true;
  bool normalized = true;
  int axis = 0;
  std::vector<float> variance;
};

}  // namespace operators
}  // namespace lite
