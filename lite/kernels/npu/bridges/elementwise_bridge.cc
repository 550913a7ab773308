// Bridges of elementwise_add/sub/mul/div/max/min: Paddle's axis
// broadcasting becomes numpy broadcasting by seeing X and Y with the dims
// InferShape aligned to the output rank (constants re-dimmed, activations
// through a kReshape). A fused activation on Out (or on Y) becomes a
// separate operation.
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/elementwise_ops.h"

namespace lite {
namespace npu {

namespace {

Status ElementwiseBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::ElementwiseParam*>(op->param());
  OperationType type;
  switch (p.kind) {
    case operators::ElementwiseKind::kAdd: type = OperationType::kAdd; break;
    case operators::ElementwiseKind::kSub: type = OperationType::kSub; break;
    case operators::ElementwiseKind::kMul: type = OperationType::kMul; break;
    case operators::ElementwiseKind::kDiv: type = OperationType::kDiv; break;
    case operators::ElementwiseKind::kMax: type = OperationType::kMax; break;
    case operators::ElementwiseKind::kMin: type = OperationType::kMin; break;
    default: return Unimplemented(op->DebugName() + ": " + op->Type() + " has no bridge");
  }
  RETURN_IF_ERROR(CheckActivation(*op, p.act));
  RETURN_IF_ERROR(CheckActivation(*op, p.y_act));
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int y, ctx->InputOf(*op, "Y"));
  const std::string out_var = OutVar(*op, "Out");
  if (!ctx->check_mode()) {
    x = Reshaped(ctx, *op, x, p.x_dims);
    y = Reshaped(ctx, *op, y, p.y_dims);
  }
  if (p.y_act.enabled()) {  // act(Y) first, into a temporary
    int t = ctx->AddTemporary(InVar(*op, "Y") + "/act", ctx->model()->operands[y].dims);
    AddActivation(ctx, *op, y, t, p.y_act);
    y = t;
  }
  int main = MainOutput(ctx, out_var, p.act);
  ctx->AddOperation(*op, type, {x, y}, {main});
  FinishActivation(ctx, *op, out_var, main, p.act);
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(elementwise_add, lite::npu::ElementwiseBridge);
REGISTER_NPU_BRIDGE(elementwise_sub, lite::npu::ElementwiseBridge);
REGISTER_NPU_BRIDGE(elementwise_mul, lite::npu::ElementwiseBridge);
REGISTER_NPU_BRIDGE(elementwise_div, lite::npu::ElementwiseBridge);
REGISTER_NPU_BRIDGE(elementwise_max, lite::npu::ElementwiseBridge);
REGISTER_NPU_BRIDGE(elementwise_min, lite::npu::ElementwiseBridge);
