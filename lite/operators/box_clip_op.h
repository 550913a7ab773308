// box_clip: clips float32 boxes (xmin, ymin, xmax, ymax) to their image.
// ImInfo [N, 3] holds (height, width, scale) per image; the image is
// round(height / scale) x round(width / scale) and x is clipped to
// [0, width - 1], y to [0, height - 1]. Input is [N, M, 4] (image n owns
// row n), or [K, 4] split per image by its level-1 LoD (or all of image 0
// without LoD when N is 1). Output has Input's dims and LoD. Owned by
// lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct BoxClipParam : OpParam {
  const Tensor* input = nullptr;
  const Tensor* im_info = nullptr;
  Tensor* out = nullptr;
};

}  // namespace operators
}  // namespace lite
