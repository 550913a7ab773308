// Depth <-> space rearrangements on NCHW tensors (any dtype; bytes moved):
//   pixel_shuffle (upscale_factor r): [N, C*r*r, H, W] -> [N, C, H*r, W*r],
//     Out[n][c][h*r + i][w*r + j] = X[n][c*r*r + i*r + j][h][w];
//   pixel_unshuffle (downscale_factor r): the inverse,
//     [N, C, H*r, W*r] -> [N, C*r*r, H, W].
// data_format "NHWC" is refused. A -1 (unknown) dim stays -1.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct PixelShuffleParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  int64_t factor = 1;
  bool unshuffle = false;
};

class PixelShuffleOp : public OpLite {
 public:
  using OpLite::OpLite;
  Status CheckShape() const override;
  Status InferShape() override;
  OpParam* param() override { return &param_; }

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  PixelShuffleParam param_;
};

}  // namespace operators
}  // namespace lite
