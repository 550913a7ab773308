// Host fp32 kernel for conv2d / depthwise_conv2d (see lite/operators/conv_op.h).
//
// Paths: a direct depthwise kernel when groups == C_in == C_out (multiplier
// 1, conv_depthwise.h); Winograd F(2x2, 3x3) for ungrouped 3x3 stride-1
// convs with enough channels (conv_winograd.h, filter transformed once);
// otherwise per-group GEMM (gemm.h) on an im2col
// buffer, skipping im2col for 1x1 stride-1 pad-0 dilation-1 convs. The GEMM
// is blocked over output pixels (whole output rows for im2col) so the im2col
// block stays in L2, and each block gets its bias and fused activation while
// hot. Small feature maps with few blocks also split output channels. With a
// thread pool the blocks (depthwise: the channels) are spread over threads;
// the block layout never depends on the thread count, so
// results are bit-identical for any threads. The scratch buffers (im2col
// block or padded depthwise plane), one per thread, are kernel members grown
// as needed. ConvEpilogue (a whole-tensor bias and activation pass) is shared
// with conv2d_transpose. ResidualData (conv_residual_fuse_pass) is added
// after the conv and bias, before the activation, block by block; the
// post-activation affine map (fuse_post_*) in one pass at the end.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/conv_op.h"
#include "lite/backends/host/conv_winograd.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace kernels {
namespace host {

class ConvCompute : public KernelBase {
 public:
  Status Run() override;

 private:
  // The conv of `p` without its ResidualData (Run adds it).
  Status RunConv(const operators::ConvParam& p);
  // Output = post_scale * Output + post_bias (fuse_post_*), in place.
  static void ApplyPostAffine(const operators::ConvParam& p);
  std::vector<std::vector<float>> scratch_;  // one per thread
  WinogradFilterCache winograd_filter_;
};

// Target size (floats) of one spatial block of GEMM columns (K x block,
// e.g. an im2col block) so it stays in L2; shared with conv2d_transpose.
constexpr int64_t kConvBlockFloats = 128 * 1024;

// out is [batch, channels, plane]: adds bias[c] (when bias != nullptr) and
// applies `act` in place.
void ConvEpilogue(const float* bias, int64_t batch, int64_t channels,
                  int64_t plane, const operators::FusedActivation& act,
                  float* out);

}  // namespace host
}  // namespace kernels
}  // namespace lite
