#include "lite/model_parser/pir/pir_translator.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace lite {
namespace pir {
namespace {

// "pd_op.batch_norm_" -> "batch_norm" (variable name stems).
std::string ShortName(const std::string& op_name) {
  std::string s = op_name.substr(op_name.find('.') + 1);
  while (!s.empty() && s.back() == '_') s.pop_back();
  return s.empty() ? "value" : s;
}

template <typename T>
void FillTensor(const std::vector<double>& values, Tensor* t) {
  T* p = t->mutable_data<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<T>(values[i]);
}

Status ConstantTensor(const Constant& c, const std::string& name, Tensor* t) {
  t->Resize(DDim(c.dims));
  if (t->numel() != static_cast<int64_t>(c.values.size())) {
    return InvalidArgument("constant '" + name + "' has " + std::to_string(c.values.size()) +
                           " values for " + std::to_string(t->numel()) + " elements");
  }
  switch (c.dtype) {
    case DataType::kFloat32: FillTensor<float>(c.values, t); break;
    case DataType::kFloat64: FillTensor<double>(c.values, t); break;
    case DataType::kInt32: FillTensor<int32_t>(c.values, t); break;
    case DataType::kInt64: FillTensor<int64_t>(c.values, t); break;
    case DataType::kBool: FillTensor<bool>(c.values, t); break;
    case DataType::kInt8: FillTensor<int8_t>(c.values, t); break;
    case DataType::kUInt8: FillTensor<uint8_t>(c.values, t); break;
    default:
      return Unimplemented("constant '" + name + "' of type " + DataTypeName(c.dtype) +
                           " used as a tensor");
  }
  t->set_persistable(true);
  return Status::OK();
}

// Ops whose presence means control flow, named in the refusal.
bool IsControlFlow(const Op& op) {
  static const char* const kNames[] = {"pd_op.if", "pd_op.while", "cf.yield", "cf.cond_yield",
                                       "cf.tuple_push", "cf.tuple_pop", "cf.stack_create"};
  for (const char* n : kNames) {
    if (op.name == n) return true;
  }
  return op.has_regions;
}

}  // namespace

DataType DataTypeFromPirName(const std::string& n) {
  static const std::pair<const char*, DataType> kNames[] = {
      {"f32", DataType::kFloat32},  {"float32", DataType::kFloat32},
      {"f64", DataType::kFloat64},  {"float64", DataType::kFloat64},
      {"f16", DataType::kFloat16},  {"float16", DataType::kFloat16},
      {"i64", DataType::kInt64},    {"int64", DataType::kInt64},
      {"i32", DataType::kInt32},    {"int32", DataType::kInt32},
      {"i16", DataType::kInt16},    {"int16", DataType::kInt16},
      {"i8", DataType::kInt8},      {"int8", DataType::kInt8},
      {"ui8", DataType::kUInt8},    {"uint8", DataType::kUInt8},
      {"bool", DataType::kBool},    {"b", DataType::kBool}};
  for (const auto& p : kNames) {
    if (n == p.first) return p.second;
  }
  return DataType::kUnknown;
}

std::vector<int32_t> ToInt32s(const std::vector<int64_t>& v) {
  return std::vector<int32_t>(v.begin(), v.end());
}

std::vector<float> ToFloats(const std::vector<double>& v) {
  return std::vector<float>(v.begin(), v.end());
}

const Translator::Value* Translator::Find(int64_t id) const {
  auto it = values_.find(id);
  return it == values_.end() ? nullptr : &it->second;
}

StatusOr<Translator::Value*> Translator::Lookup(const Op& op, size_t k) {
  if (k >= op.operands.size()) {
    return InvalidArgument("needs operand " + std::to_string(k) + " but has " +
                           std::to_string(op.operands.size()));
  }
  const int64_t id = op.operands[k];
  if (id == 0) return InvalidArgument("operand " + std::to_string(k) + " is absent");
  auto it = values_.find(id);
  if (it == values_.end()) {
    return InvalidArgument("operand " + std::to_string(k) + " is value %" + std::to_string(id) +
                           ", which no earlier op defines (undefined or a cycle)");
  }
  return &it->second;
}

std::string Translator::UniqueName(const std::string& wanted) {
  std::string name = wanted;
  for (int n = 1; used_names_.count(name) || name == "feed" || name == "fetch"; ++n) {
    name = wanted + "." + std::to_string(n);
  }
  used_names_.insert(name);
  return name;
}

void Translator::DeclareVar(cpp::VarDesc v) {
  used_names_.insert(v.name);
  block_.vars.push_back(std::move(v));
}

Status Translator::Materialize(int64_t id, Value* v) {
  if (!v->var.empty()) return Status::OK();
  cpp::VarDesc var;
  var.name = UniqueName("constant_" + std::to_string(id));
  var.dtype = v->constant.dtype;
  // The engine follows legacy Paddle, where a 0-D value is [1] (slice with
  // decrease_axis, reductions): a 0-D constant takes that shape too.
  if (v->constant.dims.empty()) v->constant.dims = {1};
  var.dims = v->constant.dims;
  var.persistable = true;
  Tensor t;
  RETURN_IF_ERROR(ConstantTensor(v->constant, var.name, &t));
  constants_.emplace_back(var.name, std::move(t));
  v->var = var.name;
  block_.vars.push_back(std::move(var));
  return Status::OK();
}

StatusOr<std::string> Translator::In(const Op& op, size_t k) {
  ASSIGN_OR_RETURN(Value * v, Lookup(op, k));
  if (v->is_list) {
    return InvalidArgument("operand " + std::to_string(k) + " is a list (builtin.combine)");
  }
  if (v->is_constant) RETURN_IF_ERROR(Materialize(op.operands[k], v));
  return v->var;
}

StatusOr<std::vector<std::string>> Translator::InList(const Op& op, size_t k) {
  ASSIGN_OR_RETURN(Value * v, Lookup(op, k));
  if (!v->is_list) {
    return InvalidArgument("operand " + std::to_string(k) + " is not a list (builtin.combine)");
  }
  std::vector<std::string> names;
  for (int64_t id : v->elements) {
    auto it = values_.find(id);
    if (it == values_.end() || it->second.is_list) {
      return InvalidArgument("list operand " + std::to_string(k) + " holds value %" +
                             std::to_string(id) + ", which is undefined or a list");
    }
    if (it->second.is_constant) RETURN_IF_ERROR(Materialize(id, &it->second));
    names.push_back(it->second.var);
  }
  return names;
}

const Constant* Translator::ConstOperand(const Op& op, size_t k) const {
  if (!Present(op, k)) return nullptr;
  const Value* v = Find(op.operands[k]);
  return v != nullptr && v->is_constant ? &v->constant : nullptr;
}

const Type* Translator::OperandType(const Op& op, size_t k) const {
  if (!Present(op, k)) return nullptr;
  const Value* v = Find(op.operands[k]);
  return v != nullptr ? v->type : nullptr;
}

StatusOr<std::vector<int64_t>> Translator::ConstInts(const Op& op, size_t k,
                                                     const char* what) const {
  const Constant* c = ConstOperand(op, k);
  if (c == nullptr) {
    return Unimplemented(std::string(what) + " (operand " + std::to_string(k) +
                         ") is computed at run time; only constants are supported here");
  }
  std::vector<int64_t> out;
  for (double d : c->values) out.push_back(static_cast<int64_t>(d));
  return out;
}

StatusOr<double> Translator::ConstScalar(const Op& op, size_t k, const char* what) const {
  const Constant* c = ConstOperand(op, k);
  if (c == nullptr || c->values.empty()) {
    return Unimplemented(std::string(what) + " (operand " + std::to_string(k) +
                         ") is computed at run time; only constants are supported here");
  }
  return c->values[0];
}

Status BindIntArray(const IntArrayOperand& v, cpp::OpDesc* d, const char* attr,
                    const std::string& tensor_input, const std::string& list_input) {
  if (!v.tensor.empty()) {
    if (tensor_input.empty()) return Unimplemented(std::string(attr) + " as a tensor");
    d->SetInput(tensor_input, {v.tensor});
  } else if (!v.list.empty()) {
    if (list_input.empty()) return Unimplemented(std::string(attr) + " as a tensor list");
    d->SetInput(list_input, v.list);
  }
  d->SetAttr(attr, v.values);
  return Status::OK();
}

StatusOr<IntArrayOperand> Translator::IntArray(const Op& op, size_t k, const char* what) {
  IntArrayOperand out;
  if (ConstOperand(op, k) != nullptr) {
    ASSIGN_OR_RETURN(out.values, ConstInts(op, k, what));
  } else if (Present(op, k) && ListOf(op.operands[k]) != nullptr) {
    ASSIGN_OR_RETURN(out.list, InList(op, k));
  } else {
    ASSIGN_OR_RETURN(out.tensor, In(op, k));
  }
  return out;
}

StatusOr<std::string> Translator::Out(const Op& op, size_t k) {
  if (k >= op.results.size()) {
    return InvalidArgument("needs result " + std::to_string(k) + " but has " +
                           std::to_string(op.results.size()));
  }
  const Result& r = op.results[k];
  if (values_.count(r.id)) {
    return InvalidArgument("value %" + std::to_string(r.id) + " is defined twice");
  }
  auto pref = preferred_.find(r.id);
  cpp::VarDesc var;
  var.name = UniqueName(pref != preferred_.end() ? pref->second
                                                 : ShortName(op.name) + "_" +
                                                       std::to_string(r.id));
  var.dtype = DataTypeFromPirName(r.type.dtype);
  if (var.dtype == DataType::kUnknown) var.dtype = DataType::kFloat32;
  var.dims = r.type.dims;
  if (var.dims.empty() && !r.type.dtype.empty()) var.dims = {1};  // 0-D: see Materialize
  Value& v = values_[r.id];
  v.var = var.name;
  v.type = &r.type;
  block_.vars.push_back(std::move(var));
  return v.var;
}

StatusOr<std::vector<std::string>> Translator::OutList(const Op& op, size_t k) {
  if (k >= op.results.size() || !op.results[k].type.is_vector) {
    return InvalidArgument("result " + std::to_string(k) + " is not a list");
  }
  const Result& r = op.results[k];
  if (values_.count(r.id)) {
    return InvalidArgument("value %" + std::to_string(r.id) + " is defined twice");
  }
  // Element values get synthetic negative ids (PIR ids are positive), so
  // builtin.split can alias them.
  std::vector<int64_t> ids;
  std::vector<std::string> names;
  for (size_t i = 0; i < r.type.elems.size(); ++i) {
    const int64_t id = -(r.id * 1024 + static_cast<int64_t>(i) + 1);
    cpp::VarDesc var;
    var.name = UniqueName(ShortName(op.name) + "_" + std::to_string(r.id) + "_" +
                          std::to_string(i));
    var.dtype = DataTypeFromPirName(r.type.elems[i].dtype);
    if (var.dtype == DataType::kUnknown) var.dtype = DataType::kFloat32;
    var.dims = r.type.elems[i].dims;
    Value& v = values_[id];
    v.var = var.name;
    v.type = &r.type.elems[i];
    names.push_back(var.name);
    ids.push_back(id);
    block_.vars.push_back(std::move(var));
  }
  DefineList(op, k, ids);
  return names;
}

cpp::OpDesc* Translator::Emit(const std::string& type, const Op& op) {
  block_.ops.emplace_back(type);
  op_uses_[op.name].engine_ops.insert(type);
  return &block_.ops.back();
}

StatusOr<cpp::OpDesc*> Translator::EmitSimple(const Op& op, const std::string& type,
                                              const std::vector<std::string>& inputs,
                                              const std::string& output) {
  std::vector<std::pair<std::string, std::string>> args;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].empty() || !Present(op, k)) continue;
    ASSIGN_OR_RETURN(std::string name, In(op, k));
    args.emplace_back(inputs[k], name);
  }
  ASSIGN_OR_RETURN(std::string out, Out(op, 0));
  cpp::OpDesc* d = Emit(type, op);
  for (const auto& a : args) d->SetInput(a.first, {a.second});
  d->SetOutput(output, {out});
  return d;
}

