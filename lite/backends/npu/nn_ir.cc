#include "lite/backends/npu/nn_ir.h"

#include <cmath>
#include <sstream>

#include <glog/logging.h>

namespace lite {
namespace npu {

const char* ElementTypeName(ElementType t) {
  switch (t) {
    case ElementType::kFloat32: return "float32";
    case ElementType::kInt32: return "int32";
    case ElementType::kInt64: return "int64";
    case ElementType::kInt8: return "int8";
  }
  return "?";
}

size_t ElementSize(ElementType t) {
  switch (t) {
    case ElementType::kInt64: return 8;
    case ElementType::kInt8: return 1;
    default: return 4;
  }
}

std::string Quantization::Check(const std::vector<int64_t>& dims) const {
  if (kind == kNone) return scales.empty() ? "" : "scales without a quantization kind";
  if (kind != kPerTensor && kind != kPerChannel) return "unknown quantization kind";
  for (float s : scales) {
    if (!(s > 0.f) || !std::isfinite(s)) return "scale " + std::to_string(s) + " is not > 0";
  }
  if (kind == kPerTensor) {
    if (scales.size() != 1) return "per-tensor quantization with " + std::to_string(scales.size()) + " scales";
    if (zero_point < -128 || zero_point > 127) return "zero point outside [-128, 127]";
    return "";
  }
  if (axis < 0 || axis >= static_cast<int32_t>(dims.size())) {
    return "per-channel axis " + std::to_string(axis) + " outside rank " + std::to_string(dims.size());
  }
  if (zero_point != 0) return "per-channel quantization with a zero point";
  if (dims[axis] >= 0 && static_cast<int64_t>(scales.size()) != dims[axis]) {
    return "per-channel quantization with " + std::to_string(scales.size()) + " scales for " +
           std::to_string(dims[axis]) + " channels";
  }
  return "";
}

const char* LifetimeName(Lifetime l) {
  switch (l) {
    case Lifetime::kModelInput: return "input";
    case Lifetime::kModelOutput: return "output";
    case Lifetime::kConstant: return "constant";
    case Lifetime::kTemporary: return "temporary";
  }
  return "?";
}

namespace {

AttrKind ParseAttrKind(const std::string& kind) {
  if (kind == "int") return AttrKind::kInt;
  if (kind == "float") return AttrKind::kFloat;
  if (kind == "ints") return AttrKind::kInts;
  CHECK(kind == "floats") << "nn_ir_operations.h: unknown attribute kind " << kind;
  return AttrKind::kFloats;
}

OperationInfo MakeInfo(const char* name, int min_in, int max_in, int min_out, int max_out,
                       const char* attrs) {
  OperationInfo info{name, min_in, max_in, min_out, max_out, {}};
  std::istringstream words(attrs);
  for (std::string word; words >> word;) {
    const size_t colon = word.find(':');
    CHECK(colon != std::string::npos) << "nn_ir_operations.h: attribute without kind " << word;
    info.attrs[word.substr(0, colon)] = ParseAttrKind(word.substr(colon + 1));
  }
  return info;
}

const std::vector<OperationInfo>& Table() {
  static const std::vector<OperationInfo> table{
#define LITE_NPU_OPERATION_INFO(e, abi, name, in_min, in_max, out_min, out_max, attrs) \
  MakeInfo(name, in_min, in_max, out_min, out_max, attrs),
      LITE_NPU_OPERATIONS(LITE_NPU_OPERATION_INFO)
#undef LITE_NPU_OPERATION_INFO
  };
  return table;
}

const char* AttrKindName(AttrKind k) {
  static const char* const kNames[] = {"int", "float", "ints", "floats"};
  return kNames[static_cast<int>(k)];
}

std::string CountError(const char* what, size_t got, int min, int max) {
  if (static_cast<int>(got) >= min && (max < 0 || static_cast<int>(got) <= max)) return "";
  std::string want = min == max ? std::to_string(min)
                     : max < 0  ? "at least " + std::to_string(min)
                                : std::to_string(min) + " to " + std::to_string(max);
  return std::to_string(got) + " " + what + ", expected " + want;
}

}  // namespace

const OperationInfo& InfoOf(OperationType t) {
  const int i = static_cast<int>(t);
  CHECK(i >= 0 && i < kNumOperationTypes) << "operation type " << i << " outside the table";
  return Table()[i];
}

const char* OperationTypeName(OperationType t) {
  const int i = static_cast<int>(t);
  return i >= 0 && i < kNumOperationTypes ? Table()[i].name : "?";
}

std::string CheckOperationSignature(const Operation& op) {
  const OperationInfo& info = InfoOf(op.type);
  std::string e = CountError("inputs", op.inputs.size(), info.min_inputs, info.max_inputs);
  if (e.empty()) e = CountError("outputs", op.outputs.size(), info.min_outputs, info.max_outputs);
  if (!e.empty()) return e;
  for (const auto& kv : op.attrs) {
    auto it = info.attrs.find(kv.first);
    if (it == info.attrs.end()) return "unknown attribute '" + kv.first + "'";
    if (static_cast<size_t>(it->second) != kv.second.index()) {
      return "attribute '" + kv.first + "' must be " + AttrKindName(it->second);
    }
  }
  return "";
}

int64_t Operand::numel() const {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    n *= d;
  }
  return n;
}

int64_t Operation::Int(const std::string& key, int64_t fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  const int64_t* v = std::get_if<int64_t>(&it->second);
  return v ? *v : fallback;
}

float Operation::Float(const std::string& key, float fallback) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return fallback;
  const float* v = std::get_if<float>(&it->second);
  return v ? *v : fallback;
}

