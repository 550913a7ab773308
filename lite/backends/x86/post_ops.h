// FusedActivation (lite/base/fused_activation.h) as oneDNN eltwise
// post-ops, so a conv / fc / binary primitive applies the activation the
// fusion passes folded into it while its output is still in registers.
//
// Mapping (each exact for Paddle's formula):
//   relu -> eltwise_relu(0); leaky_relu -> eltwise_relu(alpha);
//   relu6 -> eltwise_clip(0, alpha); sigmoid -> eltwise_logistic;
//   tanh -> eltwise_tanh; swish -> eltwise_swish(alpha);
//   hard_sigmoid -> eltwise_linear(slope, offset) then eltwise_clip(0, 1);
//   hard_swish -> eltwise_hardswish, only for Paddle's defaults
//   (threshold 6, scale 6, offset 3: oneDNN 2.6 hard-codes them).
// Anything else is not expressible: DnnlExpressible() says so, and kernels
// declare it to the kernel pick (the op then runs on host).
#pragma once

#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "lite/base/fused_activation.h"

namespace lite {
namespace x86 {

// True when AppendActivation can express `act` exactly.
bool DnnlExpressible(const operators::FusedActivation& act);
// True when `desc`'s fused activation attributes parse and are expressible:
// the activation part of the x86 kernels' Accepts.
bool FusedActivationExpressible(const cpp::OpDesc& desc);
// Appends `act` to `ops` (nothing for kNone). Requires DnnlExpressible.
void AppendActivation(const operators::FusedActivation& act, dnnl::post_ops* ops);
// A primitive_attr with `act` as post-ops.
dnnl::primitive_attr ActivationAttr(const operators::FusedActivation& act);
// The eltwise entries of `ops`, in order, as inference eltwise primitives on
// `md`: a chain run one after another (the first may read another buffer,
// the rest work in place), for ops that apply activations in separate
// passes (x86 activation ops, the narrow transposed conv).
std::vector<dnnl::eltwise_forward> EltwiseChain(const dnnl::post_ops& ops,
                                                const dnnl::memory::desc& md);

}  // namespace x86
}  // namespace lite
