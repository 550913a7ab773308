// What the xnnpack driver can run exactly, and why not otherwise. Dims may
// hold -1 in check mode: rules that need a dim accept an unknown one and
// leave it to Compile, which applies the same rules with every dim known.
#include <cmath>

#include "lite/backends/npu/reference/reference_ops.h"
#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

namespace lite {
namespace npu {

namespace {

Status No(const Operation& op, const std::string& why) {
  return Unimplemented(std::string(OperationTypeName(op.type)) + " " + why);
}

}  // namespace

Status XnnpackSupports(const Model& model, const Operation& op) {
  const std::string signature = CheckOperationSignature(op);
  if (!signature.empty()) return No(op, "from " + op.origin + ": " + signature);
  auto dims = [&](int idx) -> const std::vector<int64_t>& { return model.operands[idx].dims; };
  // The NN IR's type rules (float32; int8 for quantize and quantized
  // conv2d / fully_connected), as the reference driver states them.
  Status types = reference::CheckOperandTypes(model, op);
  if (!types.ok()) return No(op, "from " + op.origin + ": " + types.message());
  for (const auto* list : {&op.inputs, &op.outputs}) {
    for (int idx : *list) {
      if (dims(idx).size() > 6) return No(op, "on a tensor of rank > 6");
    }
  }
  if (op.type == OperationType::kFullyConnected &&
      model.operands[op.outputs[0]].type == ElementType::kInt8 &&
      model.operands[op.inputs[1]].quant.kind == Quantization::kPerChannel) {
    return No(op, "with per-channel int8 weights and an int8 output (XNNPACK 2022 has no "
                  "per-channel int8 fully connected)");
  }

  const auto& x = dims(op.inputs.at(0));
  switch (op.type) {
    case OperationType::kConv2D:
    case OperationType::kConv2DTranspose:
      if (op.type == OperationType::kConv2DTranspose && op.Int("groups", 1) != 1) {
        // Grouped deconvolution maps too, but is untested here.
        return No(op, "with groups " + std::to_string(op.Int("groups", 1)));
      }
      return Status::OK();
    case OperationType::kPool2D: {
      if (op.Int("pool_type") == 0) return Status::OK();  // max: padding never counts
      auto pads = op.Ints("paddings");
      bool padded = false;
      for (int64_t p : pads) padded |= p != 0;
      if (padded && op.Int("exclusive", 1) == 0) {
        return No(op, "average with padding and exclusive=false (XNNPACK excludes padding)");
      }
      return Status::OK();
    }
    case OperationType::kFullyConnected:
    case OperationType::kQuantize:
      return Status::OK();
    case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
    case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin: {
      const auto& y = dims(op.inputs[1]);
      const bool x_const = model.operands[op.inputs[0]].lifetime == Lifetime::kConstant;
      const bool y_const = model.operands[op.inputs[1]].lifetime == Lifetime::kConstant;
      const auto& out = dims(op.outputs[0]);
      if (out.size() == 4 && ((x.size() != 4 && !x_const) || (y.size() != 4 && !y_const))) {
        return No(op, "broadcasting a non-constant lower-rank tensor against a 4-D one");
      }
      return Status::OK();
    }
    case OperationType::kRelu: case OperationType::kRelu6: case OperationType::kClip:
    case OperationType::kLeakyRelu: case OperationType::kSigmoid: case OperationType::kAbs:
    case OperationType::kScale: case OperationType::kHardSigmoid: case OperationType::kSwish:
    case OperationType::kTanh:
      return Status::OK();
    case OperationType::kHardSwish:
      if (op.Float("threshold") != 6.f || op.Float("scale") != 6.f || op.Float("offset") != 3.f) {
        return No(op, "with threshold/scale/offset other than 6/6/3");
      }
      return Status::OK();
    case OperationType::kPRelu:
      if (x.size() != 4) return No(op, "on a " + std::to_string(x.size()) + "-D input");
      if (dims(op.inputs[1]).size() > 1 && model.operands[op.inputs[1]].numel() != 1 &&
          !(dims(op.inputs[1]).size() == 3 && dims(op.inputs[1])[1] == 1 &&
            dims(op.inputs[1])[2] == 1)) {
        return No(op, "with per-element alpha");
      }
      return Status::OK();
    case OperationType::kSoftmax: {
      const int64_t axis = op.Int("axis");
      const int64_t last = x.size() == 4 ? 1 : static_cast<int64_t>(x.size()) - 1;
      if (axis != last) return No(op, "along axis " + std::to_string(axis) + " (only the channel or last axis)");
      return Status::OK();
    }
    case OperationType::kReshape:
      // XNNPACK's static reshape where the NHWC storage keeps the NCHW
      // element order, the driver's reordering kernel otherwise.
      return Status::OK();
    case OperationType::kPad:
      if (op.Int("mode") != 0) return No(op, "in reflect/edge mode (constant padding only)");
      return Status::OK();
    case OperationType::kResizeBilinear:
      return Status::OK();  // ratios checked at compile time
    case OperationType::kConcat:
    case OperationType::kResizeNearest:
      return Status::OK();  // the driver's own NHWC kernels between runtimes
    case OperationType::kBatchNorm:
      if (x.size() != 4) return No(op, "on a " + std::to_string(x.size()) + "-D input");
      return Status::OK();
    default:
      return No(op, "has no XNNPACK node in this build");
  }
}

}  // namespace npu
}  // namespace lite
