// PIR -> engine rules for program structure and tensor plumbing: feeds,
// fetches, parameters, constants, builtin.combine / split / slice,
// reshape-likes, concat / split / stack, slice, shape.
#include "lite/model_parser/pir/pir_translator.h"

namespace lite {
namespace pir {
namespace {

Status Data(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string name = a.Str("name");
  const std::vector<int64_t> shape = a.Ints("shape", {});
  const std::string dtype = a.Str("dtype", "float32");
  RETURN_IF_ERROR(a.status());
  if (name.empty()) return InvalidArgument("data op with an empty name");
  if (op.results.size() != 1) return InvalidArgument("data op needs one result");
  cpp::VarDesc var;
  var.name = name;
  var.dtype = DataTypeFromPirName(dtype);
  if (var.dtype == DataType::kUnknown) {
    return Unimplemented("feed '" + name + "' has unsupported dtype '" + dtype + "'");
  }
  var.dims = shape.empty() ? op.results[0].type.dims : shape;
  var.need_check_feed = true;
  t->DeclareVar(var);
  RETURN_IF_ERROR(t->Alias(op, 0, name));
  cpp::OpDesc* d = t->Emit("feed", op);
  d->SetInput("X", {"feed"});
  d->SetOutput("Out", {name});
  d->SetAttr("col", static_cast<int32_t>(t->feed_columns()));
  t->AddFeedColumn();
  return Status::OK();
}

Status Fetch(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string name = a.Str("name");
  const int64_t col = a.Int("col", 0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  std::string fetched = x;
  if (x != name && !name.empty()) {
    // The value already has another name (a feed, a parameter, fetched
    // twice): copy it under the fetch name.
    cpp::VarDesc var;
    var.name = name;
    const Type* type = t->OperandType(op, 0);
    if (type != nullptr) {
      var.dtype = DataTypeFromPirName(type->dtype);
      var.dims = type->dims;
    }
    if (var.dtype == DataType::kUnknown) var.dtype = DataType::kFloat32;
    t->DeclareVar(var);
    cpp::OpDesc* assign = t->Emit("assign", op);
    assign->SetInput("X", {x});
    assign->SetOutput("Out", {name});
    fetched = name;
  }
  if (!op.results.empty()) RETURN_IF_ERROR(t->Alias(op, 0, fetched));
  cpp::OpDesc* d = t->Emit("fetch", op);
  d->SetInput("X", {fetched});
  d->SetOutput("Out", {"fetch"});
  d->SetAttr("col", static_cast<int32_t>(col));
  return Status::OK();
}

Status Parameter(const Op& op, Translator* t) {
  if (op.results.size() != 1) return InvalidArgument("parameter needs one result");
  const Type& type = op.results[0].type;
  cpp::VarDesc var;
  var.name = op.parameter_name;
  var.dtype = DataTypeFromPirName(type.dtype);
  if (var.dtype == DataType::kUnknown) {
    return Unimplemented("parameter '" + var.name + "' has unsupported type '" + type.dtype + "'");
  }
  var.dims = type.dims;
  var.persistable = true;
  t->DeclareVar(var);
  t->AddParameter(var.name);
  return t->Alias(op, 0, var.name);
}

// full(shape, value, dtype) and full_int_array(value, dtype): constants,
// folded where consumers take attributes, materialized otherwise.
Status Full(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<int64_t> shape = a.Ints("shape");
  const double value = a.Float("value");
  const std::string dtype = a.Str("dtype", "float32");
  RETURN_IF_ERROR(a.status());
  Constant c;
  c.dtype = DataTypeFromPirName(dtype);
  if (c.dtype == DataType::kUnknown) return Unimplemented("full of dtype '" + dtype + "'");
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > (int64_t{1} << 31) / n) {
      return InvalidArgument("full: shape " + std::to_string(d) + " is out of range");
    }
    n *= d;
  }
  c.dims = shape;
  c.values.assign(n, value);
  if (op.results.size() != 1) return InvalidArgument("full needs one result");
  t->DefineConstant(op, 0, std::move(c));
  return Status::OK();
}

Status FullIntArray(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<double> values = a.Floats("value");
  const std::string dtype = a.Str("dtype", "int64");
  RETURN_IF_ERROR(a.status());
  Constant c;
  c.dtype = DataTypeFromPirName(dtype);
  if (c.dtype == DataType::kUnknown) {
    return Unimplemented("full_int_array of dtype '" + dtype + "'");
  }
  c.dims = {static_cast<int64_t>(values.size())};
  c.values = values;
  if (op.results.size() != 1) return InvalidArgument("full_int_array needs one result");
  t->DefineConstant(op, 0, std::move(c));
  return Status::OK();
}

Status Combine(const Op& op, Translator* t) {
  if (op.results.size() != 1) return InvalidArgument("combine needs one result");
  for (size_t k = 0; k < op.operands.size(); ++k) {
    if (!t->Present(op, k)) return InvalidArgument("combine of an absent value");
  }
  t->DefineList(op, 0, op.operands);
  return Status::OK();
}

// builtin.split(list) -> its elements; builtin.slice(list) {index} -> one.
Status SplitList(const Op& op, Translator* t, bool one) {
  if (op.operands.size() != 1) return InvalidArgument("needs one list operand");
  const std::vector<int64_t>* list = t->ListOf(op.operands[0]);
  if (list == nullptr) {
    return InvalidArgument("operand %" + std::to_string(op.operands[0]) +
                           " is not a list value");
  }
  size_t first = 0;
  if (one) {
    AttrReader a(op);
    const int64_t index = a.Int("index");
    RETURN_IF_ERROR(a.status());
    if (index < 0 || index >= static_cast<int64_t>(list->size())) {
      return InvalidArgument("index " + std::to_string(index) + " outside a list of " +
                             std::to_string(list->size()));
    }
    first = index;
  } else if (op.results.size() != list->size()) {
    return InvalidArgument("splits a list of " + std::to_string(list->size()) + " into " +
                           std::to_string(op.results.size()) + " results");
  }
  for (size_t k = 0; k < op.results.size(); ++k) {
    Op element;  // view the element as an op operand to reuse In()
    element.operands = {(*list)[first + k]};
    ASSIGN_OR_RETURN(std::string name, t->In(element, 0));
    RETURN_IF_ERROR(t->Alias(op, k, name));
  }
  return Status::OK();
}

Status Assign(const Op& op, Translator* t) {
  return t->EmitSimple(op, "assign", {"X"}).status();
}

// reshape(x, shape): a constant shape becomes the attribute; a list of
// scalars (shape built at run time) ShapeTensor; a tensor Shape.
Status Reshape(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(IntArrayOperand shape, t->IntArray(op, 1, "shape"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "reshape2", {"X"}));
  if (!shape.list.empty()) d->SetInput("ShapeTensor", shape.list);
  if (!shape.tensor.empty()) d->SetInput("Shape", {shape.tensor});
  d->SetAttr("shape", ToInt32s(shape.values));
  return Status::OK();
}

Status Flatten(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t start = a.Int("start_axis", 1);
  const int64_t stop = a.Int("stop_axis", -1);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "flatten_contiguous_range", {"X"}));
  d->SetAttr("start_axis", static_cast<int32_t>(start));
  d->SetAttr("stop_axis", static_cast<int32_t>(stop));
  return Status::OK();
}

