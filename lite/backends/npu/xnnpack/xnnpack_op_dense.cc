// Operator-path nodes with packed weights: conv2d (grouped alike, OIHW ->
// OHWI; one to four input channels on the driver's own FewChannelConv and
// depthwise ones with one output per channel on its own DepthwiseConv,
// which need no per-size setup), conv2d_transpose
// (groups 1, [C, O, KH, KW] -> [O, KH, KW, C]) and fully_connected ([K, N],
// transposed by XNNPACK).
#include <xnnpack.h>

#include "lite/backends/npu/xnnpack/depthwise_conv.h"
#include "lite/backends/npu/xnnpack/few_channel_conv.h"
#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_ops.h"

namespace lite {
namespace npu {

namespace {

// What every conv node reads of its operation, and its key: the filter's
// [O, C/groups, KH, KW], input channels, groups, strides, paddings (top,
// bottom, left, right), dilations and fused bounds, under the node kind's
// name.
class ConvParams : public OpNode {
 public:
  ConvParams(const Model& m, const Operation& op, float lo, float hi, const char* kind)
      : lo_(lo), hi_(hi) {
    const auto& f = m.operands[op.inputs[1]].dims;
    O_ = U(f[0]), CG_ = U(f[1]), KH_ = U(f[2]), KW_ = U(f[3]);
    C_ = U(m.operands[op.inputs[0]].dims[1]);
    groups_ = U(op.Int("groups", 1));
    s_ = op.Ints("strides"), p_ = op.Ints("paddings"), d_ = op.Ints("dilations");
    Key(kind);
    KeySizes({O_, CG_, KH_, KW_, C_, groups_, U(s_[0]), U(s_[1]), U(p_[0]), U(p_[1]), U(p_[2]),
         U(p_[3]), U(d_[0]), U(d_[1]), op.inputs.size()});
    Key(lo), Key(hi);
  }
  int filter_ = -1, bias_ = -1;

 protected:
  static size_t U(int64_t v) { return static_cast<size_t>(v); }
  // env's sizes for the driver's own kernels (NCHW dims, NHWC data).
  ConvGeometry GeometryOf(const OpEnv& e) const {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    const auto& y = e.model.operands[e.out].dims;
    ConvGeometry g;
    g.n = x[0], g.ih = x[2], g.iw = x[3], g.oh = y[2], g.ow = y[3];
    g.stride_h = s_[0], g.stride_w = s_[1], g.pad_top = p_[0], g.pad_left = p_[2];
    g.dilation_h = d_[0], g.dilation_w = d_[1];
    return g;
  }
  size_t O_, CG_, KH_, KW_, C_, groups_;
  std::vector<int64_t> s_, p_, d_;
  float lo_, hi_;
};

class ConvNode : public ConvParams {
 public:
  ConvNode(const Model& m, const Operation& op, float lo, float hi)
      : ConvParams(m, op, lo, hi, "conv") {}
  Status Create(const Model& m) override {
    const Operand& f = m.operands[filter_];
    const std::vector<float> w = NhwcData(f.f32(), f.dims);  // OIHW -> OHWI
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_convolution2d_nhwc_f32(
                    U(p_[0]), U(p_[3]), U(p_[1]), U(p_[2]), U(KH_), U(KW_), U(s_[0]), U(s_[1]),
                    U(d_[0]), U(d_[1]), U(groups_), CG_, O_ / groups_, C_, O_, w.data(),
                    bias_ >= 0 ? m.operands[bias_].f32() : nullptr, lo_, hi_, 0, &op),
                &op, "xnn_create_convolution2d_nhwc_f32");
  }
  Status Setup(const OpEnv& e) override {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    return XnnCheck(xnn_setup_convolution2d_nhwc_f32(op(0), x[0], x[2], x[3],
                                                  e.buffer(e.op.inputs[0]), e.buffer(e.out),
                                                  e.pool),
                 e.op, "xnn_setup_convolution2d_nhwc_f32");
  }
};

// A conv on one of the driver's own kernels: FewChannelConv for a dense
// conv over one to four input channels (an image), DepthwiseConv for a
// depthwise one with one output per channel. Packed once at Create,
// nothing to set up per size.
template <typename Kernel>
class OwnConvNode : public ConvParams {
 public:
  OwnConvNode(const Model& m, const Operation& op, float lo, float hi)
      : ConvParams(m, op, lo, hi, Kind()) {}
  Status Create(const Model& m) override {
    kernel_ = New(m.operands[filter_].f32(), bias_ >= 0 ? m.operands[bias_].f32() : nullptr);
    return Status::OK();
  }
  Status Setup(const OpEnv&) override { return Status::OK(); }
  Status Run(const OpEnv& e) override {
    kernel_->Run(GeometryOf(e), e.buffer(e.op.inputs[0]), e.buffer(e.out), e.pool);
    return Status::OK();
  }

