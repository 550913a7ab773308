// Operator-path elementwise nodes: add / sub / mul / div / max / min with
// numpy broadcasting (XNNPACK's *_nd operators take both shapes at setup),
// and the exact compositions batch_norm (x * k + b per channel), scale
// (x * scale + bias) and hard_sigmoid (clamped to [0, 1]); a composition's
// second step works in place on the output. Constant inputs are the node's
// own NHWC copies, made once when the node is made.
#include <xnnpack.h>

#include <cmath>
#include <limits>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// One input of a step: an operand's buffer, one of the node's constants, or
// the node's output (a composition's earlier result).
struct Arg {
  int operand = -1;
  int constant = -1;
};
struct Step {
  OperationType kind;
  float lo, hi;
  Arg a, b;
};

class BinaryNode : public OpNode {
 public:
  int AddConstant(std::vector<float> data, std::vector<size_t> shape) {
    KeySizes(shape);
    constants_.push_back({std::move(data), std::move(shape)});
    return int(constants_.size()) - 1;
  }
  void AddStep(OperationType kind, float lo, float hi, Arg a, Arg b) {
    Key(double(kind)), Key(lo), Key(hi);
    Key(double(a.operand >= 0)), Key(double(a.constant)), Key(double(b.operand >= 0)),
        Key(double(b.constant));
    steps_.push_back({kind, lo, hi, a, b});
  }
  Status Create(const Model&) override {
    for (const Step& s : steps_) {
      xnn_operator_t op = nullptr;
      xnn_status st;
      switch (s.kind) {
        case OperationType::kAdd: st = xnn_create_add_nd_f32(s.lo, s.hi, 0, &op); break;
        case OperationType::kSub: st = xnn_create_subtract_nd_f32(s.lo, s.hi, 0, &op); break;
        case OperationType::kMul: st = xnn_create_multiply_nd_f32(s.lo, s.hi, 0, &op); break;
        case OperationType::kDiv: st = xnn_create_divide_nd_f32(s.lo, s.hi, 0, &op); break;
        case OperationType::kMax: st = xnn_create_maximum_nd_f32(0, &op); break;
        default: st = xnn_create_minimum_nd_f32(0, &op); break;
      }
      RETURN_IF_ERROR(Keep(st, &op, "xnn_create_*_nd_f32"));
    }
    return Status::OK();
  }
  Status Setup(const OpEnv& e) override {
    const std::vector<size_t> out_shape = XnnDims(e.model.operands[e.out].dims);
    float* out = e.buffer(e.out);
    auto shape = [&](const Arg& a) {
      if (a.constant >= 0) return constants_[a.constant].shape;
      if (a.operand >= 0) return XnnDims(e.model.operands[a.operand].dims);
      return out_shape;
    };
    auto data = [&](const Arg& a) -> const float* {
      if (a.constant >= 0) return constants_[a.constant].data.data();
      if (a.operand >= 0) return e.buffer(a.operand);
      return out;
    };
    using SetupFn = xnn_status (*)(xnn_operator_t, size_t, const size_t*, size_t, const size_t*,
                                   const float*, const float*, float*, pthreadpool_t);
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& s = steps_[i];
      const auto sa = shape(s.a), sb = shape(s.b);
      SetupFn setup = xnn_setup_minimum_nd_f32;
      switch (s.kind) {
        case OperationType::kAdd: setup = xnn_setup_add_nd_f32; break;
        case OperationType::kSub: setup = xnn_setup_subtract_nd_f32; break;
        case OperationType::kMul: setup = xnn_setup_multiply_nd_f32; break;
        case OperationType::kDiv: setup = xnn_setup_divide_nd_f32; break;
        case OperationType::kMax: setup = xnn_setup_maximum_nd_f32; break;
        default: break;
      }
      RETURN_IF_ERROR(XnnCheck(setup(op(i), sa.size(), sa.data(), sb.size(), sb.data(), data(s.a),
                                     data(s.b), out, e.pool),
                               e.op, "xnn_setup_*_nd_f32"));
    }
    return Status::OK();
  }

 private:
  struct Constant {
    std::vector<float> data;
    std::vector<size_t> shape;
  };
  std::vector<Constant> constants_;
  std::vector<Step> steps_;
};

// Constant operand `idx` as seen by an output of rank `out_rank`: a 4-D
// output broadcasts it right-aligned in NCHW, so it is expanded to rank 4
// and stored NHWC.
Arg ConstantArg(const Model& m, int idx, size_t out_rank, BinaryNode* node) {
  const Operand& o = m.operands[idx];
  std::vector<int64_t> d = o.dims;
  Arg a;
  if (out_rank != 4) {
    a.constant = node->AddConstant(std::vector<float>(o.f32(), o.f32() + o.numel()), XnnDims(d));
    return a;
  }
  while (d.size() < 4) d.insert(d.begin(), 1);
  a.constant = node->AddConstant(NhwcData(o.f32(), d), XnnDims(d));
  return a;
}

Arg Scalar(float v, BinaryNode* node) {
  Arg a;
  a.constant = node->AddConstant({v}, {1});
  return a;
}

}  // namespace

NodeOrWhy MakeBinaryNode(const Model& m, const Operation& op, float lo, float hi) {
  auto node = std::make_unique<BinaryNode>();
  const size_t out_rank = m.operands[op.outputs[0]].dims.size();
  auto input = [&](int i) {
    Arg a;
    const int idx = op.inputs[i];
    if (m.operands[idx].lifetime == Lifetime::kConstant) return ConstantArg(m, idx, out_rank, node.get());
    a.operand = idx;
    return a;
  };
  const Arg out;  // the node's own output
  switch (op.type) {
    case OperationType::kScale:
    case OperationType::kHardSigmoid: {
      const bool hs = op.type == OperationType::kHardSigmoid;
      const float a = hs ? op.Float("slope") : op.Float("scale");
      const float b = hs ? op.Float("offset") : op.Float("bias");
      node->AddStep(OperationType::kMul, -kInf, kInf, input(0), Scalar(a, node.get()));
      node->AddStep(OperationType::kAdd, hs ? 0.f : -kInf, hs ? 1.f : kInf, out,
                    Scalar(b, node.get()));
      break;
    }
    case OperationType::kBatchNorm: {
      const int64_t C = m.operands[op.inputs[0]].dims[1];
      std::vector<float> k, b;
      BatchNormAffine(m, op, &k, &b);
      Arg ka, ba;
      ka.constant = node->AddConstant(std::move(k), {size_t(C)});
      ba.constant = node->AddConstant(std::move(b), {size_t(C)});
      node->AddStep(OperationType::kMul, -kInf, kInf, input(0), ka);
      node->AddStep(OperationType::kAdd, -kInf, kInf, out, ba);
      break;
    }
    default:
      node->AddStep(op.type, lo, hi, input(0), input(1));
      break;
  }
  return std::unique_ptr<OpNode>(std::move(node));
}

}  // namespace npu
}  // namespace lite
