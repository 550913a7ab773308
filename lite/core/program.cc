#include "lite/core/program.h"

namespace lite {

bool Instruction::InputDimsChanged() {
  const auto& inputs = op_->input_tensors();
  bool changed = last_input_dims_.size() != inputs.size();
  if (!changed) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i]->dims() != last_input_dims_[i]) {
        changed = true;
        break;
      }
    }
  }
  if (changed) {
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

}  // namespace lite
