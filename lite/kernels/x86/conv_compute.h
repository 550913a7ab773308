// x86 conv2d / depthwise_conv2d: an ordered list of strategies
// (conv_strategy.h): our 1x1 GEMM, our Winograd, our 5x5 / 7x7 depthwise
// kernel, then oneDNN's convolution primitive for the rest. impl_info() names the one planned.
//
// Registered at layout NHWC: source and destination stay NHWC (oneDNN's
// brgconv kernels read and write it directly; layout_cast_pass converts only
// at the borders of x86 regions). Bias and the fused activation (post-ops,
// lite/backends/x86/post_ops.h) run inside the primitive. The weights are
// format_tag::any, so oneDNN picks its fastest weights layout; the filter is
// reordered into it once (at Init when shapes are known ahead, else at the
// first run) and again only if a new input shape makes oneDNN choose another
// weights layout. Plan per input shape: a change of input dims re-creates
// the primitive. Should the primitive want other activation layouts than
// the tensors have, the kernel reorders through temporaries from the buffer
// pool (the direct kernels take NHWC as is on AVX-512).
//
// 1x1: dense 1x1 stride-1 unpadded convs with no activation, relu or relu6
// on NHWC run our register-blocked GEMM (lite/backends/x86/pointwise_conv.h;
// AVX-512 builds and CPUs), which also writes channel slices, as
// WriteIntoChannelsOf needs.
//
// Depthwise: 5x5 and 7x7 depthwise convs (5 or 7 wide, stride and dilation
// 1 or 2) with no activation, relu, relu6 or hard_swish run our kernel
// (lite/backends/x86/depthwise_conv.h; AVX-512, and on AVX2-only CPUs 5x5
// stride 1 and dilated 7x7): conv_depthwise_strategy.cc says where it wins.
//
// ResidualData (conv_residual_fuse_pass) is a binary add post-op before the
// activation in oneDNN, an input of the own 1x1 GEMM's epilogue, and one
// pass after the own Winograd. The post-activation affine map (fuse_post_*)
// is a linear post-op after it, and the last step of the own 1x1 GEMM's
// epilogue; convs with it do not take the own Winograd.
//
// Winograd: dense 3x3 stride-1 undilated convs with at least
// kWinogradMinInChannels inputs, kWinogradMinOutChannels outputs and
// kWinogradMinOutputPixels output pixels (or fewer than
// kSmallMapWinogradMinOutputPixels), and no activation, relu or relu6,
// run our own Winograd F(4x4, 3x3) on NHWC (lite/backends/x86/winograd_nhwc.h;
// AVX-512 builds and CPUs). oneDNN's own Winograd kernel wants blocked
// activations (reorders around it) and takes no activation but relu: it runs
// only small maps (12x12 up to the threshold above, 32+ -> 64+ channels,
// none or relu), where the reorders are cheap. The thresholds come from
// measurements kept with the others in docs/performance.md (x86 target),
// where tools/benchmark re-measures them. Winograd's rounding differs from direct
// convolution by ~1e-6 to 1e-5 of the largest output (the transforms add and
// subtract terms of similar size), well inside fp32 model tolerances. The
// choice depends on shapes and attributes only, never on timing, so runs are
// reproducible.
#pragma once

#include <string>
#include <vector>

#include "lite/kernels/x86/conv_strategy.h"
#include "lite/kernels/x86/dnnl_kernel.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

// conv_nchw_input_compute.cc's kernel takes the conv (and ConvCompute
// declines it): dense, NCHW attributes, a filter declared with 1 to
// kNchwInputMaxChannels input channels, AVX-512 on this CPU.
constexpr int64_t kNchwInputMaxChannels = 4;
bool NchwInputConvFits(const cpp::OpDesc& desc, const VarDimsFn& var_dims);
// ConvCompute takes this conv2d (attributes and declared dims).
bool ConvComputeTakes(const cpp::OpDesc& desc, const VarDimsFn& var_dims);

class ConvCompute : public DnnlKernel {
 public:
  static constexpr int64_t kWinogradMinInChannels = 16;
  static constexpr int64_t kWinogradMinOutChannels = 16;
  static constexpr int64_t kWinogradMinOutputPixels = 32 * 32;
  // Below kWinogradMinOutputPixels, oneDNN's Winograd (blocked, reordered).
  static constexpr int64_t kSmallMapWinogradMinOutputPixels = 12 * 12;
  static constexpr int64_t kSmallMapWinogradMinInChannels = 32;
  static constexpr int64_t kSmallMapWinogradMinOutChannels = 64;

  ConvCompute();
  // The implementation planned for the last input shape: oneDNN's name
  // (e.g. "brgconv:avx512_core"), "lite:winograd_nhwc_4x3",
  // "lite:pointwise_nhwc" or "lite:depthwise_nhwc"; empty before the first
  // plan.
  const std::string& impl_info() const override { return strategies_.impl_info(); }
  // The strategies (conv_strategy.h), with the last plan's winner and the
  // reasons of those that declined before it.
  const StrategyList<ConvContext>& strategies() const { return strategies_; }
  // The planned implementation is a Winograd (ours or oneDNN's).
  bool winograd() const { return winograd_; }
  // Makes the kernel write channels [offset, offset + oc) of the NHWC
  // tensor `whole` (same batch and map size; its other channels untouched)
  // instead of its Output, which is then never allocated: conv2d_concat's
  // x86 kernel writes each conv into its slice of the concat this way.
  // Call before Init.
  void WriteIntoChannelsOf(Tensor* whole, int64_t offset) {
    whole_ = whole;
    whole_offset_ = offset;
  }

  // For the strategies: where the output goes: Output's NHWC desc and
  // data, or the slice of whole_ (a strided desc), and the floats from one
  // output pixel to the next.
  dnnl::memory::desc UserDstDesc(const operators::ConvParam& p) const;
  float* OutData(const operators::ConvParam& p) const;
  int64_t OutPixelStride(const operators::ConvParam& p) const;
  // Output = act(Output + ResidualData), act none / relu / relu6 (after
  // the own Winograd, which has no residual input).
  void AddResidual(const operators::ConvParam& p) const;

 protected:
  Status InitDnnl() override;
  Status RunDnnl() override;

 private:
  Status Plan();

  StrategyList<ConvContext> strategies_;
  DDim planned_dims_;
  bool winograd_ = false;
  Tensor* whole_ = nullptr;  // WriteIntoChannelsOf
  int64_t whole_offset_ = 0;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
