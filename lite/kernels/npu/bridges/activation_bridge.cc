// Bridges of the activation ops (relu, relu6, leaky_relu, sigmoid, tanh,
// swish, hard_swish, hard_sigmoid, exp, abs), prelu, scale, clip and
// softmax: one NN IR operation each.
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/activation_ops.h"
#include "lite/operators/scale_ops.h"
#include "lite/operators/softmax_op.h"

namespace lite {
namespace npu {

namespace {

using operators::ActivationKind;

Status ActivationBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::ActivationParam*>(op->param());
  OperationType type;
  std::map<std::string, AttrValue> attrs;
  switch (p.kind) {
    case ActivationKind::kRelu: type = OperationType::kRelu; break;
    case ActivationKind::kTanh: type = OperationType::kTanh; break;
    case ActivationKind::kSigmoid: type = OperationType::kSigmoid; break;
    case ActivationKind::kExp: type = OperationType::kExp; break;
    case ActivationKind::kAbs: type = OperationType::kAbs; break;
    case ActivationKind::kRelu6:
      type = OperationType::kClip;
      attrs = {{"min", 0.f}, {"max", p.threshold}};
      if (p.threshold == 6.f) {
        type = OperationType::kRelu6;
        attrs.clear();
      }
      break;
    case ActivationKind::kLeakyRelu:
      type = OperationType::kLeakyRelu;
      attrs = {{"alpha", p.alpha}};
      break;
    case ActivationKind::kHardSwish:
      type = OperationType::kHardSwish;
      attrs = {{"threshold", p.threshold}, {"scale", p.scale}, {"offset", p.offset}};
      break;
    case ActivationKind::kHardSigmoid:
      type = OperationType::kHardSigmoid;
      attrs = {{"slope", p.slope}, {"offset", p.offset}};
      break;
    case ActivationKind::kSwish:
      type = OperationType::kSwish;
      attrs = {{"beta", p.beta}};
      break;
    default: return Unimplemented(op->DebugName() + ": " + op->Type() + " has no bridge");
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, type, {x}, {out}, attrs);
  return Status::OK();
}

Status PReluBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::PReluParam*>(op->param());
  if (p.channel_last) return Unimplemented(op->DebugName() + ": NHWC prelu is not supported");
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int alpha, ctx->ConstantOf(*op, "Alpha"));
  const auto xd = ctx->Dims(InVar(*op, "X"));
  if (!ctx->check_mode()) {
    const int64_t n = ctx->model()->operands[alpha].numel();
    std::vector<int64_t> dims;
    if (p.mode == "all") {
      dims = {1};
    } else if (p.mode == "channel") {
      dims.assign(xd.size() - 1, 1);
      dims[0] = n;  // [C, 1, ..., 1] against [N, C, ...]
    } else if (p.mode == "element") {
      dims.assign(xd.begin() + 1, xd.end());
    } else {
      return Unimplemented(op->DebugName() + ": prelu mode " + p.mode + " is not supported");
    }
    alpha = Reshaped(ctx, *op, alpha, dims);
  }
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, OperationType::kPRelu, {x, alpha}, {out});
  return Status::OK();
}

Status ScaleBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::ScaleParam*>(op->param());
  if (p.scale_tensor) return Unimplemented(op->DebugName() + ": ScaleTensor is not supported");
  RETURN_IF_ERROR(CheckActivation(*op, p.act));
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  const float bias = p.bias_after_scale ? p.bias : p.bias * p.scale;
  const std::string out_var = OutVar(*op, "Out");
  int main = MainOutput(ctx, out_var, p.act);
  ctx->AddOperation(*op, OperationType::kScale, {x}, {main}, {{"scale", p.scale}, {"bias", bias}});
  FinishActivation(ctx, *op, out_var, main, p.act);
  return Status::OK();
}

Status ClipBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::ClipParam*>(op->param());
  if (p.min_tensor || p.max_tensor) {
    return Unimplemented(op->DebugName() + ": Min/Max given as tensors are not supported");
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, OperationType::kClip, {x}, {out}, {{"min", p.min}, {"max", p.max}});
  return Status::OK();
}

Status SoftmaxBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::SoftmaxParam*>(op->param());
  if (p.log) return Unimplemented(op->DebugName() + ": log_softmax has no bridge");
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  const int64_t rank = static_cast<int64_t>(ctx->Dims(InVar(*op, "X")).size());
  const int64_t axis = p.axis < 0 ? p.axis + rank : p.axis;
  if (axis < 0 || axis >= rank) {
    return InvalidArgument(op->DebugName() + ": axis " + std::to_string(p.axis) +
                           " out of range for rank " + std::to_string(rank));
  }
  ASSIGN_OR_RETURN(int out, ctx->OutputOf(*op, "Out"));
  ctx->AddOperation(*op, OperationType::kSoftmax, {x}, {out}, {{"axis", axis}});
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(relu, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(relu6, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(leaky_relu, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(sigmoid, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(tanh, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(swish, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(hard_swish, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(hard_sigmoid, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(exp, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(abs, lite::npu::ActivationBridge);
REGISTER_NPU_BRIDGE(prelu, lite::npu::PReluBridge);
REGISTER_NPU_BRIDGE(scale, lite::npu::ScaleBridge);
REGISTER_NPU_BRIDGE(clip, lite::npu::ClipBridge);
REGISTER_NPU_BRIDGE(softmax, lite::npu::SoftmaxBridge);
