// Translates a pir::Program (pir_program.h) into the engine's program: a
// cpp::ProgramDesc whose ops are the legacy op definitions the engine
// already runs, so every pass, target, saver and predictor works on Paddle 3
// models unchanged.
//
// The Translator owns the translation state: which engine variable holds
// each PIR value, the constants of `pd_op.full` / `pd_op.full_int_array`
// (folded into attributes where the legacy op takes one, materialized as
// constant tensors where an op reads them as tensors), the value lists of
// `builtin.combine`, and the ops emitted so far. Per-op rules (one table per
// op family, pir_rules_*.cc) read a PIR op through it and emit engine ops.
// Values are SSA in PIR; each result becomes its own variable, so in-place
// ops (`batch_norm_`) need no special handling.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/model_parser/pir/pir_program.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace pir {

// What each PIR op type became, for `opt --print_model_ops`.
struct OpUse {
  int count = 0;
  std::set<std::string> engine_ops;  // empty: folded away (constants, combine)
};

struct TranslatedModel {
  cpp::ProgramDesc program;
  // builtin.parameter names sorted byte-wise: the record order of the
  // `.pdiparams` stream. Their VarDescs (persistable) are in block 0.
  std::vector<std::string> parameter_names;
  // Constant tensors the program reads as tensors (persistable vars too,
  // but not in the params stream).
  std::vector<std::pair<std::string, Tensor>> constants;
  std::map<std::string, OpUse> op_uses;  // by PIR op name
  int64_t pir_version = 0;
};

// A compile-time constant value (pd_op.full / pd_op.full_int_array).
struct Constant {
  DataType dtype = DataType::kFloat32;
  std::vector<int64_t> dims;
  std::vector<double> values;  // one per element; full: numel copies
};

// An IntArray operand as the legacy ops take it: exactly one of a constant
// (`values`, an attribute), a list of scalar tensors (`list`, "...TensorList"
// inputs) or one tensor (`tensor`).
struct IntArrayOperand {
  std::vector<int64_t> values;
  std::vector<std::string> list;
  std::string tensor;
};

// Binds IntArray operand `v` to the engine op: a constant as attribute
// `attr`, a tensor as input `tensor_input`, a list of scalars as
// `list_input` (either input name may be empty when the op has no such form).
Status BindIntArray(const IntArrayOperand& v, cpp::OpDesc* d, const char* attr,
                    const std::string& tensor_input, const std::string& list_input);

class Translator;
using Rule = std::function<Status(const Op&, Translator*)>;
using RuleTable = std::map<std::string, Rule>;

// Rule tables by family (pir_rules_*.cc); keys are full PIR op names.
void AddNnRules(RuleTable* table);
void AddMathRules(RuleTable* table);
void AddTensorRules(RuleTable* table);
void AddArrayRules(RuleTable* table);
void AddSelectRules(RuleTable* table);
void AddDetectionRules(RuleTable* table);
const RuleTable& AllRules();

// The whole translation. `name_for_errors` prefixes every message. Unknown
// ops are one Unimplemented error listing every unsupported op name with
// its count; control flow is refused by name; a value id that two ops (or
// one op twice) define is refused naming both ops.
StatusOr<TranslatedModel> Translate(const Program& program,
                                    const std::string& name_for_errors);

class Translator {
 public:
  explicit Translator(const Program& program) : program_(program) {}

  // --- reading operands of `op` ---
  size_t NumOperands(const Op& op) const { return op.operands.size(); }
  bool Present(const Op& op, size_t k) const {
    return k < op.operands.size() && op.operands[k] != 0;
  }
  // The variable holding operand k (materializing a constant if needed).
  StatusOr<std::string> In(const Op& op, size_t k);
  // Variables of operand k when it is a builtin.combine list.
  StatusOr<std::vector<std::string>> InList(const Op& op, size_t k);
  // Operand k when it is a constant; nullptr otherwise (or absent).
  const Constant* ConstOperand(const Op& op, size_t k) const;
  // Operand k as integers / floats; InvalidArgument naming the operand
  // when it is not a constant (the legacy op needs an attribute).
  StatusOr<std::vector<int64_t>> ConstInts(const Op& op, size_t k, const char* what) const;
  StatusOr<double> ConstScalar(const Op& op, size_t k, const char* what) const;
  StatusOr<IntArrayOperand> IntArray(const Op& op, size_t k, const char* what);
  // Type of operand k's value (dtype "" when unknown).
  const Type* OperandType(const Op& op, size_t k) const;

