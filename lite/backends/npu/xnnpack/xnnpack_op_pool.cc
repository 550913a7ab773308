// Operator-path pool2d: global average pooling (a window covering the whole
// input, whatever its size), max and average pooling. Paddle's ceil_mode
// windows past the end become bottom/right padding, which depends on the
// input size: it is part of the node's key, so a size needing other padding
// creates its own node.
#include <xnnpack.h>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

namespace {

class GlobalAverageNode : public OpNode {
 public:
  GlobalAverageNode(size_t channels, float lo, float hi) : C_(channels), lo_(lo), hi_(hi) {
    Key("global_average_pool");
    KeySizes({C_});
    Key(lo), Key(hi);
  }
  Status Create(const Model&) override {
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_global_average_pooling_nwc_f32(C_, C_, C_, lo_, hi_, 0, &op), &op,
                "xnn_create_global_average_pooling_nwc_f32");
  }
  Status Setup(const OpEnv& e) override {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    return XnnCheck(xnn_setup_global_average_pooling_nwc_f32(op(0), x[0], x[2] * x[3],
                                                          e.buffer(e.op.inputs[0]),
                                                          e.buffer(e.out), e.pool),
                 e.op, "xnn_setup_global_average_pooling_nwc_f32");
  }

 private:
  size_t C_;
  float lo_, hi_;
};

class WindowPoolNode : public OpNode {
 public:
  // pads: top, right, bottom, left.
  WindowPoolNode(bool is_max, size_t channels, std::vector<uint32_t> pads,
                 std::vector<uint32_t> k, std::vector<uint32_t> s, float lo, float hi)
      : max_(is_max), C_(channels), pads_(pads), k_(k), s_(s), lo_(lo), hi_(hi) {
    Key(is_max ? "max_pool" : "average_pool");
    KeySizes({C_, pads[0], pads[1], pads[2], pads[3], k[0], k[1], s[0], s[1]});
    Key(lo), Key(hi);
  }
  Status Create(const Model&) override {
    xnn_operator_t op = nullptr;
    if (max_) {
      return Keep(xnn_create_max_pooling2d_nhwc_f32(pads_[0], pads_[1], pads_[2], pads_[3], k_[0],
                                                    k_[1], s_[0], s_[1], 1, 1, C_, C_, C_, lo_,
                                                    hi_, 0, &op),
                  &op, "xnn_create_max_pooling2d_nhwc_f32");
    }
    return Keep(xnn_create_average_pooling2d_nhwc_f32(pads_[0], pads_[1], pads_[2], pads_[3],
                                                      k_[0], k_[1], s_[0], s_[1], C_, C_, C_,
                                                      lo_, hi_, 0, &op),
                &op, "xnn_create_average_pooling2d_nhwc_f32");
  }
  Status Setup(const OpEnv& e) override {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    const float* in = e.buffer(e.op.inputs[0]);
    float* out = e.buffer(e.out);
    if (max_) {
      return XnnCheck(xnn_setup_max_pooling2d_nhwc_f32(op(0), x[0], x[2], x[3], in, out, e.pool),
                   e.op, "xnn_setup_max_pooling2d_nhwc_f32");
    }
    return XnnCheck(xnn_setup_average_pooling2d_nhwc_f32(op(0), x[0], x[2], x[3], in, out, e.pool),
                 e.op, "xnn_setup_average_pooling2d_nhwc_f32");
  }

 private:
  bool max_;
  size_t C_;
  std::vector<uint32_t> pads_, k_, s_;
  float lo_, hi_;
};

}  // namespace

NodeOrWhy MakePoolNode(const Model& m, const Operation& op, float lo, float hi) {
  const auto& xd = m.operands[op.inputs[0]].dims;
  const auto& yd = m.operands[op.outputs[0]].dims;
  const auto k = op.Ints("ksize"), s = op.Ints("strides"), p = op.Ints("paddings");
  const bool is_max = op.Int("pool_type") == 0;
  const size_t C = size_t(xd[1]);
  if (!is_max && yd[2] == 1 && yd[3] == 1 && k[0] == xd[2] && k[1] == xd[3] && p[0] == 0 &&
      p[2] == 0) {
    return std::unique_ptr<OpNode>(new GlobalAverageNode(C, lo, hi));
  }
  const int64_t pb = (yd[2] - 1) * s[0] + k[0] - xd[2] - p[0];
  const int64_t pr = (yd[3] - 1) * s[1] + k[1] - xd[3] - p[2];
  if (pb < 0 || pr < 0) {
    return Unimplemented("pool2d from " + op.origin + ": output " + std::to_string(yd[2]) + "x" +
                         std::to_string(yd[3]) + " is smaller than its windows allow");
  }
  if (!is_max && (pb > 0 || pr > 0 || p[0] > 0 || p[2] > 0) && op.Int("exclusive", 1) == 0) {
    return Unimplemented("pool2d from " + op.origin +
                         ": average pooling over padding with exclusive=false");
  }
  if (k[0] * k[1] <= 1) {
    return Unimplemented("pool2d from " + op.origin + ": a 1x1 window has no XNNPACK operator");
  }
  auto u = [](int64_t v) { return uint32_t(v); };
  return std::unique_ptr<OpNode>(new WindowPoolNode(
      is_max, C, {u(p[0]), u(pr), u(pb), u(p[2])}, {u(k[0]), u(k[1])}, {u(s[0]), u(s[1])}, lo, hi));
}

}  // namespace npu
}  // namespace lite