Status Transpose(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<int64_t> perm = a.Ints("perm");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "transpose2", {"X"}));
  d->SetAttr("axis", ToInt32s(perm));
  return Status::OK();
}

// squeeze / unsqueeze (x, axis): axis is an IntArray operand.
Status SqueezeLike(const Op& op, Translator* t, const std::string& type) {
  std::vector<int64_t> axes;
  if (t->Present(op, 1)) {
    ASSIGN_OR_RETURN(axes, t->ConstInts(op, 1, "axis"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, type, {"X"}));
  d->SetAttr("axes", ToInt32s(axes));
  return Status::OK();
}

// concat(list, axis)
Status Concat(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(std::vector<std::string> xs, t->InList(op, 0));
  ASSIGN_OR_RETURN(double axis, t->ConstScalar(op, 1, "axis"));
  ASSIGN_OR_RETURN(std::string y, t->Out(op, 0));
  cpp::OpDesc* d = t->Emit("concat", op);
  d->SetInput("X", xs);
  d->SetOutput("Out", {y});
  d->SetAttr("axis", static_cast<int32_t>(axis));
  return Status::OK();
}

// split(x, sections, axis) and split_with_num(x, axis) {num}: one list result.
Status Split(const Op& op, Translator* t, bool with_num) {
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  std::vector<int64_t> sections;
  int64_t num = 0;
  double axis = 0;
  if (with_num) {
    AttrReader a(op);
    num = a.Int("num");
    RETURN_IF_ERROR(a.status());
    ASSIGN_OR_RETURN(axis, t->ConstScalar(op, 1, "axis"));
  } else {
    ASSIGN_OR_RETURN(sections, t->ConstInts(op, 1, "sections"));
    ASSIGN_OR_RETURN(axis, t->ConstScalar(op, 2, "axis"));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> outs, t->OutList(op, 0));
  cpp::OpDesc* d = t->Emit("split", op);
  d->SetInput("X", {x});
  d->SetOutput("Out", outs);
  d->SetAttr("axis", static_cast<int32_t>(axis));
  d->SetAttr("num", static_cast<int32_t>(num));
  d->SetAttr("sections", ToInt32s(sections));
  return Status::OK();
}

// add_n(list) -> sum
Status AddN(const Op& op, Translator* t) {
  ASSIGN_OR_RETURN(std::vector<std::string> xs, t->InList(op, 0));
  ASSIGN_OR_RETURN(std::string y, t->Out(op, 0));
  cpp::OpDesc* d = t->Emit("sum", op);
  d->SetInput("X", xs);
  d->SetOutput("Out", {y});
  return Status::OK();
}

Status Stack(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t axis = a.Int("axis", 0);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::vector<std::string> xs, t->InList(op, 0));
  ASSIGN_OR_RETURN(std::string y, t->Out(op, 0));
  cpp::OpDesc* d = t->Emit("stack", op);
  d->SetInput("X", xs);
  d->SetOutput("Y", {y});
  d->SetAttr("axis", static_cast<int32_t>(axis));
  return Status::OK();
}

