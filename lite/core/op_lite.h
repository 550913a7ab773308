// OpLite: the definition of one op instance (attributes, shape rules).
//
// An op is created by type from the OpRegistry, then Attach()ed to an OpDesc
// and a Scope: it parses attributes once into its typed param struct (with
// Paddle's defaults and legacy names) and binds its input/output tensors.
// CheckShape() validates once; InferShape() recomputes output dims and is
// re-run by the runtime whenever an input's dims change. The op owns its
// param struct; tensors are owned by the Scope.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/scope.h"
#include "lite/base/tensor.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// Base of every op's param struct; kernels downcast to the concrete type.
struct OpParam {
  virtual ~OpParam() = default;
};

class OpLite {
 public:
  explicit OpLite(std::string type) : type_(std::move(type)) {}
  virtual ~OpLite() = default;

  const std::string& Type() const { return type_; }
  const cpp::OpDesc& op_desc() const { return desc_; }
  // "conv2d (output: conv2d_0.tmp_0)": how errors name this op.
  std::string DebugName() const;

  // Parses attributes and binds tensors. Errors name the op and attribute.
  Status Attach(const cpp::OpDesc& desc, Scope* scope);
  virtual Status CheckShape() const = 0;
  virtual Status InferShape() = 0;
  virtual OpParam* param() = 0;

  // Arithmetic per run (multiply-adds count 2) from the bound tensors'
  // current dims, for the profile's GFLOP/s; 0 when the op does not count
  // it (or its tensors are not known yet).
  virtual int64_t Flops() const { return 0; }

  // Ops that own a sub-block (e.g. `subgraph`) get the whole program before
  // Attach; the default ignores it. The program outlives the op.
  virtual void SetProgram(const cpp::ProgramDesc* /*program*/) {}

  // Tensors read by this op, in binding order (dims-change detection).
  const std::vector<const Tensor*>& input_tensors() const { return inputs_; }
  // Tensors written by this op with their var names, in binding order.
  const std::vector<std::pair<std::string, Tensor*>>& output_tensors() const {
    return outputs_;
  }
  // Persistable inputs with statically known data (weights) can be used by
  // passes: true when the named input var is a weight in the scope.
  Scope* scope() const { return scope_; }

 protected:
  virtual Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) = 0;

  // Binding helpers for AttachImpl. Required ones fail with a message naming
  // the op and parameter; optional ones return nullptr / empty when absent.
  StatusOr<Tensor*> Input(const std::string& param);
  Tensor* OptionalInput(const std::string& param);
  std::vector<Tensor*> InputList(const std::string& param);
  StatusOr<Tensor*> Output(const std::string& param);
  Tensor* OptionalOutput(const std::string& param);
  std::vector<Tensor*> OutputList(const std::string& param);
  // An error naming this op: "<DebugName>: <message>".
  Status OpError(const std::string& message) const;

 private:
  std::string type_;
  cpp::OpDesc desc_;
  Scope* scope_ = nullptr;
  std::vector<const Tensor*> inputs_;
  std::vector<std::pair<std::string, Tensor*>> outputs_;
  Tensor* BindOutput(const std::string& var);
};

using OpFactory = std::function<std::unique_ptr<OpLite>()>;

class OpRegistry {
 public:
  static OpRegistry& Global();
  bool Register(const std::string& type, OpFactory factory);
  bool Has(const std::string& type) const { return factories_.count(type); }
  // nullptr when the type is not registered.
  std::unique_ptr<OpLite> Create(const std::string& type) const;
  std::vector<std::string> Types() const;  // sorted

  // The values of attribute `attr` an op supports, when it supports only
  // some (declared with DECLARE_LITE_OP_ATTR_VALUES; docs/ops.md lists
  // them). AttrValues: attribute -> values, both sorted; empty when the op
  // declares none.
  bool DeclareAttrValues(const std::string& type, const std::string& attr,
                         std::vector<std::string> values);
  std::map<std::string, std::vector<std::string>> AttrValues(const std::string& type) const;

 private:
  std::map<std::string, OpFactory> factories_;
  std::map<std::string, std::map<std::string, std::vector<std::string>>> attr_values_;
};

}  // namespace lite

// Registers OpClass (constructible from the type string) under `op_type`.
#define REGISTER_LITE_OP(op_type, OpClass)                               \
  static bool lite_op_registered_##op_type [[maybe_unused]] =            \
      ::lite::OpRegistry::Global().Register(#op_type, [] {               \
        return std::unique_ptr<::lite::OpLite>(new OpClass(#op_type));   \
      })

// REGISTER_LITE_OP_KIND(log_softmax, SoftmaxOp, SoftmaxOpKind::kLogSoftmax):
// for a class that serves several op types. The op is built as
// OpClass(type, kind), so it knows which op it is from the constant it was
// registered with, never by comparing its type string.
#define REGISTER_LITE_OP_KIND(op_type, OpClass, kind)                        \
  static bool lite_op_registered_##op_type [[maybe_unused]] =                \
      ::lite::OpRegistry::Global().Register(#op_type, [] {                   \
        return std::unique_ptr<::lite::OpLite>(new OpClass(#op_type, kind)); \
      })

// DECLARE_LITE_OP_ATTR_VALUES(pool2d, pooling_type, "avg", "max"): the op
// accepts only these values of the attribute (its Attach refuses others).
#define DECLARE_LITE_OP_ATTR_VALUES(op_type, attr, ...)                        \
  static bool lite_op_attr_values_##op_type##_##attr [[maybe_unused]] =       \
      ::lite::OpRegistry::Global().DeclareAttrValues(#op_type, #attr, {__VA_ARGS__})
