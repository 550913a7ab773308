#include "lite/kernels/npu/bridges/bridge_util.h"

namespace lite {
namespace npu {

using operators::FusedActivation;

std::vector<int64_t> ToInt64(const std::vector<int>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

Status CheckActivation(const OpLite& op, const FusedActivation& act) {
  switch (act.kind) {
    case FusedActivation::kNone: case FusedActivation::kRelu: case FusedActivation::kRelu6:
    case FusedActivation::kLeakyRelu: case FusedActivation::kHardSwish:
    case FusedActivation::kHardSigmoid: case FusedActivation::kSigmoid:
    case FusedActivation::kSwish: case FusedActivation::kTanh:
      return Status::OK();
  }
  return Unimplemented(op.DebugName() + ": fused activation " + act.name() + " has no bridge");
}

int MainOutput(BridgeContext* ctx, const std::string& out_var, const FusedActivation& act) {
  if (!act.enabled()) return ctx->Output(out_var);
  return ctx->AddTemporary(out_var + "/before_act", ctx->Dims(out_var));
}

void FinishActivation(BridgeContext* ctx, const OpLite& op, const std::string& out_var, int main,
                      const FusedActivation& act) {
  if (!act.enabled()) return;
  AddActivation(ctx, op, main, ctx->Output(out_var), act);
}

void AddActivation(BridgeContext* ctx, const OpLite& op, int in, int out,
                   const FusedActivation& act) {
  std::map<std::string, AttrValue> attrs;
  OperationType type = OperationType::kRelu;
  switch (act.kind) {
    case FusedActivation::kRelu: type = OperationType::kRelu; break;
    case FusedActivation::kRelu6:
      if (act.alpha == 6.f) {
        type = OperationType::kRelu6;
      } else {
        type = OperationType::kClip;
        attrs = {{"min", 0.f}, {"max", act.alpha}};
      }
      break;
    case FusedActivation::kLeakyRelu:
      type = OperationType::kLeakyRelu;
      attrs = {{"alpha", act.alpha}};
      break;
    case FusedActivation::kHardSwish:
      type = OperationType::kHardSwish;
      attrs = {{"threshold", act.alpha}, {"scale", act.beta}, {"offset", act.gamma}};
      break;
    case FusedActivation::kHardSigmoid:
      type = OperationType::kHardSigmoid;
      attrs = {{"slope", act.alpha}, {"offset", act.beta}};
      break;
    case FusedActivation::kSigmoid: type = OperationType::kSigmoid; break;
    case FusedActivation::kSwish:
      type = OperationType::kSwish;
      attrs = {{"beta", act.alpha}};
      break;
    case FusedActivation::kTanh: type = OperationType::kTanh; break;
    case FusedActivation::kNone: return;
  }
  ctx->AddOperation(op, type, {in}, {out}, attrs);
}

int Reshaped(BridgeContext* ctx, const OpLite& op, int operand, const std::vector<int64_t>& dims) {
  const Operand& o = ctx->model()->operands[operand];
  if (o.dims == dims) return operand;
  if (o.lifetime == Lifetime::kConstant) {
    Operand copy = o;
    copy.dims = dims;
    copy.name = o.name + "/reshaped";
    return ctx->model()->AddOperand(std::move(copy));
  }
  int t = ctx->AddTemporary(o.name + "/reshaped", dims, o.type);
  ctx->AddOperation(op, OperationType::kReshape, {operand}, {t});
  return t;
}

std::string InVar(const OpLite& op, const std::string& param) {
  const auto& v = op.op_desc().Input(param);
  return v.empty() ? "" : v.front();
}

std::string OutVar(const OpLite& op, const std::string& param) {
  const auto& v = op.op_desc().Output(param);
  return v.empty() ? "" : v.front();
}

}  // namespace npu
}  // namespace lite
