// Depth <-> space rearrangements on NCHW tensors (any dtype; bytes moved):
//   pixel_shuffle (upscale_factor r): [N, C*r*r, H, W] -> [N, C, H*r, W*r],
//     Out[n][c][h*r + i][w*r + j] = X[n][c*r*r + i*r + j][h][w];
//   pixel_unshuffle (downscale_factor r): the inverse,
//     [N, C, H*r, W*r] -> [N, C*r*r, H, W];
//   space_to_depth (blocksize r > 1, the legacy YOLOv2 reorg op): the same
//     shapes as pixel_unshuffle, C a multiple of r*r, with Paddle's element
//     order: X[n][k][h][w] goes to flat position
//     ((n*C/(r*r) + k % (C/(r*r))) * H*r + h*r + o / r) * W*r + w*r + o % r
//     of Out, o = k / (C/(r*r)) (Paddle's kernel indexes Out as
//     [N, C/(r*r), H*r, W*r] and then reshapes it).
// data_format "NHWC" is refused. A -1 (unknown) dim stays -1.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PixelShuffleParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int64_t factor = 1;
  bool unshuffle = false;       // space -> depth (pixel_unshuffle, space_to_depth)
  bool reorg = false;             // space_to_depth's element order
};

}  // namespace operators
}  // namespace lite