Status Translator::Alias(const Op& op, size_t k, const std::string& name) {
  if (k >= op.results.size()) return InvalidArgument("needs result " + std::to_string(k));
  Value& v = values_[op.results[k].id];
  v.var = name;
  v.type = &op.results[k].type;
  return Status::OK();
}

void Translator::DefineList(const Op& op, size_t k, std::vector<int64_t> element_ids) {
  Value& v = values_[op.results[k].id];
  v.is_list = true;
  v.elements = std::move(element_ids);
  v.type = &op.results[k].type;
}

void Translator::DefineConstant(const Op& op, size_t k, Constant c) {
  Value& v = values_[op.results[k].id];
  v.is_constant = true;
  v.constant = std::move(c);
  v.type = &op.results[k].type;
}

const std::vector<int64_t>* Translator::ListOf(int64_t id) const {
  const Value* v = Find(id);
  return v != nullptr && v->is_list ? &v->elements : nullptr;
}

Status Translator::Run(TranslatedModel* out, const std::string& name) {
  const RuleTable& rules = AllRules();
  // SSA: every value id is defined once. A second definition would
  // silently replace the first for every later reader.
  std::map<int64_t, const Op*> definer;
  for (const Op& op : program_.ops) {
    for (const Result& r : op.results) {
      auto first = definer.emplace(r.id, &op);
      if (first.second) continue;
      return InvalidArgument(name + ": value %" + std::to_string(r.id) + " is defined twice: by " +
                             OpLabel(*first.first->second) + " and by " + OpLabel(op));
    }
  }
  // One error for everything the engine cannot translate.
  std::map<std::string, int> unsupported, control_flow;
  for (const Op& op : program_.ops) {
    if (IsControlFlow(op)) {
      ++control_flow[op.name];
    } else if (!rules.count(op.name)) {
      ++unsupported[op.name];
    }
  }
  auto list = [](const std::map<std::string, int>& m) {
    std::string s;
    for (const auto& p : m) s += (s.empty() ? "" : ", ") + p.first + " x" + std::to_string(p.second);
    return s;
  };
  if (!control_flow.empty()) {
    return Unimplemented(name + ": control flow is not supported in PIR programs (" +
                         list(control_flow) + ")");
  }
  if (!unsupported.empty()) {
    return Unimplemented(name + ": unsupported PIR ops: " + list(unsupported));
  }
  // Fetched values take the fetch name when their producer defines them.
  for (const Op& op : program_.ops) {
    if (op.name != "pd_op.fetch" || op.operands.empty()) continue;
    auto n = op.attrs.find("name");
    if (n != op.attrs.end() && !preferred_.count(op.operands[0])) {
      preferred_[op.operands[0]] = n->second.s;
    }
  }
  for (const auto& p : preferred_) used_names_.insert(p.second);
  block_.vars.push_back(cpp::FeedFetchListVar("feed", cpp::VarKind::kFeedList));
  block_.vars.push_back(cpp::FeedFetchListVar("fetch", cpp::VarKind::kFetchList));
  for (const Op& op : program_.ops) {
    ++op_uses_[op.name].count;
    // Preferred names are reserved; release the op's own before it claims it.
    for (const Result& r : op.results) {
      auto p = preferred_.find(r.id);
      if (p != preferred_.end()) used_names_.erase(p->second);
    }
    Status s = rules.at(op.name)(op, this);
    if (!s.ok()) return s.WithContext(name + ": " + OpLabel(op));
  }
  std::sort(parameter_names_.begin(), parameter_names_.end());
  for (size_t i = 1; i < parameter_names_.size(); ++i) {
    if (parameter_names_[i] == parameter_names_[i - 1]) {
      return InvalidArgument(name + ": parameter '" + parameter_names_[i] +
                             "' is declared twice");
    }
  }
  out->program.blocks.clear();
  out->program.blocks.push_back(std::move(block_));
  out->parameter_names = std::move(parameter_names_);
  out->constants = std::move(constants_);
  out->op_uses = std::move(op_uses_);
  out->pir_version = program_.version;
  return Status::OK();
}

