#include "lite/core/program.h"

namespace lite {

bool Instruction::InputDimsChanged() {
  const auto& inputs = op_->input_tensors();
  bool changed = !inferred_once_ || last_input_dims_.size() != inputs.size();
  if (!changed) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]->dims() != last_input_dims_[i]) {
        changed = true;
        break;
      }
    }
  }
  if (changed) {
    inferred_once_ = true;
    last_input_dims_.clear();
    for (const Tensor* t : inputs) last_input_dims_.push_back(t->dims());
  }
  return changed;
}

Status Instruction::Run() {
  const std::string where = "op " + op_->DebugName() + " [" + kernel_->def().Key() + "]";
  if (!checked_) {
    RETURN_IF_ERROR(op_->CheckShape().WithContext(where));
    checked_ = true;
  }
  if (InputDimsChanged()) {
    RETURN_IF_ERROR(op_->InferShape().WithContext(where));
  }
  if (!prepared_) {
    RETURN_IF_ERROR(kernel_->Prepare().WithContext(where));
    prepared_ = true;
  }
  return kernel_->Run().WithContext(where);
}

Status RuntimeProgram::Run() {
  for (auto& inst : instructions_) {
    RETURN_IF_ERROR(inst->Run());
  }
  return Status::OK();
}

StatusOr<std::unique_ptr<RuntimeProgram>> BuildRuntimeProgram(
    const cpp::ProgramDesc& optimized, Scope* exec_scope, int threads) {
  if (optimized.blocks.empty()) return InvalidArgument("optimized program has no blocks");
  auto ctx = std::make_unique<KernelContext>();
  ctx->threads = threads;
  std::vector<std::unique_ptr<Instruction>> insts;
  const cpp::BlockDesc& block = optimized.blocks[0];
  // Every var the program names exists in the exec scope (weights are found
  // in the parent scope and not shadowed).
  for (const auto& v : block.vars) {
    if (!exec_scope->FindVar(v.name)) exec_scope->Var(v.name);
  }
  for (size_t i = 0; i < block.ops.size(); ++i) {
    const cpp::OpDesc& desc = block.ops[i];
    const std::string where = "op #" + std::to_string(i) + " " + desc.Type();
    auto op = OpRegistry::Global().Create(desc.Type());
    if (!op) return Unimplemented(where + ": op type is not supported by this engine");
    op->SetProgram(&optimized);
    RETURN_IF_ERROR(op->Attach(desc, exec_scope));
    std::string key = desc.GetAttr<std::string>(kKernelKeyAttr, "");
    if (key.empty()) return InvalidArgument(where + ": no picked kernel recorded");
    const KernelDef* def = KernelRegistry::Global().FindByKey(key);
    if (!def) return NotFound(where + ": kernel " + key + " is not registered in this build");
    auto kernel = def->factory();
    kernel->Bind(def, op->param(), ctx.get());
    insts.push_back(std::make_unique<Instruction>(std::move(op), std::move(kernel)));
  }
  return std::make_unique<RuntimeProgram>(std::move(insts), exec_scope, std::move(ctx));
}

}  // namespace lite
