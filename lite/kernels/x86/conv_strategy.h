// The x86 float conv's strategies (strategy_list.h) and what they share.
//
// ConvCompute (conv_compute.h) asks, in this order: our 1x1 GEMM
// (conv_pointwise_strategy.cc), our NHWC Winograd F(4x4, 3x3)
// (conv_winograd_strategy.cc), our depthwise kernel for 5x5 and 7x7
// (conv_depthwise_strategy.cc), and oneDNN's convolution
// (conv_dnnl_strategy.cc: its own Winograd on small maps, else direct),
// which takes every other conv. Each file says which convs its kernel takes
// and why. All write Output, or the channel slice of the tensor given to
// ConvCompute::WriteIntoChannelsOf.
#pragma once

#include <memory>

#include "lite/kernels/x86/strategy_list.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace kernels {
namespace x86 {

class ConvCompute;

// What the float conv hands its strategies: the op and the kernel (its
// oneDNN helpers, threads and where the output goes).
struct ConvContext {
  ConvCompute& kernel;
  const operators::ConvParam& p;
  bool winograd = false;  // set by Plan: the planned implementation is a Winograd
};

using ConvStrategy = Strategy<ConvContext>;

// The strategies, one maker per file; the kernel lists them in order.
std::unique_ptr<ConvStrategy> MakeConvPointwiseStrategy();
std::unique_ptr<ConvStrategy> MakeConvWinogradStrategy();
std::unique_ptr<ConvStrategy> MakeConvDepthwiseStrategy();
std::unique_ptr<ConvStrategy> MakeConvDnnlStrategy();

// Whether the own depthwise strategy takes the conv's shapes and attributes
// (its layout aside), on an AVX-512 CPU or an AVX2 one: the rule it applies,
// for the tests to hold against both.
Verdict OwnDepthwiseFits(const operators::ConvParam& p, bool avx512);

// A dense 3x3 conv with stride 1 and no dilation: what Winograd F(m, 3)
// computes.
inline bool Dense3x3Stride1(const operators::ConvParam& p) {
  const DDim& f = p.filter->dims();
  return p.groups == 1 && f[2] == 3 && f[3] == 3 && p.strides[0] == 1 && p.strides[1] == 1 &&
         p.eff_dilations[0] == 1 && p.eff_dilations[1] == 1;
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