// slice(input, starts, ends) {axes, infer_flags, decrease_axis}
Status Slice(const Op& op, Translator* t) {
  AttrReader a(op);
  const auto axes = a.Ints("axes");
  const auto infer_flags = a.Ints("infer_flags", {});
  const auto decrease = a.Ints("decrease_axis", {});
  RETURN_IF_ERROR(a.status());
  IntArrayOperand bounds[2];
  for (int k = 0; k < 2; ++k) {
    ASSIGN_OR_RETURN(bounds[k], t->IntArray(op, k + 1, k == 0 ? "starts" : "ends"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "slice", {"Input"}));
  const char* const kPrefix[2] = {"Starts", "Ends"};
  for (int k = 0; k < 2; ++k) {
    if (!bounds[k].tensor.empty()) d->SetInput(std::string(kPrefix[k]) + "Tensor", {bounds[k].tensor});
    if (!bounds[k].list.empty()) d->SetInput(std::string(kPrefix[k]) + "TensorList", bounds[k].list);
  }
  d->SetAttr("axes", axes);
  d->SetAttr("starts", bounds[0].values);
  d->SetAttr("ends", bounds[1].values);
  d->SetAttr("infer_flags", infer_flags);
  d->SetAttr("decrease_axis", decrease);
  return Status::OK();
}

// shape (int32) / shape64 (int64): the engine's shape op writes int32, so
// shape64 is shape + cast, keeping int64 for what consumes it (stack with
// int64 constants in recognizer reshape targets).
Status Shape(const Op& op, Translator* t, bool int64) {
  ASSIGN_OR_RETURN(std::string x, t->In(op, 0));
  ASSIGN_OR_RETURN(std::string y, t->Out(op, 0));
  std::string shape = y;
  if (int64) {
    cpp::VarDesc var = *t->FindVar(y);
    var.name = y + ".int32";
    var.dtype = DataType::kInt32;
    shape = var.name;
    t->DeclareVar(var);
  } else {
    t->FindVar(y)->dtype = DataType::kInt32;
  }
  cpp::OpDesc* d = t->Emit("shape", op);
  d->SetInput("Input", {x});
  d->SetOutput("Out", {shape});
  if (int64) {
    cpp::OpDesc* cast = t->Emit("cast", op);
    cast->SetInput("X", {shape});
    cast->SetOutput("Out", {y});
    cast->SetAttr("in_dtype", int32_t{2});   // INT32
    cast->SetAttr("out_dtype", int32_t{3});  // INT64
  }
  return Status::OK();
}

// pad3d(x, paddings) {mode, pad_value, data_format}
Status Pad3d(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::string mode = a.Str("mode", "constant");
  const double value = a.Float("pad_value", 0.0);
  const std::string format = a.Str("data_format", "NCDHW");
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(auto paddings, t->ConstInts(op, 1, "paddings"));
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "pad3d", {"X"}));
  d->SetAttr("paddings", ToInt32s(paddings));
  d->SetAttr("mode", mode);
  d->SetAttr("value", static_cast<float>(value));
  d->SetAttr("data_format", format);
  return Status::OK();
}