 private:
  static const char* Kind();
  std::unique_ptr<Kernel> New(const float* filter, const float* bias) const;
  std::unique_ptr<Kernel> kernel_;
};

template <>
const char* OwnConvNode<FewChannelConv>::Kind() {
  return "few_channel_conv";
}
template <>
std::unique_ptr<FewChannelConv> OwnConvNode<FewChannelConv>::New(const float* filter,
                                                                 const float* bias) const {
  return std::make_unique<FewChannelConv>(filter, bias, O_, C_, KH_, KW_, lo_, hi_);
}
template <>
const char* OwnConvNode<DepthwiseConv>::Kind() {
  return "depthwise_conv";
}
template <>
std::unique_ptr<DepthwiseConv> OwnConvNode<DepthwiseConv>::New(const float* filter,
                                                               const float* bias) const {
  return std::make_unique<DepthwiseConv>(filter, bias, C_, KH_, KW_, lo_, hi_);
}

class DeconvNode : public OpNode {
 public:
  DeconvNode(const Model& m, const Operation& op, float lo, float hi) : lo_(lo), hi_(hi) {
    const auto& f = m.operands[op.inputs[1]].dims;  // [C, O, KH, KW]
    C_ = f[0], O_ = f[1], KH_ = f[2], KW_ = f[3];
    s_ = op.Ints("strides"), p_ = op.Ints("paddings"), d_ = op.Ints("dilations");
    Key("deconv");
    for (int64_t v : {C_, O_, KH_, KW_, s_[0], s_[1], p_[0], p_[1], p_[2], p_[3], d_[0], d_[1],
                      int64_t(op.inputs.size())}) {
      Key(double(v));
    }
    Key(lo), Key(hi);
  }
  Status Create(const Model& m) override {
    const Operand& f = m.operands[filter_];
    // [C, O, KH, KW] -> [O, KH, KW, C]: one NCHW image of C channels, O*KH x KW.
    const std::vector<float> w = NhwcData(f.f32(), {1, C_, O_ * KH_, KW_});
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_deconvolution2d_nhwc_f32(
                    uint32_t(p_[0]), uint32_t(p_[3]), uint32_t(p_[1]), uint32_t(p_[2]),
                    uint32_t(KH_), uint32_t(KW_), uint32_t(s_[0]), uint32_t(s_[1]),
                    uint32_t(d_[0]), uint32_t(d_[1]), 1, size_t(C_), size_t(O_), size_t(C_),
                    size_t(O_), w.data(), bias_ >= 0 ? m.operands[bias_].f32() : nullptr, lo_,
                    hi_, 0, &op),
                &op, "xnn_create_deconvolution2d_nhwc_f32");
  }
  Status Check(const OpEnv& e) override {
    uint32_t adj[2];
    return Adjustments(e, adj);
  }
  Status Setup(const OpEnv& e) override {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    uint32_t adj[2];
    RETURN_IF_ERROR(Adjustments(e, adj));
    return XnnCheck(xnn_setup_deconvolution2d_nhwc_f32(op(0), x[0], x[2], x[3], adj[0], adj[1],
                                                    e.buffer(e.op.inputs[0]), e.buffer(e.out),
                                                    e.pool),
                 e.op, "xnn_setup_deconvolution2d_nhwc_f32");
  }
  int filter_ = -1, bias_ = -1;

