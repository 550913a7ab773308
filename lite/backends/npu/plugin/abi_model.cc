#include "lite/backends/npu/plugin/abi_model.h"

#include <type_traits>

namespace lite {
namespace npu {

// The ABI enums carry nn_ir.h's values: every row of the operation table
// (nn_ir_operations.h) has its LITE_NPU_OP_<suffix> constant with the same
// value, so a new operation cannot be added to one side only.
#define LITE_NPU_ABI_MATCHES(e, abi, name, in_min, in_max, out_min, out_max, attrs) \
  static_assert(LITE_NPU_OP_##abi == static_cast<int>(OperationType::e),          \
                "ABI value of " name " differs from nn_ir.h");
LITE_NPU_OPERATIONS(LITE_NPU_ABI_MATCHES)
#undef LITE_NPU_ABI_MATCHES
static_assert(LITE_NPU_OP_COUNT == kNumOperationTypes, "ABI and NN IR operation types differ");
static_assert(LITE_NPU_INT8 == static_cast<int>(ElementType::kInt8), "");
static_assert(LITE_NPU_QUANT_PER_CHANNEL == static_cast<int>(Quantization::kPerChannel), "");
static_assert(LITE_NPU_TEMPORARY == static_cast<int>(Lifetime::kTemporary), "");
static_assert(LITE_NPU_ATTR_FLOATS == static_cast<int>(AttrKind::kFloats), "");

namespace {

lite_npu_attr ToAbi(const std::string& name, const AttrValue& value) {
  lite_npu_attr a{};
  a.name = name.c_str();
  if (const auto* i = std::get_if<int64_t>(&value)) {
    a.kind = LITE_NPU_ATTR_INT;
    a.int_value = *i;
  } else if (const auto* f = std::get_if<float>(&value)) {
    a.kind = LITE_NPU_ATTR_FLOAT;
    a.float_value = *f;
  } else if (const auto* is = std::get_if<std::vector<int64_t>>(&value)) {
    a.kind = LITE_NPU_ATTR_INTS;
    a.ints = is->data();
    a.count = is->size();
  } else {
    const auto& fs = std::get<std::vector<float>>(value);
    a.kind = LITE_NPU_ATTR_FLOATS;
    a.floats = fs.data();
    a.count = fs.size();
  }
  return a;
}

}  // namespace

AbiModel::AbiModel(const Model& model) {
  for (const Operand& o : model.operands) {
    lite_npu_operand a{};
    a.type = static_cast<int32_t>(o.type);
    a.lifetime = static_cast<int32_t>(o.lifetime);
    a.dims = o.dims.data();
    a.rank = o.dims.size();
    a.data = o.data.empty() ? nullptr : o.data.data();
    a.data_bytes = o.data.size();
    a.name = o.name.c_str();
    operands_.push_back(a);
    lite_npu_quantization q{};
    q.kind = static_cast<int32_t>(o.quant.kind);
    q.scales = o.quant.scales.empty() ? nullptr : o.quant.scales.data();
    q.scale_count = o.quant.scales.size();
    q.zero_point = o.quant.zero_point;
    q.axis = o.quant.axis;
    quantizations_.push_back(q);
  }
  // Fill the owned arrays first: the structs below point into them.
  for (const Operation& op : model.operations) {
    std::vector<int32_t> idx(op.inputs.begin(), op.inputs.end());
    idx.insert(idx.end(), op.outputs.begin(), op.outputs.end());
    indices_.push_back(std::move(idx));
    std::vector<lite_npu_attr> attrs;
    for (const auto& kv : op.attrs) attrs.push_back(ToAbi(kv.first, kv.second));  // sorted
    attrs_.push_back(std::move(attrs));
  }
  for (size_t i = 0; i < model.operations.size(); ++i) {
    const Operation& op = model.operations[i];
    lite_npu_operation a{};
    a.type = static_cast<int32_t>(op.type);
    a.inputs = indices_[i].data();
    a.input_count = op.inputs.size();
    a.outputs = indices_[i].data() + op.inputs.size();
    a.output_count = op.outputs.size();
    a.attrs = attrs_[i].data();
    a.attr_count = attrs_[i].size();
    a.origin = op.origin.c_str();
    operations_.push_back(a);
  }
  inputs_.assign(model.inputs.begin(), model.inputs.end());
  outputs_.assign(model.outputs.begin(), model.outputs.end());
  abi_.operands = operands_.data();
  abi_.operand_count = operands_.size();
  abi_.operations = operations_.data();
  abi_.operation_count = operations_.size();
  abi_.inputs = inputs_.data();
  abi_.input_count = inputs_.size();
  abi_.outputs = outputs_.data();
  abi_.output_count = outputs_.size();
  abi_.quantizations = quantizations_.data();
  abi_.quantization_count = quantizations_.size();
}

}  // namespace npu
}  // namespace lite
