// Bridges of the reshape family (reshape/reshape2, flatten/flatten2,
// flatten_contiguous_range, squeeze/squeeze2, unsqueeze/unsqueeze2) as
// kReshape to the dims InferShape gave, and transpose/transpose2 as
// kTranspose. Shapes given as run-time tensors are not supported (the
// device needs them at compile time) unless they are constants.
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/reshape_ops.h"
#include "lite/operators/transpose_op.h"

namespace lite {
namespace npu {

namespace {

Status ReshapeBridge(OpLite* op, BridgeContext* ctx) {
  for (const char* param : {"Shape", "ShapeTensor", "AxesTensor", "AxesTensorList"}) {
    for (const auto& var : op->op_desc().Input(param)) {
      if (!ctx->IsConstant(var)) {
        return Unimplemented(op->DebugName() + ": " + param + " '" + var +
                             "' is computed at run time; the shape must be static");
      }
    }
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, OperationType::kReshape, {x}, {out});
  return Status::OK();
}

Status TransposeBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::TransposeParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  std::vector<int64_t> perm;
  if (!ctx->check_mode()) {
    perm = ToInt64(p.axis);  // normalized by InferShape
  } else {
    for (int a : op->op_desc().GetAttr<std::vector<int32_t>>("axis", {})) perm.push_back(a);
  }
  ctx->AddOperation(*op, OperationType::kTranspose, {x}, {out}, {{"perm", perm}});
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(reshape, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(reshape2, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(flatten, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(flatten2, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(flatten_contiguous_range, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(squeeze, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(squeeze2, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(unsqueeze, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(unsqueeze2, lite::npu::ReshapeBridge);
REGISTER_NPU_BRIDGE(transpose, lite::npu::TransposeBridge);
REGISTER_NPU_BRIDGE(transpose2, lite::npu::TransposeBridge);
