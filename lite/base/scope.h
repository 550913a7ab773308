// Scope and Variable: named storage for tensors.
//
// The root scope holds weights (persistable vars); a child scope made by
// NewScope() holds activations. Lookups fall back to the parent, so predictor
// clones share one root of weights. A scope owns its variables and children.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/tensor.h"

namespace lite {

// A variable holds a tensor, or a list of tensors for feed/fetch lists.
class Variable {
 public:
  Tensor* GetMutableTensor() { return &tensor_; }
  const Tensor& GetTensor() const { return tensor_; }
  std::vector<Tensor>* GetMutableTensorList() { return &tensor_list_; }
  const std::vector<Tensor>& GetTensorList() const { return tensor_list_; }

 private:
  Tensor tensor_;
  std::vector<Tensor> tensor_list_;
};

class Scope {
 public:
  Scope() = default;
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  // Child scope owned by this one.
  Scope* NewScope();
  const Scope* parent() const { return parent_; }

  // Finds `name` here or in an ancestor; creates it here if absent.
  Variable* Var(const std::string& name);
  // Finds `name` here or in an ancestor; nullptr when absent.
  Variable* FindVar(const std::string& name) const;
  // Finds `name` in this scope only.
  Variable* FindLocalVar(const std::string& name) const;
  // Convenience: FindVar(name)->GetMutableTensor(), or nullptr.
  Tensor* FindMutableTensor(const std::string& name) const;
  // Names of variables local to this scope, sorted.
  std::vector<std::string> LocalVarNames() const;

 private:
  Scope* parent_ = nullptr;
  std::map<std::string, std::unique_ptr<Variable>> vars_;
  std::vector<std::unique_ptr<Scope>> kids_;
};

}  // namespace lite
