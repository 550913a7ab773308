#include "lite/kernels/npu/subgraph_converter.h"

#include "lite/kernels/npu/bridges/bridge.h"

namespace lite {
namespace npu {

Status CheckOnDevice(OpLite* op, const Scope* scope, const Scope* weights, const Driver& driver) {
  const BridgeFn* bridge = BridgeRegistry::Global().Find(op->Type());
  if (!bridge) return Unimplemented(op->DebugName() + ": no npu bridge for op type " + op->Type());
  Model model;
  BridgeContext ctx(&model, scope, weights, /*check_mode=*/true);
  RETURN_IF_ERROR((*bridge)(op, &ctx));
  std::string invalid = model.Validate(/*check_mode=*/true);
  if (!invalid.empty()) return Internal(op->DebugName() + ": bridge built an invalid model: " + invalid);
  for (const Operation& operation : model.operations) {
    Status s = driver.Supports(model, operation);
    if (!s.ok()) {
      return Status(s.code(), op->DebugName() + ": driver " + driver.name() + ": " + s.message());
    }
  }
  return Status::OK();
}

StatusOr<Model> ConvertToModel(const std::vector<OpLite*>& ops, const Scope* scope,
                               const Scope* weights, const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs, WeightCache* cache) {
  Model model;
  BridgeContext ctx(&model, scope, weights, /*check_mode=*/false, cache);
  for (const auto& var : inputs) ctx.AddModelInput(var);
  for (OpLite* op : ops) {
    const BridgeFn* bridge = BridgeRegistry::Global().Find(op->Type());
    if (!bridge) return Unimplemented(op->DebugName() + ": no npu bridge for op type " + op->Type());
    RETURN_IF_ERROR((*bridge)(op, &ctx));
  }
  for (const auto& var : outputs) {
    int idx = ctx.Find(var);
    if (idx < 0) return Internal("subgraph output '" + var + "' is not produced by its ops");
    Operand& o = model.operands[idx];
    if (o.lifetime != Lifetime::kTemporary) {
      return Unimplemented("subgraph output '" + var + "' is a model " + LifetimeName(o.lifetime) +
                           ", not computed");
    }
    o.lifetime = Lifetime::kModelOutput;
    model.outputs.push_back(idx);
  }
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return Internal("converted model is invalid: " + invalid);
  return model;
}

}  // namespace npu
}  // namespace lite
