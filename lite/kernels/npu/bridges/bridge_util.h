// Helpers shared by the op bridges: fused activations as separate NN IR
// operations, attribute conversions, and reshaping an operand to new dims.
#pragma once

#include <string>
#include <vector>

#include "lite/kernels/npu/bridges/bridge.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace npu {

std::vector<int64_t> ToInt64(const std::vector<int>& v);

// OK when `act` maps onto NN IR unary operations, else a reason.
Status CheckActivation(const OpLite& op, const operators::FusedActivation& act);

// The operand the main operation of `op` writes: the output var's operand
// when there is no fused activation, else a temporary of the same dims. Call
// FinishActivation after adding the main operation.
int MainOutput(BridgeContext* ctx, const std::string& out_var,
               const operators::FusedActivation& act);
// Adds the activation operation(s) of `act` reading `in`, writing `out`.
void AddActivation(BridgeContext* ctx, const OpLite& op, int in, int out,
                   const operators::FusedActivation& act);
// Adds the activation operation reading `main` into the output var's
// operand (nothing when there is no activation).
void FinishActivation(BridgeContext* ctx, const OpLite& op, const std::string& out_var,
                      int main, const operators::FusedActivation& act);

// `operand` seen with `dims` (same element count): itself when the dims
// already match, a constant with the new dims for constants, else a
// temporary written by a kReshape.
int Reshaped(BridgeContext* ctx, const OpLite& op, int operand, const std::vector<int64_t>& dims);

// The first var of input/output parameter `param` ("" when absent).
std::string InVar(const OpLite& op, const std::string& param);
std::string OutVar(const OpLite& op, const std::string& param);

}  // namespace npu
}  // namespace lite