 private:
  // The output size's extra rows / columns past the strided input, which
  // XNNPACK takes as an adjustment in [0, stride).
  Status Adjustments(const OpEnv& e, uint32_t adj[2]) const {
    const auto& x = e.model.operands[e.op.inputs[0]].dims;
    const auto& y = e.model.operands[e.op.outputs[0]].dims;
    for (int i = 0; i < 2; ++i) {
      const int64_t k = i == 0 ? KH_ : KW_;
      const int64_t base =
          (x[2 + i] - 1) * s_[i] + d_[i] * (k - 1) + 1 - p_[2 * i] - p_[2 * i + 1];
      const int64_t a = y[2 + i] - base;
      if (a < 0 || a >= s_[i]) {
        return Unimplemented("xnnpack: conv2d_transpose output size " + std::to_string(y[2 + i]) +
                             " needs an adjustment of " + std::to_string(a) +
                             " outside [0, stride) (from " + e.op.origin + ")");
      }
      adj[i] = uint32_t(a);
    }
    return Status::OK();
  }
  int64_t C_, O_, KH_, KW_;
  std::vector<int64_t> s_, p_, d_;
  float lo_, hi_;
};

class FcNode : public OpNode {
 public:
  FcNode(const Model& m, const Operation& op, float lo, float hi) : lo_(lo), hi_(hi) {
    const auto& w = m.operands[op.inputs[1]].dims;  // [K, N]
    K_ = size_t(w[0]), N_ = size_t(w[1]);
    Key("fc");
    KeySizes({K_, N_, op.inputs.size()});
    Key(lo), Key(hi);
  }
  Status Create(const Model& m) override {
    xnn_operator_t op = nullptr;
    return Keep(xnn_create_fully_connected_nc_f32(
                    K_, N_, K_, N_, m.operands[filter_].f32(),
                    bias_ >= 0 ? m.operands[bias_].f32() : nullptr, lo_, hi_,
                    XNN_FLAG_TRANSPOSE_WEIGHTS, &op),
                &op, "xnn_create_fully_connected_nc_f32");
  }
  Status Setup(const OpEnv& e) override {
    const size_t rows = Numel(e.model.operands[e.op.inputs[0]].dims) / K_;
    return XnnCheck(xnn_setup_fully_connected_nc_f32(op(0), rows, e.buffer(e.op.inputs[0]),
                                                  e.buffer(e.out), e.pool),
                 e.op, "xnn_setup_fully_connected_nc_f32");
  }
  int filter_ = -1, bias_ = -1;

 private:
  size_t K_, N_;
  float lo_, hi_;
};

template <typename Node>
NodeOrWhy Make(const Model& m, const Operation& op, float lo, float hi) {
  auto node = std::make_unique<Node>(m, op, lo, hi);
  node->filter_ = op.inputs[1];
  node->bias_ = op.inputs.size() > 2 ? op.inputs[2] : -1;
  return std::unique_ptr<OpNode>(std::move(node));
}

}  // namespace

NodeOrWhy MakeDenseNode(const Model& m, const Operation& op, float lo, float hi) {
  for (size_t i = 1; i < op.inputs.size(); ++i) {
    if (m.operands[op.inputs[i]].lifetime != Lifetime::kConstant) {
      return Unimplemented(std::string(OperationTypeName(op.type)) + " from " + op.origin +
                           " with a non-constant filter or bias");
    }
  }
  if (op.type == OperationType::kConv2D) {
    const auto& f = m.operands[op.inputs[1]].dims;
    const int64_t groups = op.Int("groups", 1);
    if (groups == 1 && f[1] <= FewChannelConv::kMaxChannels &&
        f[2] <= FewChannelConv::kMaxKernel && f[3] <= FewChannelConv::kMaxKernel) {
      return Make<OwnConvNode<FewChannelConv>>(m, op, lo, hi);
    }
    if (groups > 1 && f[0] == groups && f[1] == 1 &&
        m.operands[op.inputs[0]].dims[1] == groups && f[2] <= DepthwiseConv::kMaxKernel &&
        f[3] <= DepthwiseConv::kMaxKernel) {
      return Make<OwnConvNode<DepthwiseConv>>(m, op, lo, hi);
    }
    return Make<ConvNode>(m, op, lo, hi);
  }
  if (op.type == OperationType::kConv2DTranspose) return Make<DeconvNode>(m, op, lo, hi);
  return Make<FcNode>(m, op, lo, hi);
}

}  // namespace npu
}  // namespace lite
