// The x86 float transposed conv's strategies (strategy_list.h) and what
// they share. ConvTransposeCompute (conv_transpose_compute.h) asks them in
// the order its header lists; each file says which transposes its kernel
// takes and why.
#pragma once

#include <memory>

#include "lite/kernels/x86/strategy_list.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace kernels {
namespace x86 {

class ConvTransposeCompute;

// What the transposed conv hands its strategies: the op and the kernel
// (its oneDNN helpers, threads, the in-place activation).
struct ConvTransposeContext {
  ConvTransposeCompute& kernel;
  const operators::ConvTransposeParam& p;
};

using ConvTransposeStrategy = Strategy<ConvTransposeContext>;

// The strategies, one maker per file; the kernel lists them in order.
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeNarrowStrategy();
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeScatterStrategy();
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeRowGemmStrategy();
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeRowsStrategy();
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeDeconvStrategy();
std::unique_ptr<ConvTransposeStrategy> MakeConvTransposeHostStrategy();

// A strided transpose whose windows do not overlap (kernel == stride > 1 in
// some direction, no padding or dilation, one group, output exactly input *
// kernel) on NHWC activations: the kh-matmuls forms take it, or declines
// with the reason.
Verdict NonOverlappingStrided(const ConvTransposeContext& c);

}  // namespace x86
}  // namespace kernels
}  // namespace lite