StatusOr<TranslatedModel> Translate(const Program& program, const std::string& name) {
  Translator t(program);
  TranslatedModel out;
  RETURN_IF_ERROR(t.Run(&out, name));
  return out;
}

const RuleTable& AllRules() {
  static const RuleTable* table = [] {
    auto* t = new RuleTable;
    AddNnRules(t);
    AddMathRules(t);
    AddTensorRules(t);
    AddArrayRules(t);
    AddSelectRules(t);
    AddDetectionRules(t);
    return t;
  }();
  return *table;
}

// ---- AttrReader ----

void AttrReader::Fail(const std::string& message) {
  if (status_.ok()) status_ = InvalidArgument(message);
}

const Attr* AttrReader::Get(const char* name, bool required) {
  auto it = op_.attrs.find(name);
  if (it != op_.attrs.end()) return &it->second;
  if (required) Fail(std::string("attribute '") + name + "' is missing");
  return nullptr;
}

int64_t AttrReader::Int(const char* name) {
  const Attr* a = Get(name, true);
  if (a == nullptr) return 0;
  if (!a->is_number()) Fail(std::string("attribute '") + name + "' (" + a->kind + ") is not a number");
  return a->i;
}

int64_t AttrReader::Int(const char* name, int64_t fallback) {
  return Has(name) ? Int(name) : fallback;
}

