// XnnpackBuilder::Define: one XNNPACK node (or a short exact composition)
// per NN IR operation, 4-D tensors in NHWC.
#include <cmath>
#include <limits>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

namespace lite {
namespace npu {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}  // namespace

uint32_t XnnpackBuilder::BroadcastConstant(int idx, size_t out_rank) {
  const Operand& o = model_.operands[idx];
  std::vector<int64_t> d = o.dims;
  if (out_rank != 4) {
    const float* p = o.f32();
    return ConstantValue(std::vector<float>(p, p + o.numel()), XnnDims(d));
  }
  while (d.size() < 4) d.insert(d.begin(), 1);  // numpy: right-aligned
  return ConstantValue(NhwcData(o.f32(), d), XnnDims(d));
}

Status XnnpackBuilder::DefineConv(const Operation& op, uint32_t x, uint32_t y, float lo,
                                  float hi, const float* weights) {
  const Operand& f = model_.operands[op.inputs[1]];
  const auto& xd = model_.operands[op.inputs[0]].dims;
  const int64_t O = f.dims[0], CG = f.dims[1], KH = f.dims[2], KW = f.dims[3];
  const int64_t C = xd[1], groups = op.Int("groups", 1);
  const auto s = op.Ints("strides"), p = op.Ints("paddings"), dl = op.Ints("dilations");
  uint32_t bias = XNN_INVALID_VALUE_ID;
  if (op.inputs.size() > 2) {
    const Operand& b = model_.operands[op.inputs[2]];
    bias = ConstantValue(std::vector<float>(b.f32(), b.f32() + b.numel()), {size_t(O)});
  }
  const float* w = weights ? weights : f.f32();
  if (groups == C && CG == 1 && groups > 1) {  // depthwise: [1, KH, KW, O]
    // [O, 1, KH, KW] read as one NCHW image with O channels.
    uint32_t filter = ConstantValue(NhwcData(w, {1, O, KH, KW}), {1, size_t(KH), size_t(KW), size_t(O)});
    return XnnCheck(xnn_define_depthwise_convolution_2d(
                     subgraph_, U(p[0]), U(p[3]), U(p[1]), U(p[2]), U(KH), U(KW), U(s[0]), U(s[1]),
                     U(dl[0]), U(dl[1]), U(O / C), size_t(C), lo, hi, x, filter, bias, y, 0),
                 op, "depthwise convolution");
  }
  // OIHW -> OHWI is NCHW -> NHWC.
  uint32_t filter = ConstantValue(NhwcData(w, f.dims), {size_t(O), size_t(KH), size_t(KW), size_t(CG)});
  return XnnCheck(xnn_define_convolution_2d(subgraph_, U(p[0]), U(p[3]), U(p[1]), U(p[2]), U(KH),
                                         U(KW), U(s[0]), U(s[1]), U(dl[0]), U(dl[1]), U(groups),
                                         size_t(CG), size_t(O / groups), lo, hi, x, filter, bias,
                                         y, 0),
               op, "convolution");
}

Status XnnpackBuilder::DefineFc(const Operation& op, uint32_t x, uint32_t y, float lo, float hi,
                                const float* weights) {
  const Operand& w = model_.operands[op.inputs[1]];  // [K, N]
  const float* wd = weights ? weights : w.f32();
  uint32_t filter = ConstantValue(std::vector<float>(wd, wd + w.numel()),
                                  {size_t(w.dims[0]), size_t(w.dims[1])});
  uint32_t bias = XNN_INVALID_VALUE_ID;
  if (op.inputs.size() > 2) {
    const Operand& b = model_.operands[op.inputs[2]];
    bias = ConstantValue(std::vector<float>(b.f32(), b.f32() + b.numel()), {size_t(b.numel())});
  }
  return XnnCheck(xnn_define_fully_connected(subgraph_, lo, hi, x, filter, bias, y,
                                             XNN_FLAG_TRANSPOSE_WEIGHTS),
                  op, "fully connected");
}

Status XnnpackBuilder::DefineDeconv(const Operation& op, uint32_t x, uint32_t y, float lo,
                                    float hi) {
  const Operand& f = model_.operands[op.inputs[1]];  // [C, O, KH, KW] (groups 1)
  const auto& xd = model_.operands[op.inputs[0]].dims;
  const auto& yd = model_.operands[op.outputs[0]].dims;
  const int64_t C = f.dims[0], O = f.dims[1], KH = f.dims[2], KW = f.dims[3];
  const auto s = op.Ints("strides"), p = op.Ints("paddings"), dl = op.Ints("dilations");
  int64_t adj[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t k = i == 0 ? KH : KW;
    const int64_t base = (xd[2 + i] - 1) * s[i] + dl[i] * (k - 1) + 1 - p[2 * i] - p[2 * i + 1];
    adj[i] = yd[2 + i] - base;
    if (adj[i] < 0 || adj[i] >= s[i]) {
      return Unimplemented("xnnpack: conv2d_transpose output size " + std::to_string(yd[2 + i]) +
                           " needs an adjustment of " + std::to_string(adj[i]) +
                           " outside [0, stride) (from " + op.origin + ")");
    }
  }
  const float* w = f.f32();
  // [C, O, KH, KW] -> [O, KH, KW, C]: one NCHW image of C channels, O*KH x KW.
  uint32_t filter = ConstantValue(NhwcData(w, {1, C, O * KH, KW}),
                                  {size_t(O), size_t(KH), size_t(KW), size_t(C)});
  uint32_t bias = XNN_INVALID_VALUE_ID;
  if (op.inputs.size() > 2) {
    const Operand& b = model_.operands[op.inputs[2]];
    bias = ConstantValue(std::vector<float>(b.f32(), b.f32() + b.numel()), {size_t(O)});
  }
  return XnnCheck(xnn_define_deconvolution_2d(subgraph_, U(p[0]), U(p[3]), U(p[1]), U(p[2]),
                                           U(adj[0]), U(adj[1]), U(KH), U(KW), U(s[0]), U(s[1]),
                                           U(dl[0]), U(dl[1]), 1, size_t(C), size_t(O), lo, hi, x,
                                           filter, bias, y, 0),
               op, "deconvolution");
}

Status XnnpackBuilder::DefinePool(const Operation& op, uint32_t x, uint32_t y, float lo, float hi) {
  const auto& xd = model_.operands[op.inputs[0]].dims;
  const auto& yd = model_.operands[op.outputs[0]].dims;
  const auto k = op.Ints("ksize"), s = op.Ints("strides"), p = op.Ints("paddings");
  const bool is_max = op.Int("pool_type") == 0;
  if (!is_max && yd[2] == 1 && yd[3] == 1 && k[0] == xd[2] && k[1] == xd[3] && p[0] == 0 &&
      p[2] == 0) {
    return XnnCheck(xnn_define_global_average_pooling_2d(subgraph_, lo, hi, x, y, 0), op,
                 "global average pooling");
  }
  // Bottom/right padding that makes XNNPACK's floor formula give the output
  // dims (Paddle's ceil_mode output has extra windows at the end).
  int64_t pb = (yd[2] - 1) * s[0] + k[0] - xd[2] - p[0];
  int64_t pr = (yd[3] - 1) * s[1] + k[1] - xd[3] - p[2];
  if (pb < 0 || pr < 0) {
    return Unimplemented("xnnpack: pool2d output " + std::to_string(yd[2]) + "x" +
                         std::to_string(yd[3]) + " is smaller than its windows allow (from " +
                         op.origin + ")");
  }
  if (is_max) {
    return XnnCheck(xnn_define_max_pooling_2d(subgraph_, U(p[0]), U(pr), U(pb), U(p[2]), U(k[0]),
                                           U(k[1]), U(s[0]), U(s[1]), 1, 1, lo, hi, x, y, 0),
                 op, "max pooling");
  }
  if ((pb > 0 || pr > 0 || p[0] > 0 || p[2] > 0) && op.Int("exclusive", 1) == 0) {
    return Unimplemented("xnnpack: average pooling over padding with exclusive=false (from " +
                         op.origin + ")");
  }
  return XnnCheck(xnn_define_average_pooling_2d(subgraph_, U(p[0]), U(pr), U(pb), U(p[2]), U(k[0]),
                                             U(k[1]), U(s[0]), U(s[1]), lo, hi, x, y, 0),
               op, "average pooling");
}

Status XnnpackBuilder::Define(size_t index) {
  const Operation& op = model_.operations[index];
  RETURN_IF_ERROR(XnnpackSupports(model_, op));
  int out_operand;
  float lo, hi;
  const bool clampable = op.type == OperationType::kConv2D ||
                         op.type == OperationType::kConv2DTranspose ||
                         op.type == OperationType::kPool2D ||
                         op.type == OperationType::kFullyConnected ||
                         op.type == OperationType::kAdd || op.type == OperationType::kSub ||
                         op.type == OperationType::kMul || op.type == OperationType::kDiv;
  const bool quantized = model_.operands[op.inputs[0]].type == ElementType::kInt8;
  if (clampable) {
    FoldClamp(index, &out_operand, &lo, &hi);
    if (quantized) FoldQuantize(index, &out_operand);
  } else {
    out_operand = op.outputs[0];
    lo = -kInf;
    hi = kInf;
  }
  ASSIGN_OR_RETURN(uint32_t y, Value(out_operand));
  const size_t out_rank = model_.operands[op.outputs[0]].dims.size();
  auto input = [&](int i) -> StatusOr<uint32_t> {
    const int idx = op.inputs[i];
    if (model_.operands[idx].lifetime == Lifetime::kConstant) return BroadcastConstant(idx, out_rank);
    return Value(idx);
  };
  ASSIGN_OR_RETURN(uint32_t x, input(0));
  auto scalar = [&](float v) { return ConstantValue({v}, {1}); };
  // An internal value with the output's dims, for compositions.
  const auto out_dims = XnnDims(model_.operands[op.outputs[0]].dims);
  auto temporary = [&](uint32_t* id) {
    return XnnCheck(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, out_dims.size(),
                                         out_dims.data(), nullptr, XNN_INVALID_VALUE_ID, 0, id),
                 op, "temporary");
  };
  switch (op.type) {
    case OperationType::kConv2D:
      return quantized ? DefineQuantizedConv(op, out_operand, x, y, lo, hi)
                       : DefineConv(op, x, y, lo, hi);
    case OperationType::kQuantize: return DefineQuantize(op, x, y);
    case OperationType::kConv2DTranspose: return DefineDeconv(op, x, y, lo, hi);
    case OperationType::kPool2D: return DefinePool(op, x, y, lo, hi);
    case OperationType::kFullyConnected:
      return quantized ? DefineQuantizedFc(op, out_operand, x, y, lo, hi)
                       : DefineFc(op, x, y, lo, hi);
    case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
    case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin: {
      ASSIGN_OR_RETURN(uint32_t b, input(1));
      xnn_status s;
      switch (op.type) {
        case OperationType::kAdd: s = xnn_define_add2(subgraph_, lo, hi, x, b, y, 0); break;
        case OperationType::kSub: s = xnn_define_subtract(subgraph_, lo, hi, x, b, y, 0); break;
        case OperationType::kMul: s = xnn_define_multiply2(subgraph_, lo, hi, x, b, y, 0); break;
        case OperationType::kDiv: s = xnn_define_divide(subgraph_, lo, hi, x, b, y, 0); break;
        case OperationType::kMax: s = xnn_define_maximum2(subgraph_, x, b, y, 0); break;
        default: s = xnn_define_minimum2(subgraph_, x, b, y, 0); break;
      }
      return XnnCheck(s, op, "binary operation");
    }
    case OperationType::kRelu: return XnnCheck(xnn_define_clamp(subgraph_, 0, kInf, x, y, 0), op, "clamp");
    case OperationType::kRelu6: return XnnCheck(xnn_define_clamp(subgraph_, 0, 6, x, y, 0), op, "clamp");
    case OperationType::kClip:
      return XnnCheck(xnn_define_clamp(subgraph_, op.Float("min"), op.Float("max"), x, y, 0), op, "clamp");
    case OperationType::kLeakyRelu:
      return XnnCheck(xnn_define_leaky_relu(subgraph_, op.Float("alpha"), x, y, 0), op, "leaky relu");
    case OperationType::kSigmoid: return XnnCheck(xnn_define_sigmoid(subgraph_, x, y, 0), op, "sigmoid");
    case OperationType::kAbs: return XnnCheck(xnn_define_abs(subgraph_, x, y, 0), op, "abs");
    case OperationType::kHardSwish: return XnnCheck(xnn_define_hardswish(subgraph_, x, y, 0), op, "hardswish");
    case OperationType::kScale:
    case OperationType::kHardSigmoid: {
      // scale * x + bias (then clamped to [0, 1] for hard_sigmoid).
      const bool hs = op.type == OperationType::kHardSigmoid;
      const float a = hs ? op.Float("slope") : op.Float("scale");
      const float b = hs ? op.Float("offset") : op.Float("bias");
      uint32_t t = XNN_INVALID_VALUE_ID;
      RETURN_IF_ERROR(temporary(&t));
      RETURN_IF_ERROR(XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, x, scalar(a), t, 0), op, "multiply"));
      return XnnCheck(xnn_define_add2(subgraph_, hs ? 0.f : -kInf, hs ? 1.f : kInf, t, scalar(b), y, 0),
                   op, "add");
    }
    case OperationType::kTanh: {  // 2 * sigmoid(2x) - 1
      uint32_t t1 = XNN_INVALID_VALUE_ID, t2 = XNN_INVALID_VALUE_ID;
      RETURN_IF_ERROR(temporary(&t1));
      RETURN_IF_ERROR(temporary(&t2));
      RETURN_IF_ERROR(XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, x, scalar(2.f), t1, 0), op, "multiply"));
      RETURN_IF_ERROR(XnnCheck(xnn_define_sigmoid(subgraph_, t1, t2, 0), op, "sigmoid"));
      uint32_t t3 = XNN_INVALID_VALUE_ID;
      RETURN_IF_ERROR(temporary(&t3));
      RETURN_IF_ERROR(XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, t2, scalar(2.f), t3, 0), op, "multiply"));
      return XnnCheck(xnn_define_add2(subgraph_, -1.f, 1.f, t3, scalar(-1.f), y, 0), op, "add");
    }
    case OperationType::kSwish: {  // x * sigmoid(beta * x)
      uint32_t t1 = XNN_INVALID_VALUE_ID, t2 = XNN_INVALID_VALUE_ID;
      RETURN_IF_ERROR(temporary(&t1));
      RETURN_IF_ERROR(temporary(&t2));
      const float beta = op.Float("beta", 1.f);
      uint32_t in = x;
      if (beta != 1.f) {
        RETURN_IF_ERROR(XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, x, scalar(beta), t1, 0), op, "multiply"));
        in = t1;
      }
      RETURN_IF_ERROR(XnnCheck(xnn_define_sigmoid(subgraph_, in, t2, 0), op, "sigmoid"));
      return XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, x, t2, y, 0), op, "multiply");
    }
    case OperationType::kPRelu: {
      const Operand& a = model_.operands[op.inputs[1]];
      const int64_t C = model_.operands[op.inputs[0]].dims[1];
      std::vector<float> slope(C, a.f32()[0]);
      if (a.numel() == C) slope.assign(a.f32(), a.f32() + C);
      return XnnCheck(xnn_define_prelu(subgraph_, x, ConstantValue(std::move(slope), {size_t(C)}), y, 0),
                   op, "prelu");
    }
    case OperationType::kSoftmax: return XnnCheck(xnn_define_softmax(subgraph_, x, y, 0), op, "softmax");
    case OperationType::kReshape:
      return XnnCheck(xnn_define_static_reshape(subgraph_, out_dims.size(), out_dims.data(), x, y, 0),
                   op, "reshape");
    case OperationType::kPad: {
      std::vector<size_t> pre, post;
      NhwcPaddings(op.Ints("paddings"), &pre, &post);
      return XnnCheck(xnn_define_static_constant_pad(subgraph_, pre.data(), post.data(), op.Float("value"),
                                                  x, y, 0),
                   op, "constant pad");
    }
    case OperationType::kResizeBilinear: {
      const auto& xd = model_.operands[op.inputs[0]].dims;
      const auto& yd = model_.operands[op.outputs[0]].dims;
      const bool corners = op.Int("align_corners") != 0;
      const bool half_pixel = !corners && op.Int("align_mode", 1) == 0;
      for (int i = 0; i < 2; ++i) {
        const float want = corners ? (yd[2 + i] > 1 ? float(xd[2 + i] - 1) / float(yd[2 + i] - 1) : 0.f)
                                   : float(xd[2 + i]) / float(yd[2 + i]);
        const float got = op.Float(i == 0 ? "ratio_h" : "ratio_w");
        if (std::fabs(want - got) > 1e-6f * std::max(1.f, want)) {
          return Unimplemented("xnnpack: resize_bilinear with a scale that is not in/out size (from " +
                               op.origin + ")");
        }
      }
      uint32_t flags = corners ? XNN_FLAG_ALIGN_CORNERS : half_pixel ? 0 : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
      return XnnCheck(xnn_define_static_resize_bilinear_2d(subgraph_, size_t(yd[2]), size_t(yd[3]), x, y, flags),
                   op, "resize bilinear");
    }
    case OperationType::kBatchNorm: {  // x * k + b per channel
      const int64_t C = model_.operands[op.inputs[0]].dims[1];
      std::vector<float> k, b;
      BatchNormAffine(model_, op, &k, &b);
      uint32_t t = XNN_INVALID_VALUE_ID;
      RETURN_IF_ERROR(temporary(&t));
      RETURN_IF_ERROR(XnnCheck(xnn_define_multiply2(subgraph_, -kInf, kInf, x,
                                                 ConstantValue(std::move(k), {size_t(C)}), t, 0),
                            op, "multiply"));
      return XnnCheck(xnn_define_add2(subgraph_, -kInf, kInf, t, ConstantValue(std::move(b), {size_t(C)}), y, 0),
                   op, "add");
    }
    default:
      return Unimplemented(std::string("xnnpack: ") + OperationTypeName(op.type) + " has no node");
  }
}

}  // namespace npu
}  // namespace lite
