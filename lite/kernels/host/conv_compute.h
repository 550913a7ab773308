// Host fp32 kernel for conv2d / depthwise_conv2d (see lite/operators/conv_op.h).
//
// Paths: a direct depthwise kernel when groups == C_in == C_out (multiplier
// 1); otherwise per-group GEMM (lite/kernels/host/gemm.h) on an im2col
// buffer, skipping im2col for 1x1 stride-1 pad-0 dilation-1 convs. The
// im2col buffer is a kernel member grown as needed. Bias and the fused
// activation are applied in one pass at the end (ConvEpilogue, shared with
// conv2d_transpose).
#pragma once

#include <cstdint>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/fused_activation.h"

namespace lite {
namespace kernels {
namespace host {

class ConvCompute : public KernelBase {
 public:
  Status Run() override;

 private:
  std::vector<float> col_;
};

// out is [batch, channels, plane]: adds bias[c] (when bias != nullptr) and
// applies `act` in place.
void ConvEpilogue(const float* bias, int64_t batch, int64_t channels,
                  int64_t plane, const operators::FusedActivation& act,
                  float* out);

}  // namespace host
}  // namespace kernels
}  // namespace lite
