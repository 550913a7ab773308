// Binary elementwise ops: elementwise_add/sub/mul/div/max/min/pow.
//
// Out = act(X op y_act(Y)) with Paddle's `axis` broadcasting: the lower-rank
// operand (trailing 1s trimmed) is aligned to the higher-rank one starting at
// `axis` (-1: trailing alignment); equal ranks broadcast numpy-style. `act` is
// the FusedActivation read from the fuse_* attributes; `y_act` is an optional
// activation on Y read from "y_activation"/"y_alpha"/"y_beta"/"y_gamma" (the
// squeeze-excitation gate: X * hard_sigmoid(Y)). InferShape stores the operand
// dims aligned to the output rank so kernels need no axis logic. Out keeps
// X's LoD; a Y with as many rows and a different LoD is an error.
// int8_requantize_pass may make Out int8 levels of the float result
// (ElementwiseParam::levels, see levels_output.h; x86 kernel).
#pragma once

#include <string>

#include "lite/core/op_lite.h"
#include "lite/base/fused_activation.h"
#include "lite/operators/levels_output.h"

namespace lite {
namespace operators {

enum class ElementwiseKind { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

struct ElementwiseParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* y = nullptr;
  Tensor* out = nullptr;
  ElementwiseKind kind = ElementwiseKind::kAdd;
  int axis = -1;
  FusedActivation act;    // applied to Out
  FusedActivation y_act;  // applied to Y before the op
  LevelsOutput levels;    // Out as int8 levels of act(X op Y) (x86 kernel)
  // Filled by InferShape: X, Y and Out dims, all of the output's rank.
  DDim x_dims;
  DDim y_dims;
  DDim out_dims;
};

// Paddle's elementwise broadcast rule. On success fills the operands' dims
// padded with 1s to the output rank, and the output dims.
Status ElementwiseBroadcastDims(const DDim& x, const DDim& y, int axis,
                                DDim* x_aligned, DDim* y_aligned, DDim* out);

// Reads the optional "y_activation" family of attributes (absent -> kNone).
// Missing y_alpha/y_beta/y_gamma take the activation's Paddle defaults.
StatusOr<FusedActivation> YActivationFromOpDesc(const cpp::OpDesc& desc);
// Writes `act` as the "y_activation" family (nothing when it is kNone).
void YActivationToOpDesc(const FusedActivation& act, cpp::OpDesc* desc);

}  // namespace operators
}  // namespace lite
