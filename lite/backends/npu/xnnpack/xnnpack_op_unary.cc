// Operator-path nodes for one-input operations: relu / relu6 / clip
// (clamp), leaky_relu, sigmoid, abs, hard_swish, prelu (per channel),
// softmax (over the stored last axis: the channel of a 4-D tensor) and the
// exact compositions tanh = 2 * sigmoid(2x) - 1 and swish = x *
// sigmoid(beta * x), whose later steps work in place on the output. An
// elementwise operator is created for one channel and set up for all
// elements as one contiguous row, so it fits every size.
#include <xnnpack.h>

#include <limits>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

enum class Kind { kClamp, kLeaky, kSigmoid, kAbs, kHardSwish, kPRelu, kSoftmax, kMulScalar,
                  kAddScalar, kMulInput };

// One step: reads the operation's input (from_input) or the output so far;
// kMulInput multiplies the output so far by the input.
struct Step {
  Kind kind;
  bool from_input;
  float a = 0, b = 0;  // clamp bounds, leaky slope, the scalar (a)
  float lo = -kInf, hi = kInf;  // kAddScalar's output bounds
};

class UnaryNode : public OpNode {
 public:
  UnaryNode(size_t channels, std::vector<float> slopes)
      : channels_(channels), slopes_(std::move(slopes)) {
    Key("unary");
    KeySizes({channels_});
    KeySizes({slopes_.size()});
  }
  void Add(Kind kind, bool from_input, float a = 0, float b = 0, float lo = -kInf,
           float hi = kInf) {
    Key(double(kind)), Key(double(from_input)), Key(a), Key(b), Key(lo), Key(hi);
    steps_.push_back({kind, from_input, a, b, lo, hi});
    scalars_.push_back(a);
  }
  Status Create(const Model&) override {
    const size_t c = channels_;
    for (const Step& s : steps_) {
      xnn_operator_t op = nullptr;
      xnn_status st;
      switch (s.kind) {
        case Kind::kClamp: st = xnn_create_clamp_nc_f32(1, 1, 1, s.a, s.b, 0, &op); break;
        case Kind::kLeaky: st = xnn_create_leaky_relu_nc_f32(1, 1, 1, s.a, 0, &op); break;
        case Kind::kSigmoid: st = xnn_create_sigmoid_nc_f32(1, 1, 1, 0, &op); break;
        case Kind::kAbs: st = xnn_create_abs_nc_f32(1, 1, 1, 0, &op); break;
        case Kind::kHardSwish: st = xnn_create_hardswish_nc_f32(1, 1, 1, 0, &op); break;
        case Kind::kPRelu: st = xnn_create_prelu_nc_f32(c, c, c, slopes_.data(), 0, &op); break;
        case Kind::kSoftmax: st = xnn_create_softmax_nc_f32(c, c, c, 0, &op); break;
        case Kind::kMulScalar: case Kind::kMulInput:
          st = xnn_create_multiply_nd_f32(-kInf, kInf, 0, &op);
          break;
        default: st = xnn_create_add_nd_f32(s.lo, s.hi, 0, &op); break;
      }
      RETURN_IF_ERROR(Keep(st, &op, "xnn_create (unary)"));
    }
    return Status::OK();
  }
  Status Setup(const OpEnv& e) override {
    const size_t n = Numel(e.model.operands[e.out].dims);
    const float* x = e.buffer(e.op.inputs[0]);
    float* y = e.buffer(e.out);
    const size_t one = 1;
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& s = steps_[i];
      const float* in = s.from_input ? x : y;
      xnn_status st;
      switch (s.kind) {
        case Kind::kClamp: st = xnn_setup_clamp_nc_f32(op(i), n, in, y, e.pool); break;
        case Kind::kLeaky: st = xnn_setup_leaky_relu_nc_f32(op(i), n, in, y, e.pool); break;
        case Kind::kSigmoid: st = xnn_setup_sigmoid_nc_f32(op(i), n, in, y, e.pool); break;
        case Kind::kAbs: st = xnn_setup_abs_nc_f32(op(i), n, in, y, e.pool); break;
        case Kind::kHardSwish: st = xnn_setup_hardswish_nc_f32(op(i), n, in, y, e.pool); break;
        case Kind::kPRelu:
          st = xnn_setup_prelu_nc_f32(op(i), n / channels_, in, y, e.pool);
          break;
        case Kind::kSoftmax:
          st = xnn_setup_softmax_nc_f32(op(i), n / channels_, in, y, e.pool);
          break;
        case Kind::kMulInput:
          st = xnn_setup_multiply_nd_f32(op(i), 1, &n, 1, &n, x, y, y, e.pool);
          break;
        case Kind::kMulScalar:
          st = xnn_setup_multiply_nd_f32(op(i), 1, &n, 1, &one, in, &scalars_[i], y, e.pool);
          break;
        default:
          st = xnn_setup_add_nd_f32(op(i), 1, &n, 1, &one, in, &scalars_[i], y, e.pool);
          break;
      }
      RETURN_IF_ERROR(XnnCheck(st, e.op, "xnn_setup (unary)"));
    }
    return Status::OK();
  }

 private:
  size_t channels_;
  std::vector<float> slopes_;
  std::vector<Step> steps_;
  std::vector<float> scalars_;  // step i's a: the scalar operand of kMul/kAddScalar
};

}  // namespace

