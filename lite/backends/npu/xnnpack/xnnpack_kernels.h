// The xnnpack driver's own NHWC kernels for operations XNNPACK lacks
// (concat, nearest resize). They run between XNNPACK runtimes inside one
// executable, on the executable's NHWC buffers, so a model whose neck has
// concat and upsampling still converts layouts only at its boundary.
#pragma once

#include <vector>

#include "lite/backends/npu/nn_ir.h"

namespace lite {
namespace npu {

// Runs `op` (kConcat or kResizeNearest) with every 4-D operand in NHWC.
// `in`/`out` hold one buffer per operation input/output.
void RunNhwcKernel(const Model& model, const Operation& op, const std::vector<const float*>& in,
                   const std::vector<float*>& out);

bool IsNhwcKernel(OperationType type);

}  // namespace npu
}  // namespace lite
