#include "lite/kernels/npu/bridges/bridge.h"

#include <cstring>

namespace lite {
namespace npu {

namespace {
ElementType ToElementType(DataType t) {
  switch (t) {
    case DataType::kInt32: return ElementType::kInt32;
    case DataType::kInt64: return ElementType::kInt64;
    case DataType::kInt8: return ElementType::kInt8;
    default: return ElementType::kFloat32;
  }
}
}  // namespace

int BridgeContext::Find(const std::string& var) const {
  auto it = var_to_operand_.find(var);
  return it == var_to_operand_.end() ? -1 : it->second;
}

bool BridgeContext::IsConstant(const std::string& var) const { return Weight(var) != nullptr; }

const Tensor* BridgeContext::Weight(const std::string& var) const {
  if (Find(var) >= 0 || !weights_) return nullptr;
  const Variable* v = weights_->FindVar(var);
  if (!v || !v->GetTensor().IsInitialized()) return nullptr;
  return &v->GetTensor();
}

const SharedBytes& WeightCache::Get(const std::string& var, const Tensor& w) {
  Entry& e = entries_[var];
  if (e.data.empty() || e.raw != w.raw_data() || e.bytes != w.memory_size() ||
      e.dtype != w.dtype()) {
    const uint8_t* p = static_cast<const uint8_t*>(w.raw_data());
    e = Entry{w.raw_data(), w.memory_size(), w.dtype(), SharedBytes(p, p + w.memory_size())};
  }
  return e.data;
}

std::vector<int64_t> BridgeContext::Dims(const std::string& var) const {
  int idx = Find(var);
  if (idx >= 0) return model_->operands[idx].dims;
  const Variable* v = scope_ ? scope_->FindVar(var) : nullptr;
  return v ? v->GetTensor().dims() : std::vector<int64_t>{};
}

int BridgeContext::AddModelInput(const std::string& var) {
  Operand o;
  o.name = var;
  o.lifetime = Lifetime::kModelInput;
  const Variable* v = scope_ ? scope_->FindVar(var) : nullptr;
  if (v) {
    o.dims = v->GetTensor().dims();
    o.type = ToElementType(v->GetTensor().dtype());
  }
  int idx = model_->AddOperand(std::move(o));
  model_->inputs.push_back(idx);
  var_to_operand_[var] = idx;
  return idx;
}

StatusOr<int> BridgeContext::Input(const OpLite& op, const std::string& var) {
  int idx = Find(var);
  if (idx >= 0) return idx;
  if (const Tensor* w = Weight(var)) {
    Operand o;
    o.name = var;
    o.lifetime = Lifetime::kConstant;
    o.dims = w->dims();
    o.type = ToElementType(w->dtype());
    if (!check_mode_) {
      if (cache_) {
        o.data = cache_->Get(var, *w);
      } else {
        const uint8_t* p = static_cast<const uint8_t*>(w->raw_data());
        o.data.assign(p, p + w->memory_size());
      }
    }
    idx = model_->AddOperand(std::move(o));
    var_to_operand_[var] = idx;
    return idx;
  }
  if (check_mode_) return AddModelInput(var);
  return FailedPrecondition(op.DebugName() + ": input var '" + var +
                            "' is neither produced in this subgraph nor a constant");
}

StatusOr<int> BridgeContext::InputOf(const OpLite& op, const std::string& param) {
  const auto& args = op.op_desc().Input(param);
  if (args.empty()) return InvalidArgument(op.DebugName() + ": missing input " + param);
  return Input(op, args.front());
}

StatusOr<int> BridgeContext::ConstantOf(const OpLite& op, const std::string& param) {
  const auto& args = op.op_desc().Input(param);
  if (args.empty()) return InvalidArgument(op.DebugName() + ": missing input " + param);
  if (!IsConstant(args.front())) {
    return Unimplemented(op.DebugName() + ": " + param + " '" + args.front() +
                         "' is not a constant");
  }
  return Input(op, args.front());
}

int BridgeContext::AddConstant(const std::string& name, const std::vector<int64_t>& dims,
                               std::vector<float> data) {
  Operand o;
  o.name = name;
  o.lifetime = Lifetime::kConstant;
  o.dims = dims;
  if (!check_mode_) {
    const auto* p = reinterpret_cast<const uint8_t*>(data.data());
    o.data.assign(p, p + data.size() * sizeof(float));
  }
  return model_->AddOperand(std::move(o));
}

int BridgeContext::Output(const std::string& var) {
  Operand o;
  o.name = var;
  o.lifetime = Lifetime::kTemporary;
  const Variable* v = scope_ ? scope_->FindVar(var) : nullptr;
  if (v) {
    o.dims = v->GetTensor().dims();
    if (v->GetTensor().dtype() != DataType::kUnknown) o.type = ToElementType(v->GetTensor().dtype());
  }
  int idx = model_->AddOperand(std::move(o));
  var_to_operand_[var] = idx;
  return idx;
}

StatusOr<int> BridgeContext::OutputOf(const OpLite& op, const std::string& param) {
  const auto& args = op.op_desc().Output(param);
  if (args.empty()) return InvalidArgument(op.DebugName() + ": missing output " + param);
  return Output(args.front());
}

int BridgeContext::AddTemporary(const std::string& name, const std::vector<int64_t>& dims,
                                ElementType type) {
  Operand o;
  o.name = name;
  o.lifetime = Lifetime::kTemporary;
  o.dims = dims;
  o.type = type;
  return model_->AddOperand(std::move(o));
}

void BridgeContext::AddOperation(const OpLite& op, OperationType type, std::vector<int> inputs,
                                 std::vector<int> outputs, std::map<std::string, AttrValue> attrs) {
  Operation operation;
  operation.type = type;
  operation.inputs = std::move(inputs);
  operation.outputs = std::move(outputs);
  operation.attrs = std::move(attrs);
  operation.origin = op.DebugName();
  model_->AddOperation(std::move(operation));
}

BridgeRegistry& BridgeRegistry::Global() {
  static BridgeRegistry* registry = new BridgeRegistry;
  return *registry;
}

bool BridgeRegistry::Register(const std::string& op_type, BridgeFn fn) {
  return bridges_.emplace(op_type, std::move(fn)).second;
}

const BridgeFn* BridgeRegistry::Find(const std::string& op_type) const {
  auto it = bridges_.find(op_type);
  return it == bridges_.end() ? nullptr : &it->second;
}

std::vector<std::string> BridgeRegistry::OpTypes() const {
  std::vector<std::string> out;
  for (const auto& kv : bridges_) out.push_back(kv.first);
  return out;
}

}  // namespace npu
}  // namespace lite
