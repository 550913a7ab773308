// The xnnpack driver's own NHWC kernels for operations XNNPACK lacks
// (concat, nearest resize, a reshape that must reorder NHWC storage). They
// run between XNNPACK runtimes inside one executable, on the executable's
// NHWC buffers, so a model whose neck has concat and upsampling, or whose
// backbone ends in a flatten, still converts layouts only at its boundary.
#pragma once

#include <vector>

#include "lite/backends/npu/nn_ir.h"

namespace lite {
namespace npu {

// Runs `op` (kConcat, kResizeNearest or kReshape) with every 4-D operand in
// NHWC.
// `in`/`out` hold one buffer per operation input/output.
void RunNhwcKernel(const Model& model, const Operation& op, const std::vector<const float*>& in,
                   const std::vector<float*>& out);

// Whether `op` runs as one of these kernels: concat, nearest resize, and a
// reshape from or to a 4-D tensor whose NHWC storage differs from its NCHW
// element order (dims known, as at compile time).
bool IsNhwcKernel(const Model& model, const Operation& op);

}  // namespace npu
}  // namespace lite
