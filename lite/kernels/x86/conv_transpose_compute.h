// x86 conv2d_transpose / depthwise_conv2d_transpose: an ordered list of
// strategies (conv_transpose_strategy.h), planned again whenever the input
// shape changes. impl_info() names the one planned.
//
// Registered at layout NHWC. Paddle's filter is [C_in, C_out / groups, kh,
// kw]; bias and the fused activation run inside oneDNN's primitives or
// after our own kernels. Strided transposes do not use oneDNN's
// deconvolution primitive: oneDNN 2.6's (a backward-data convolution) is far
// slower on PP-OCR det's 24-channel 2x2 stride-2 layer than even the host
// kernel (docs/performance.md, x86 target). When the windows of a strided
// transpose do not overlap (kernel == stride, no padding or dilation, one
// group: det's upsampling layers) the layer is kh matmuls, one per kernel
// row, written straight into the NHWC output rows; the strategies below are
// forms of that. The list, in the order it is asked:
//   own_narrow       a whole kh x kw x C_out block of an input pixel fits 16
//                    values (det's last 24 -> 1 layer): our AVX-512 kernel
//   onednn_scatter   narrow rows (kw * C_out < kMinStridedCols): one matmul
//                    into a temporary and a scattering reorder
//   own_row_gemm     none, relu or relu6: our 1x1 GEMM per input row and
//                    kernel row
//   onednn_rows      oneDNN's batched matmul per kernel row
//   onednn_deconv    stride 1: oneDNN's deconvolution primitive
//   host             the rest: the host kernel on NCHW copies
// The choice depends on shapes and attributes only, never on timing.
#pragma once

#include <string>

#include "lite/kernels/x86/conv_transpose_strategy.h"
#include "lite/kernels/x86/conv_transpose_util.h"

namespace lite {
namespace kernels {
namespace x86 {

class ConvTransposeCompute : public InPlaceActivationKernel {
 public:
  // Below this many columns per kernel row (kw * C_out) oneDNN's strided
  // batched matmul (gemm:jit) is slower than the scattered form (det's last
  // 24 -> 1 layer at 320x320; docs/performance.md, x86 target).
  static constexpr int64_t kMinStridedCols = 16;

  ConvTransposeCompute();
  const std::string& impl_info() const override { return strategies_.impl_info(); }
  // The strategies, with the last plan's winner and the reasons of those
  // that declined before it.
  const StrategyList<ConvTransposeContext>& strategies() const { return strategies_; }

 protected:
  Status RunDnnl() override;

 private:
  StrategyList<ConvTransposeContext> strategies_;
  DDim planned_dims_;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
