#include "lite/backends/npu/reference/reference_driver.h"

#include "lite/backends/npu/nn_ir_codec.h"
#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {

namespace {

class ReferenceExecutable : public Executable {
 public:
  Model model;
  std::vector<std::vector<float>> temporaries;  // by operand index (empty if none)
};

}  // namespace

Status ReferenceDriver::Supports(const Model& model, const Operation& operation) const {
  for (const auto* list : {&operation.inputs, &operation.outputs}) {
    for (int idx : *list) {
      const Operand& o = model.operands[idx];
      if (o.type != ElementType::kFloat32) {
        return Unimplemented(std::string(OperationTypeName(operation.type)) + " on " +
                             ElementTypeName(o.type) + " operand " + o.name +
                             ": only float32 is supported");
      }
    }
  }
  return Status::OK();
}

namespace {
std::unique_ptr<Executable> MakeExecutable(Model model) {
  auto exe = std::make_unique<ReferenceExecutable>();
  exe->model = std::move(model);
  const Model& m = exe->model;
  exe->temporaries.resize(m.operands.size());
  for (size_t i = 0; i < m.operands.size(); ++i) {
    if (m.operands[i].lifetime == Lifetime::kTemporary) {
      exe->temporaries[i].resize(m.operands[i].numel());
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
  std::vector<float*> data(m.operands.size(), nullptr);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand& o = m.operands[i];
    if (o.lifetime == Lifetime::kConstant) data[i] = const_cast<float*>(o.f32());
    if (o.lifetime == Lifetime::kTemporary) data[i] = exe->temporaries[i].data();
  }
  for (size_t i = 0; i < m.inputs.size(); ++i) data[m.inputs[i]] = static_cast<float*>(inputs[i].data);
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    data[m.outputs[i]] = static_cast<float*>(outputs[i].data);
  }
  using namespace reference;  // NOLINT
  for (const Operation& op : m.operations) {
    std::vector<View> in;
    for (int idx : op.inputs) in.push_back({data[idx], m.operands[idx].dims});
    std::vector<MutableView> out;
    for (int idx : op.outputs) out.push_back({data[idx], m.operands[idx].dims});
    if (in.empty() || out.empty()) return InvalidArgument(op.origin + ": no inputs or outputs");
    Status s;
    switch (op.type) {
      case OperationType::kConv2D:
      case OperationType::kConv2DTranspose: s = RunConvolution(op, in, out[0]); break;
      case OperationType::kPool2D: s = RunPool(op, in[0], out[0]); break;
      case OperationType::kFullyConnected: s = RunFullyConnected(in, out[0]); break;
      case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
      case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin:
      case OperationType::kPRelu:
        if (in.size() != 2) return InvalidArgument(op.origin + ": two inputs expected");
        s = RunBinary(op.type, in[0], in[1], out[0]);
        break;
      case OperationType::kSoftmax: s = RunSoftmax(op, in[0], out[0]); break;
      case OperationType::kReshape:
        std::copy(in[0].data, in[0].data + m.operands[op.inputs[0]].numel(), out[0].data);
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