std::vector<int64_t> Operation::Ints(const std::string& key) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return {};
  const auto* v = std::get_if<std::vector<int64_t>>(&it->second);
  return v ? *v : std::vector<int64_t>{};
}

std::vector<float> Operation::Floats(const std::string& key) const {
  auto it = attrs.find(key);
  if (it == attrs.end()) return {};
  const auto* v = std::get_if<std::vector<float>>(&it->second);
  return v ? *v : std::vector<float>{};
}

int Model::AddOperand(Operand operand) {
  operands.push_back(std::move(operand));
  return static_cast<int>(operands.size()) - 1;
}

int Model::AddOperation(Operation operation) {
  operations.push_back(std::move(operation));
  return static_cast<int>(operations.size()) - 1;
}

namespace {
std::string DimsText(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}
}  // namespace

std::string Model::Validate(bool check_mode) const {
  const int n = static_cast<int>(operands.size());
  std::vector<int> writes(n, 0);
  for (int i = 0; i < n; ++i) {
    const Operand& o = operands[i];
    const std::string what = "operand #" + std::to_string(i) + " (" + o.name + ")";
    const std::string quant = o.quant.Check(o.dims);
    if (!quant.empty()) return what + ": " + quant;
    if ((o.type == ElementType::kInt8) != (o.quant.kind != Quantization::kNone)) {
      return what + " is " + ElementTypeName(o.type) +
             (o.type == ElementType::kInt8 ? " without" : " with") + " quantization";
    }
    if (!check_mode && o.numel() < 0) return what + " has unknown dims " + DimsText(o.dims);
    if (o.lifetime == Lifetime::kConstant && !check_mode &&
        o.data.size() != static_cast<size_t>(o.numel()) * ElementSize(o.type)) {
      return what + " is a constant of " + std::to_string(o.numel()) + " elements with " +
             std::to_string(o.data.size()) + " bytes of data";
    }
  }
  for (int idx : inputs) {
    if (idx < 0 || idx >= n || operands[idx].lifetime != Lifetime::kModelInput) {
      return "model input " + std::to_string(idx) + " is not a model-input operand";
    }
  }
  for (const Operation& op : operations) {
    if (static_cast<int>(op.type) < 0 || static_cast<int>(op.type) >= kNumOperationTypes) {
      return "operation type " + std::to_string(static_cast<int>(op.type)) + " from " + op.origin +
             " is not in the table";
    }
    const std::string what = std::string(OperationTypeName(op.type)) + " from " + op.origin;
    const std::string signature = CheckOperationSignature(op);
    if (!signature.empty()) return what + ": " + signature;
    for (int idx : op.inputs) {
      if (idx < 0 || idx >= n) return what + ": input operand " + std::to_string(idx) + " out of range";
      Lifetime l = operands[idx].lifetime;
      if ((l == Lifetime::kTemporary || l == Lifetime::kModelOutput) && writes[idx] == 0) {
        return what + ": reads " + operands[idx].name + " before it is written";
      }
    }
    for (int idx : op.outputs) {
      if (idx < 0 || idx >= n) return what + ": output operand " + std::to_string(idx) + " out of range";
      Lifetime l = operands[idx].lifetime;
      if (l == Lifetime::kModelInput || l == Lifetime::kConstant) {
        return what + ": writes " + std::string(LifetimeName(l)) + " operand " + operands[idx].name;
      }
      if (++writes[idx] > 1) return what + ": writes " + operands[idx].name + " a second time";
    }
  }
  for (int idx : outputs) {
    if (idx < 0 || idx >= n || operands[idx].lifetime != Lifetime::kModelOutput) {
      return "model output " + std::to_string(idx) + " is not a model-output operand";
    }
    if (writes[idx] == 0) return "model output " + operands[idx].name + " is never written";
  }
  return "";
}

std::string Model::DebugString() const {
  std::ostringstream os;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& o = operands[i];
    os << "%" << i << " " << LifetimeName(o.lifetime) << " " << ElementTypeName(o.type) << " "
       << DimsText(o.dims) << " " << o.name;
    if (o.quant.kind != Quantization::kNone) {
      os << " scale" << (o.quant.kind == Quantization::kPerChannel ? "s[axis " + std::to_string(o.quant.axis) + "]=" : "=");
      for (size_t k = 0; k < o.quant.scales.size() && k < 4; ++k) os << (k ? "," : "") << o.quant.scales[k];
      if (o.quant.scales.size() > 4) os << ",...";
      if (o.quant.zero_point) os << " zero_point=" << o.quant.zero_point;
    }
    os << "\n";
  }
  for (const Operation& op : operations) {
    os << OperationTypeName(op.type) << "(";
    for (size_t i = 0; i < op.inputs.size(); ++i) os << (i ? ", %" : "%") << op.inputs[i];
    os << ") -> (";
    for (size_t i = 0; i < op.outputs.size(); ++i) os << (i ? ", %" : "%") << op.outputs[i];
    os << ")";
    for (const auto& kv : op.attrs) {
      os << " " << kv.first << "=";
      if (auto* v = std::get_if<int64_t>(&kv.second)) os << *v;
      if (auto* v = std::get_if<float>(&kv.second)) os << *v;
      if (auto* v = std::get_if<std::vector<int64_t>>(&kv.second)) os << DimsText(*v);
      if (auto* v = std::get_if<std::vector<float>>(&kv.second)) {
        os << "[";
        for (size_t i = 0; i < v->size(); ++i) os << (i ? ", " : "") << (*v)[i];
        os << "]";
      }
    }
    os << "  # " << op.origin << "\n";
  }
  return os.str();
}

}  // namespace npu
}  // namespace lite
