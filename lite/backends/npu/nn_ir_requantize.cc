#include "lite/backends/npu/nn_ir_requantize.h"

#include <algorithm>
#include <cmath>

namespace lite {
namespace npu {

namespace {

// Indices of the operations reading operand `o`.
std::vector<size_t> Readers(const Model& model, int o) {
  std::vector<size_t> readers;
  for (size_t k = 0; k < model.operations.size(); ++k) {
    const auto& in = model.operations[k].inputs;
    if (std::find(in.begin(), in.end(), o) != in.end()) readers.push_back(k);
  }
  return readers;
}

// The only reader of temporary float operand `o` when it has type `type`.
int SoleReaderOfType(const Model& model, int o, OperationType type) {
  const Operand& operand = model.operands[o];
  if (operand.lifetime != Lifetime::kTemporary || operand.type != ElementType::kFloat32) return -1;
  const std::vector<size_t> readers = Readers(model, o);
  if (readers.size() != 1 || model.operations[readers[0]].type != type) return -1;
  return static_cast<int>(readers[0]);
}

// The int8 quantization of the conv output feeding hard_swish `hs` whose
// output the quantize `q` reads, or kNone when hard_swish is not of the
// form x * clip(x + offset, 0, t) / t.
Quantization OutputQuantization(const Operation& hs, const Operand& quantized) {
  Quantization none;
  const float t = hs.Float("threshold", 6.f), scale = hs.Float("scale", 6.f);
  const float offset = hs.Float("offset", 3.f);
  const Quantization& q = quantized.quant;
  if (t != scale || !(t > 0.f) || !(offset >= 0.f) || q.kind != Quantization::kPerTensor ||
      q.zero_point != 0) {
    return none;
  }
  const float lo = -offset;
  const float hi = std::max(127.f * q.scales[0], t - offset);
  if (!(hi > lo) || !std::isfinite(hi)) return none;
  Quantization out;
  out.kind = Quantization::kPerTensor;
  out.scales = {(hi - lo) / 255.f};
  out.zero_point = static_cast<int32_t>(std::lround(-128.f - lo / out.scales[0]));
  return out;
}

}  // namespace

int RequantizeConvsBeforeHardSwish(Model* model) {
  int count = 0;
  for (size_t i = 0; i < model->operations.size(); ++i) {
    const Operation& conv = model->operations[i];
    if (conv.type != OperationType::kConv2D ||
        model->operands[conv.inputs[0]].type != ElementType::kInt8) {
      continue;
    }
    const int out = conv.outputs[0];
    const int hs = SoleReaderOfType(*model, out, OperationType::kHardSwish);
    if (hs < 0) continue;
    const int q = SoleReaderOfType(*model, model->operations[hs].outputs[0],
                                   OperationType::kQuantize);
    if (q < 0) continue;
    const Operand& quantized = model->operands[model->operations[q].outputs[0]];
    Quantization quant = OutputQuantization(model->operations[hs], quantized);
    if (quant.kind == Quantization::kNone) continue;
    Operand levels;
    levels.type = ElementType::kInt8;
    levels.quant = std::move(quant);
    levels.dims = model->operands[out].dims;
    levels.name = model->operands[out].name + "/int8";
    const int levels_index = model->AddOperand(std::move(levels));
    Operation dequantize;
    dequantize.type = OperationType::kDequantize;
    dequantize.inputs = {levels_index};
    dequantize.outputs = {out};
    dequantize.origin = model->operations[i].origin;
    model->operations[i].outputs[0] = levels_index;
    model->operations.insert(model->operations.begin() + i + 1, std::move(dequantize));
    ++count;
  }
  return count;
}

}  // namespace npu
}  // namespace lite