// pad(x, pad_value) {paddings}: pad_value is a mutable Scalar (an operand,
// pd_op.full) in Paddle 3; an attribute is read too.
Status PadNd(const Op& op, Translator* t) {
  AttrReader a(op);
  const std::vector<int64_t> paddings = a.Ints("paddings");
  double value = 0.0;
  if (!t->Present(op, 1)) value = a.Float("pad_value", 0.0);
  RETURN_IF_ERROR(a.status());
  if (t->Present(op, 1)) {
    ASSIGN_OR_RETURN(value, t->ConstScalar(op, 1, "pad_value"));
  }
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "pad", {"X"}));
  d->SetAttr("paddings", ToInt32s(paddings));
  d->SetAttr("pad_value", static_cast<float>(value));
  return Status::OK();
}

}  // namespace

void AddTensorRules(RuleTable* table) {
  (*table)["pd_op.data"] = Data;
  (*table)["pd_op.fetch"] = Fetch;
  (*table)["builtin.parameter"] = Parameter;
  (*table)["pd_op.full"] = Full;
  (*table)["pd_op.full_int_array"] = FullIntArray;
  (*table)["builtin.combine"] = Combine;
  (*table)["builtin.split"] = [](const Op& op, Translator* t) { return SplitList(op, t, false); };
  (*table)["builtin.slice"] = [](const Op& op, Translator* t) { return SplitList(op, t, true); };
  (*table)["pd_op.assign"] = Assign;
  (*table)["pd_op.assign_"] = Assign;
  for (const char* n : {"pd_op.reshape", "pd_op.reshape_"}) (*table)[n] = Reshape;
  for (const char* n : {"pd_op.flatten", "pd_op.flatten_"}) (*table)[n] = Flatten;
  for (const char* n : {"pd_op.transpose", "pd_op.transpose_"}) (*table)[n] = Transpose;
  for (const char* n : {"pd_op.squeeze", "pd_op.squeeze_"}) {
    (*table)[n] = [](const Op& op, Translator* t) { return SqueezeLike(op, t, "squeeze2"); };
  }
  for (const char* n : {"pd_op.unsqueeze", "pd_op.unsqueeze_"}) {
    (*table)[n] = [](const Op& op, Translator* t) { return SqueezeLike(op, t, "unsqueeze2"); };
  }
  (*table)["pd_op.concat"] = Concat;
  (*table)["pd_op.split"] = [](const Op& op, Translator* t) { return Split(op, t, false); };
  (*table)["pd_op.split_with_num"] = [](const Op& op, Translator* t) {
    return Split(op, t, true);
  };
  (*table)["pd_op.stack"] = Stack;
  (*table)["pd_op.add_n"] = AddN;
  (*table)["pd_op.slice"] = Slice;
  (*table)["pd_op.shape"] = [](const Op& op, Translator* t) { return Shape(op, t, false); };
  (*table)["pd_op.shape64"] = [](const Op& op, Translator* t) { return Shape(op, t, true); };
  (*table)["pd_op.pad3d"] = Pad3d;
  (*table)["pd_op.pad"] = PadNd;
}

}  // namespace pir
}  // namespace lite