double AttrReader::Float(const char* name) {
  const Attr* a = Get(name, true);
  if (a == nullptr) return 0;
  if (!a->is_number()) Fail(std::string("attribute '") + name + "' (" + a->kind + ") is not a number");
  return a->f;
}

double AttrReader::Float(const char* name, double fallback) {
  return Has(name) ? Float(name) : fallback;
}

bool AttrReader::Bool(const char* name) { return Int(name) != 0; }

bool AttrReader::Bool(const char* name, bool fallback) {
  return Has(name) ? Bool(name) : fallback;
}

std::string AttrReader::Str(const char* name) {
  const Attr* a = Get(name, true);
  if (a == nullptr) return "";
  if (a->is_number() || a->is_array()) {
    Fail(std::string("attribute '") + name + "' (" + a->kind + ") is not a string");
  }
  return a->s;
}

std::string AttrReader::Str(const char* name, const std::string& fallback) {
  return Has(name) ? Str(name) : fallback;
}

std::vector<int64_t> AttrReader::Ints(const char* name) {
  const Attr* a = Get(name, true);
  std::vector<int64_t> out;
  if (a == nullptr) return out;
  if (!a->is_array()) {
    Fail(std::string("attribute '") + name + "' (" + a->kind + ") is not a list");
    return out;
  }
  for (const Attr& e : a->elems) {
    if (!e.is_number() && !e.kind.empty()) {
      Fail(std::string("attribute '") + name + "' holds a " + e.kind + ", not an integer");
    }
    out.push_back(e.i);
  }
  return out;
}

std::vector<int64_t> AttrReader::Ints(const char* name, std::vector<int64_t> fallback) {
  return Has(name) ? Ints(name) : fallback;
}

std::vector<double> AttrReader::Floats(const char* name) {
  const Attr* a = Get(name, true);
  std::vector<double> out;
  if (a == nullptr) return out;
  if (!a->is_array()) {
    Fail(std::string("attribute '") + name + "' (" + a->kind + ") is not a list");
    return out;
  }
  for (const Attr& e : a->elems) out.push_back(e.f);
  return out;
}

}  // namespace pir
}  // namespace lite
