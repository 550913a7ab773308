// What the ccodegen driver generates, and why not otherwise. In check mode
// dims may hold -1 or be empty and the bridge may not have flattened fc
// inputs yet, so rules here use element types and operation types only;
// GenerateC checks ranks and shapes with every dim known.
#include "lite/backends/npu/ccodegen/ccodegen_emit.h"

namespace lite {
namespace npu {

namespace {

Status No(const Operation& op, const std::string& why) {
  return Unimplemented(std::string(OperationTypeName(op.type)) + " " + why);
}

constexpr size_t kMaxRank = 6;  // CCG_MAX_RANK of ccodegen_kernels.h

}  // namespace

Status CcodegenSupports(const Model& model, const Operation& op) {
  if (op.inputs.empty() || op.outputs.empty()) return No(op, "without inputs or outputs");
  for (const auto* list : {&op.inputs, &op.outputs}) {
    for (int idx : *list) {
      const Operand& o = model.operands[idx];
      if (o.type != ElementType::kFloat32) {
        return No(op, std::string("on ") + ElementTypeName(o.type) + " operand " + o.name +
                          " (ccodegen generates float32 only)");
      }
      if (o.dims.size() > kMaxRank) return No(op, "on a tensor of rank > 6");
    }
  }
  switch (op.type) {
    case OperationType::kConv2D:
    case OperationType::kConv2DTranspose:
    case OperationType::kPool2D:
    case OperationType::kFullyConnected:
    case OperationType::kResizeNearest:
    case OperationType::kResizeBilinear:
      return Status::OK();
    case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
    case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin:
    case OperationType::kPRelu:
      if (op.inputs.size() != 2) return No(op, "with other than two inputs");
      return Status::OK();
    case OperationType::kBatchNorm:
      if (op.inputs.size() != 5) return No(op, "without x and four [C] constants");
      return Status::OK();
    case OperationType::kRelu: case OperationType::kRelu6: case OperationType::kLeakyRelu:
    case OperationType::kSigmoid: case OperationType::kTanh: case OperationType::kSwish:
    case OperationType::kHardSwish: case OperationType::kHardSigmoid: case OperationType::kClip:
    case OperationType::kScale: case OperationType::kExp: case OperationType::kAbs:
    case OperationType::kSoftmax: case OperationType::kReshape: case OperationType::kTranspose:
    case OperationType::kConcat: case OperationType::kSplit: case OperationType::kSlice:
    case OperationType::kPad:
      return Status::OK();
    case OperationType::kQuantize:  // levels out: the operand check above declines it first
      return No(op, "writes levels (ccodegen generates float32 only)");
  }
  return No(op, "is unknown to ccodegen");
}

}  // namespace npu
}  // namespace lite
