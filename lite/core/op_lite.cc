#include "lite/core/op_lite.h"

#include <algorithm>

namespace lite {

std::string OpLite::DebugName() const {
  // Before Attach the desc is empty: the op's type alone.
  return desc_.Type().empty() ? type_ : desc_.DebugName();
}

Status OpLite::Attach(const cpp::OpDesc& desc, Scope* scope) {
  desc_ = desc;
  scope_ = scope;
  inputs_.clear();
  outputs_.clear();
  RETURN_IF_ERROR(AttachImpl(desc_, scope));
  for (const auto& name : desc_.mistyped_attrs()) {
    return OpError("attribute '" + name + "' has type " +
                   cpp::AttrTypeName(desc_.FindAttr(name)->type) +
                   ", which this op cannot read as the type it expects");
  }
  return Status::OK();
}

Status OpLite::OpError(const std::string& message) const {
  return InvalidArgument("op " + DebugName() + ": " + message);
}

StatusOr<Tensor*> OpLite::Input(const std::string& param) {
  const auto& args = desc_.Input(param);
  if (args.empty()) return OpError("missing required input '" + param + "'");
  Variable* v = scope_->FindVar(args.front());
  if (!v) {
    return OpError("input '" + param + "' var '" + args.front() +
                   "' is not in the scope");
  }
  inputs_.push_back(v->GetMutableTensor());
  return v->GetMutableTensor();
}

Tensor* OpLite::OptionalInput(const std::string& param) {
  const auto& args = desc_.Input(param);
  if (args.empty()) return nullptr;
  Variable* v = scope_->FindVar(args.front());
  if (!v) return nullptr;
  inputs_.push_back(v->GetMutableTensor());
  return v->GetMutableTensor();
}

std::vector<Tensor*> OpLite::InputList(const std::string& param) {
  std::vector<Tensor*> out;
  for (const auto& name : desc_.Input(param)) {
    if (Variable* v = scope_->FindVar(name)) {
      inputs_.push_back(v->GetMutableTensor());
      out.push_back(v->GetMutableTensor());
    }
  }
  return out;
}

StatusOr<Tensor*> OpLite::Output(const std::string& param) {
  const auto& args = desc_.Output(param);
  if (args.empty()) return OpError("missing required output '" + param + "'");
  return BindOutput(args.front());
}

Tensor* OpLite::OptionalOutput(const std::string& param) {
  const auto& args = desc_.Output(param);
  if (args.empty()) return nullptr;
  return BindOutput(args.front());
}

std::vector<Tensor*> OpLite::OutputList(const std::string& param) {
  std::vector<Tensor*> out;
  for (const auto& name : desc_.Output(param)) out.push_back(BindOutput(name));
  return out;
}

Tensor* OpLite::BindOutput(const std::string& var) {
  Tensor* t = scope_->Var(var)->GetMutableTensor();
  outputs_.push_back({var, t});
  return t;
}

OpRegistry& OpRegistry::Global() {
  static OpRegistry* registry = new OpRegistry;
  return *registry;
}

bool OpRegistry::Register(const std::string& type, OpFactory factory) {
  factories_[type] = std::move(factory);
  return true;
}

std::unique_ptr<OpLite> OpRegistry::Create(const std::string& type) const {
  auto it = factories_.find(type);
  if (it == factories_.end()) return nullptr;
  return it->second();
}

std::vector<std::string> OpRegistry::Types() const {
  std::vector<std::string> out;
  for (const auto& kv : factories_) out.push_back(kv.first);
  return out;
}

bool OpRegistry::DeclareAttrValues(const std::string& type, const std::string& attr,
                                   std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  attr_values_[type][attr] = std::move(values);
  return true;
}

std::map<std::string, std::vector<std::string>> OpRegistry::AttrValues(
    const std::string& type) const {
  auto it = attr_values_.find(type);
  return it == attr_values_.end() ? std::map<std::string, std::vector<std::string>>()
                                  : it->second;
}

}  // namespace lite
