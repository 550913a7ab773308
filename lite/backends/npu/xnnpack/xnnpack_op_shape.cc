// Operator-path nodes that move data: constant pad (XNNPACK's pad operator,
// NCHW paddings reordered to NHWC), bilinear resize (its ratio checked
// against in/out sizes at each setup), a reshape that keeps the stored
// order (a copy), and the driver's own NHWC kernels (xnnpack_kernels.h:
// concat, nearest resize, a reshape that reorders), which need no setup.
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_kernels.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

namespace {

// The own kernels and the plain reshape: nothing created, run on the
// buffers of each call.
class KernelNode : public OpNode {
 public:
  explicit KernelNode(const Operation& op) { Key(OperationTypeName(op.type)); }
  Status Create(const Model&) override { return Status::OK(); }
  Status Setup(const OpEnv&) override { return Status::OK(); }
  Status Run(const OpEnv& e) override {
    if (!IsNhwcKernel(e.model, e.op)) {  // reshape keeping the stored order
      std::memcpy(e.buffer(e.out), e.buffer(e.op.inputs[0]),
                  sizeof(float) * Numel(e.model.operands[e.out].dims));
      return Status::OK();
    }
    std::vector<const float*> in;
    std::vector<float*> out;
    for (int idx : e.op.inputs) in.push_back(e.buffer(idx));
    for (int idx : e.op.outputs) out.push_back(e.buffer(idx));
    RunNhwcKernel(e.model, e.op, in, out);
    return Status::OK();
  }
};

class PadNode : public OpNode {
 public:
  PadNode(std::vector<size_t> pre, std::vector<size_t> post, float value)
      : pre_(std::move(pre)), post_(std::move(post)), value_(value) {
    Key("pad"), KeySizes(pre_), KeySizes(post_), Key(value);
  }
  Status Create(const Model&) override {
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_constant_pad_nd_x32(&value_, 0, &op), &op,
                "xnn_create_constant_pad_nd_x32");
  }
  Status Setup(const OpEnv& e) override {
    const auto shape = XnnDims(e.model.operands[e.op.inputs[0]].dims);
    return XnnCheck(xnn_setup_constant_pad_nd_x32(op(0), shape.size(), shape.data(), pre_.data(),
                                               post_.data(), e.buffer(e.op.inputs[0]),
                                               e.buffer(e.out), e.pool),
                 e.op, "xnn_setup_constant_pad_nd_x32");
  }

 private:
  std::vector<size_t> pre_, post_;
  float value_;
};

class ResizeBilinearNode : public OpNode {
 public:
  ResizeBilinearNode(size_t channels, uint32_t flags) : C_(channels), flags_(flags) {
    Key("resize_bilinear"), KeySizes({C_, flags_});
  }
  Status Create(const Model&) override {
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_resize_bilinear2d_nhwc_f32(C_, C_, C_, flags_, &op), &op,
                "xnn_create_resize_bilinear2d_nhwc_f32");
  }
  Status Check(const OpEnv& e) override {
    const auto& xd = e.model.operands[e.op.inputs[0]].dims;
    const auto& yd = e.model.operands[e.op.outputs[0]].dims;
    const bool corners = e.op.Int("align_corners") != 0;
    for (int i = 0; i < 2; ++i) {
      const float want = corners ? (yd[2 + i] > 1 ? float(xd[2 + i] - 1) / float(yd[2 + i] - 1) : 0.f)
                                 : float(xd[2 + i]) / float(yd[2 + i]);
      const float got = e.op.Float(i == 0 ? "ratio_h" : "ratio_w");
      if (std::fabs(want - got) > 1e-6f * std::max(1.f, want)) {
        return Unimplemented("xnnpack: resize_bilinear with a scale that is not in/out size (from " +
                             e.op.origin + ")");
      }
    }
    return Status::OK();
  }
  Status Setup(const OpEnv& e) override {
    RETURN_IF_ERROR(Check(e));
    const auto& xd = e.model.operands[e.op.inputs[0]].dims;
    const auto& yd = e.model.operands[e.op.outputs[0]].dims;
    return XnnCheck(xnn_setup_resize_bilinear2d_nhwc_f32(op(0), xd[0], xd[2], xd[3], yd[2], yd[3],
                                                      e.buffer(e.op.inputs[0]), e.buffer(e.out),
                                                      e.pool),
                 e.op, "xnn_setup_resize_bilinear2d_nhwc_f32");
  }

 private:
  size_t C_;
  uint32_t flags_;
};

}  // namespace

NodeOrWhy MakeShapeNode(const Model& m, const Operation& op) {
  for (int idx : op.inputs) {
    if (m.operands[idx].lifetime == Lifetime::kConstant &&
        !(op.type == OperationType::kReshape && idx != op.inputs[0])) {
      return Unimplemented(std::string(OperationTypeName(op.type)) + " from " + op.origin +
                           " with a constant input");
    }
  }
  if (op.type == OperationType::kPad) {
    std::vector<size_t> pre, post;
    NhwcPaddings(op.Ints("paddings"), &pre, &post);
    return std::unique_ptr<OpNode>(new PadNode(pre, post, op.Float("value")));
  }
  if (op.type == OperationType::kResizeBilinear) {
    const bool corners = op.Int("align_corners") != 0;
    const bool half_pixel = !corners && op.Int("align_mode", 1) == 0;
    const uint32_t flags =
        corners ? XNN_FLAG_ALIGN_CORNERS : half_pixel ? 0 : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
    return std::unique_ptr<OpNode>(
        new ResizeBilinearNode(size_t(m.operands[op.inputs[0]].dims[1]), flags));
  }
  return std::unique_ptr<OpNode>(new KernelNode(op));
}

}  // namespace npu
}  // namespace lite
