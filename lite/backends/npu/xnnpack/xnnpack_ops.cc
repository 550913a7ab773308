#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

#include <cstring>

namespace lite {
namespace npu {

Status OpNode::Run(const OpEnv& env) {
  for (const XnnOperatorPtr& o : ops_) {
    RETURN_IF_ERROR(XnnCheck(xnn_run_operator(o.get(), env.pool), env.op, "xnn_run_operator"));
  }
  return Status::OK();
}

void OpNode::Key(double v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  key_.append(bytes, sizeof v);
}

void OpNode::KeySizes(const std::vector<size_t>& v) {
  Key(static_cast<double>(v.size()));
  for (size_t x : v) Key(static_cast<double>(x));
}

Status OpNode::Keep(xnn_status s, xnn_operator_t* created, const char* call) {
  if (s != xnn_status_success) {
    return Internal(std::string("xnnpack: ") + call + " failed (xnn_status " +
                    std::to_string(static_cast<int>(s)) + ")");
  }
  ops_.emplace_back(*created);
  return Status::OK();
}

size_t Numel(const std::vector<int64_t>& d) {
  size_t n = 1;
  for (int64_t v : d) n *= static_cast<size_t>(v);
  return n;
}

bool TakesOutputBounds(const Operation& op) {
  switch (op.type) {
    case OperationType::kConv2D: case OperationType::kConv2DTranspose:
    case OperationType::kPool2D: case OperationType::kFullyConnected:
    case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
    case OperationType::kDiv:
      return true;
    default:
      return false;
  }
}

NodeOrWhy MakeOpNode(const Model& model, const Operation& op, float lo, float hi) {
  switch (op.type) {
    case OperationType::kConv2D: case OperationType::kConv2DTranspose:
    case OperationType::kFullyConnected:
      return MakeDenseNode(model, op, lo, hi);
    case OperationType::kPool2D:
      return MakePoolNode(model, op, lo, hi);
    case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
    case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin:
    case OperationType::kBatchNorm: case OperationType::kScale:
    case OperationType::kHardSigmoid:
      return MakeBinaryNode(model, op, lo, hi);
    case OperationType::kRelu: case OperationType::kRelu6: case OperationType::kClip:
    case OperationType::kLeakyRelu: case OperationType::kSigmoid: case OperationType::kAbs:
    case OperationType::kHardSwish: case OperationType::kTanh: case OperationType::kSwish:
    case OperationType::kPRelu: case OperationType::kSoftmax:
      return MakeUnaryNode(model, op);
    case OperationType::kReshape: case OperationType::kPad:
    case OperationType::kResizeBilinear: case OperationType::kConcat:
    case OperationType::kResizeNearest:
      return MakeShapeNode(model, op);
    default:
      return Unimplemented(std::string(OperationTypeName(op.type)) + " from " + op.origin +
                           " has no operator form");
  }
}

}  // namespace npu
}  // namespace lite
