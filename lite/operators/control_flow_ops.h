// Control-flow ops: the ones that run a sub-block, and the small ops loops
// and branches are built from.
//   while: runs block `sub_block` again and again while its one-element bool
//     Condition is true (the sub-block recomputes it); X lists the outer vars
//     the block reads, Out the outer vars it writes.
//   conditional_block: runs `sub_block` once when the condition holds: with
//     is_scalar_condition, Cond is one bool element and must be true;
//     otherwise every Cond tensor must have elements. Out vars are left
//     untouched when the block does not run.
//   select_input: Out = X[Mask] (Mask one int32 element);
//   select_output: Out[Mask] = X;
//   increment: Out = X + step (one element; attribute step, default 1).
// The ops only bind; the host kernels (lite/kernels/host/control_flow_
// compute.cc) own a program for the sub-block, built through the same
// registries as the main block with the kernels recorded at optimization,
// and run it in a child scope of the exec scope (the block's own vars live
// there; outer vars are found in the parent). The program desc is the
// caller's and outlives the op. Owned by the control-flow work (issue 29).
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

inline constexpr const char* kControlFlowSubBlockAttr = "sub_block";

// while and conditional_block.
struct SubBlockParam : OpParam {
  const cpp::ProgramDesc* program = nullptr;
  int block_idx = -1;
  Scope* scope = nullptr;           // the exec scope the op attached to
  std::vector<const Tensor*> conds;  // while: the Condition; else Cond
  bool is_while = false;
  bool is_scalar_condition = false;
};

// select_input, select_output and increment.
struct BranchParam : OpParam {
  std::vector<const Tensor*> xs;  // select_input: the choices; else one
  const Tensor* mask = nullptr;   // select_*
  std::vector<Tensor*> outs;      // select_output: the choices; else one
  float step = 1.f;               // increment
};

// The value of a one-element integer tensor (int32 or int64), or an error
// naming `what`.
StatusOr<int64_t> ScalarIndex(const Tensor& t, const std::string& what);

}  // namespace operators
}  // namespace lite