  // --- writing ---
  // Defines the variable for result k of `op` and returns its name.
  StatusOr<std::string> Out(const Op& op, size_t k);
  // Defines result k as a list value with `n` element variables (split).
  StatusOr<std::vector<std::string>> OutList(const Op& op, size_t k);
  // Appends an engine op translated from `op`. The pointer is valid until
  // the next Emit.
  cpp::OpDesc* Emit(const std::string& type, const Op& op);
  cpp::OpDesc* LastEmitted() { return &block_.ops.back(); }
  // The common shape: operand k (when present and inputs[k] is not empty)
  // becomes input parameter inputs[k], result 0 the output `output`.
  StatusOr<cpp::OpDesc*> EmitSimple(const Op& op, const std::string& type,
                                    const std::vector<std::string>& inputs,
                                    const std::string& output = "Out");
  // Result k of `op` is the same variable as `name` (no op emitted).
  Status Alias(const Op& op, size_t k, const std::string& name);
  // Result k of `op` is the list / constant given (no op emitted).
  void DefineList(const Op& op, size_t k, std::vector<int64_t> element_ids);
  void DefineConstant(const Op& op, size_t k, Constant c);
  const std::vector<int64_t>* ListOf(int64_t id) const;

  // --- driving ---
  Status Run(TranslatedModel* out, const std::string& name_for_errors);
  void AddParameter(const std::string& name) { parameter_names_.push_back(name); }
  void AddFeedColumn() { ++feed_columns_; }
  int feed_columns() const { return feed_columns_; }
  void DeclareVar(cpp::VarDesc v);
  // The declared variable `name` (nullptr when not declared).
  cpp::VarDesc* FindVar(const std::string& name) { return block_.FindVar(name); }
  // Name the result `id` should get if some rule defines it (fetch names).
  void PreferName(int64_t id, const std::string& name) { preferred_[id] = name; }

 private:
  struct Value {
    std::string var;                // engine variable ("" until defined)
    bool is_constant = false;
    Constant constant;
    bool is_list = false;
    std::vector<int64_t> elements;  // list values: element value ids
    const Type* type = nullptr;
  };
  StatusOr<Value*> Lookup(const Op& op, size_t k);
  const Value* Find(int64_t id) const;
  std::string UniqueName(const std::string& wanted);
  Status Materialize(int64_t id, Value* v);

  const Program& program_;
  std::map<int64_t, Value> values_;
  std::map<int64_t, std::string> preferred_;
  std::set<std::string> used_names_;
  std::vector<std::string> parameter_names_;
  int feed_columns_ = 0;
  cpp::BlockDesc block_;
  std::vector<std::pair<std::string, Tensor>> constants_;
  std::map<std::string, OpUse> op_uses_;
};

// Reads attributes of one op by name, converting numeric widths (a_i32 /
// a_i64, a_f32 / a_f64, a_bool) and keeping the first error, which names
// the attribute; the rule returns status() after its reads.
class AttrReader {
 public:
  explicit AttrReader(const Op& op) : op_(op) {}
  bool Has(const char* name) const { return op_.attrs.count(name) > 0; }
  int64_t Int(const char* name);
  int64_t Int(const char* name, int64_t fallback);
  double Float(const char* name);
  double Float(const char* name, double fallback);
  bool Bool(const char* name);
  bool Bool(const char* name, bool fallback);
  std::string Str(const char* name);
  std::string Str(const char* name, const std::string& fallback);
  std::vector<int64_t> Ints(const char* name);
  std::vector<int64_t> Ints(const char* name, std::vector<int64_t> fallback);
  std::vector<double> Floats(const char* name);
  const Status& status() const { return status_; }

 private:
  const Attr* Get(const char* name, bool required);
  void Fail(const std::string& message);
  const Op& op_;
  Status status_;
};

// Engine DataType for PIR names: "f32" (types) and "float32" (a_dtype).
DataType DataTypeFromPirName(const std::string& name);

// Narrowing helpers for SetAttr.
std::vector<int32_t> ToInt32s(const std::vector<int64_t>& v);
std::vector<float> ToFloats(const std::vector<double>& v);

}  // namespace pir
}  // namespace lite