NodeOrWhy MakeUnaryNode(const Model& m, const Operation& op) {
  const auto& xd = m.operands[op.inputs[0]].dims;
  size_t channels = 1;
  std::vector<float> slopes;
  if (op.type == OperationType::kSoftmax) channels = size_t(xd.size() == 4 ? xd[1] : xd.back());
  if (op.type == OperationType::kPRelu) {
    const Operand& a = m.operands[op.inputs[1]];
    if (a.lifetime != Lifetime::kConstant) {
      return Unimplemented("prelu from " + op.origin + " with a non-constant alpha");
    }
    channels = size_t(xd[1]);
    slopes.assign(channels, a.f32()[0]);
    if (a.numel() == int64_t(channels)) slopes.assign(a.f32(), a.f32() + channels);
  }
  auto node = std::make_unique<UnaryNode>(channels, std::move(slopes));
  switch (op.type) {
    case OperationType::kRelu: node->Add(Kind::kClamp, true, 0.f, kInf); break;
    case OperationType::kRelu6: node->Add(Kind::kClamp, true, 0.f, 6.f); break;
    case OperationType::kClip:
      node->Add(Kind::kClamp, true, op.Float("min"), op.Float("max"));
      break;
    case OperationType::kLeakyRelu: node->Add(Kind::kLeaky, true, op.Float("alpha")); break;
    case OperationType::kSigmoid: node->Add(Kind::kSigmoid, true); break;
    case OperationType::kAbs: node->Add(Kind::kAbs, true); break;
    case OperationType::kHardSwish: node->Add(Kind::kHardSwish, true); break;
    case OperationType::kPRelu: node->Add(Kind::kPRelu, true); break;
    case OperationType::kSoftmax: node->Add(Kind::kSoftmax, true); break;
    case OperationType::kTanh:  // 2 * sigmoid(2x) - 1, clamped to [-1, 1]
      node->Add(Kind::kMulScalar, true, 2.f);
      node->Add(Kind::kSigmoid, false);
      node->Add(Kind::kMulScalar, false, 2.f);
      node->Add(Kind::kAddScalar, false, -1.f, 0.f, -1.f, 1.f);
      break;
    default: {  // swish: x * sigmoid(beta * x)
      const float beta = op.Float("beta", 1.f);
      if (beta != 1.f) node->Add(Kind::kMulScalar, true, beta);
      node->Add(Kind::kSigmoid, beta == 1.f);
      node->Add(Kind::kMulInput, false);
      break;
    }
  }
  return std::unique_ptr<OpNode>(std::move(node));
}

}  // namespace npu
}  // namespace lite
