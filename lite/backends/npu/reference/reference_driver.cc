#include "lite/backends/npu/reference/reference_driver.h"

#include <cstring>

#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {

namespace {

class ReferenceExecutable : public Executable {
 public:
  Model model;
  std::vector<std::vector<uint8_t>> temporaries;  // by operand index (empty if none)
};

}  // namespace

Status ReferenceDriver::Supports(const Model& model, const Operation& operation) const {
  const std::string signature = CheckOperationSignature(operation);
  if (!signature.empty()) {
    return InvalidArgument(std::string(OperationTypeName(operation.type)) + " from " +
                           operation.origin + ": " + signature);
  }
  return reference::CheckOperandTypes(model, operation);
}

namespace {
std::unique_ptr<Executable> MakeExecutable(Model model) {
  auto exe = std::make_unique<ReferenceExecutable>();
  exe->model = std::move(model);
  const Model& m = exe->model;
  exe->temporaries.resize(m.operands.size());
  for (size_t i = 0; i < m.operands.size(); ++i) {
    if (m.operands[i].lifetime == Lifetime::kTemporary) {
      exe->temporaries[i].resize(m.operands[i].numel() * ElementSize(m.operands[i].type));
    }
  }
  return exe;
}
}  // namespace

StatusOr<std::unique_ptr<Executable>> ReferenceDriver::Compile(const Model& model,
                                                               const CompileOptions&) {
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return InvalidArgument("invalid model: " + invalid);
  for (const Operation& op : model.operations) RETURN_IF_ERROR(Supports(model, op));
  return MakeExecutable(model);
}

StatusOr<std::vector<uint8_t>> ReferenceDriver::Serialize(const Executable& executable) const {
  const auto* exe = dynamic_cast<const ReferenceExecutable*>(&executable);
  if (!exe) return InvalidArgument("not an executable of the " + name() + " driver");
  return EncodeModel(exe->model, ConstantForm::kFull);
}

StatusOr<std::unique_ptr<Executable>> ReferenceDriver::Deserialize(
    const Model& model, const std::vector<uint8_t>& bytes, const CompileOptions&) {
  auto decoded = DecodeModel(bytes.data(), bytes.size());
  if (!decoded.ok()) return decoded.status().WithContext(name() + " deserialize");
  if (EncodeModel(*decoded, ConstantForm::kDigest) != EncodeModel(model, ConstantForm::kDigest)) {
    return FailedPrecondition(name() + " deserialize: the bytes hold another model");
  }
  for (const Operation& op : decoded->operations) RETURN_IF_ERROR(Supports(*decoded, op));
  return MakeExecutable(std::move(decoded).value());
}

Status ReferenceDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                                const std::vector<HostTensor>& outputs) {
  auto* exe = dynamic_cast<ReferenceExecutable*>(executable);
  if (!exe) return InvalidArgument("not an executable of the reference driver");
  const Model& m = exe->model;
  RETURN_IF_ERROR(CheckHostTensors(m, inputs, outputs));
  std::vector<void*> data(m.operands.size(), nullptr);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand& o = m.operands[i];
    if (o.lifetime == Lifetime::kConstant) data[i] = const_cast<uint8_t*>(o.data.data());
    if (o.lifetime == Lifetime::kTemporary) data[i] = exe->temporaries[i].data();
  }
  for (size_t i = 0; i < m.inputs.size(); ++i) data[m.inputs[i]] = inputs[i].data;
  for (size_t i = 0; i < m.outputs.size(); ++i) data[m.outputs[i]] = outputs[i].data;
  using namespace reference;  // NOLINT
  for (const Operation& op : m.operations) {
    std::vector<View> in;
    std::vector<const void*> raw;
    for (int idx : op.inputs) {
      in.push_back({static_cast<const float*>(data[idx]), m.operands[idx].dims});
      raw.push_back(data[idx]);
    }
    std::vector<MutableView> out;
    for (int idx : op.outputs) out.push_back({static_cast<float*>(data[idx]), m.operands[idx].dims});
    if (in.empty() || out.empty()) return InvalidArgument(op.origin + ": no inputs or outputs");
    const bool quantized = m.operands[op.inputs[0]].type == ElementType::kInt8;
    Status s;
    switch (op.type) {
      case OperationType::kQuantize: {
        const Operand& y = m.operands[op.outputs[0]];
        RunQuantize(op, in[0].data, y.numel(), y.quant, static_cast<int8_t*>(data[op.outputs[0]]));
        break;
      }
      case OperationType::kConv2D:
        s = quantized ? RunQuantizedConvolution(m, op, raw, data[op.outputs[0]])
                      : RunConvolution(op, in, out[0]);
        break;
      case OperationType::kFullyConnected:
        s = quantized ? RunQuantizedFullyConnected(m, op, raw, data[op.outputs[0]])
                      : RunFullyConnected(in, out[0]);
        break;
      case OperationType::kConv2DTranspose: s = RunConvolution(op, in, out[0]); break;
      case OperationType::kPool2D: s = RunPool(op, in[0], out[0]); break;
      case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
      case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin:
      case OperationType::kPRelu:
        if (in.size() != 2) return InvalidArgument(op.origin + ": two inputs expected");
        s = RunBinary(op.type, in[0], in[1], out[0]);
        break;
      case OperationType::kSoftmax: s = RunSoftmax(op, in[0], out[0]); break;
      case OperationType::kReshape:
        std::memcpy(data[op.outputs[0]], data[op.inputs[0]],
                    m.operands[op.inputs[0]].numel() * ElementSize(m.operands[op.inputs[0]].type));
        break;
      case OperationType::kTranspose: s = RunTranspose(op, in[0], out[0]); break;
      case OperationType::kConcat: s = RunConcat(op, in, out[0]); break;
      case OperationType::kSplit: s = RunSplit(op, in[0], out); break;
      case OperationType::kSlice: s = RunSlice(op, in[0], out[0]); break;
      case OperationType::kPad: s = RunPad(op, in[0], out[0]); break;
      case OperationType::kResizeNearest:
      case OperationType::kResizeBilinear: s = RunResize(op, in[0], out[0]); break;
      case OperationType::kBatchNorm:
        if (in.size() != 5) return InvalidArgument(op.origin + ": five inputs expected");
        s = RunBatchNorm(op, in, out[0]);
        break;
      default: s = RunUnary(op, in[0], out[0]); break;
    }
    if (!s.ok()) return s.WithContext(std::string(OperationTypeName(op.type)) + " from " + op.origin);
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite

REGISTER_NPU_DRIVER(reference, lite::npu::ReferenceDriver);
