#include "lite/base/scope.h"

namespace lite {

Scope* Scope::NewScope() {
  kids_.push_back(std::make_unique<Scope>());
  kids_.back()->parent_ = this;
  return kids_.back().get();
}

Variable* Scope::Var(const std::string& name) {
  if (Variable* v = FindVar(name)) return v;
  auto& slot = vars_[name];
  slot = std::make_unique<Variable>();
  return slot.get();
}

Variable* Scope::FindVar(const std::string& name) const {
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    if (Variable* v = s->FindLocalVar(name)) return v;
  }
  return nullptr;
}

Variable* Scope::FindLocalVar(const std::string& name) const {
  auto it = vars_.find(name);
  return it == vars_.end() ? nullptr : it->second.get();
}

Tensor* Scope::FindMutableTensor(const std::string& name) const {
  Variable* v = FindVar(name);
  return v ? v->GetMutableTensor() : nullptr;
}

std::vector<std::string> Scope::LocalVarNames() const {
  std::vector<std::string> names;
  for (const auto& kv : vars_) names.push_back(kv.first);
  return names;
}

}  // namespace lite
