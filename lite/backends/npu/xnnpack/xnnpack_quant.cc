// XnnpackBuilder's quantized operations: quantize as an XNNPACK convert
// (float32 -> qint8), the quantized conv2d and fully_connected.
//
// A quantized conv2d whose float32 output only feeds a quantize (possibly
// through a relu / relu6 / clip folded as its bounds) runs as XNNPACK's
// int8 convolution: qint8 input, qcint8 filter (per-channel scales), qcint32
// bias (scale input_scale * filter_scale[c]) and the quantize's qint8 output,
// requantized by XNNPACK. Any other quantized conv2d needs float32 out, which
// XNNPACK's int8 convolution cannot write: its input levels are converted
// back to float32 and it runs as the float32 convolution of the dequantized
// filter (the exact float simulation, no int8 speed).
#include <cmath>

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

namespace lite {
namespace npu {

namespace {

// Per-output-channel scales of filter `f` (a per-tensor scale repeated).
std::vector<float> ChannelScales(const Operand& f) {
  if (f.quant.kind == Quantization::kPerChannel) return f.quant.scales;
  return std::vector<float>(f.dims[0], f.quant.scales[0]);
}

}  // namespace

void XnnpackBuilder::FoldQuantize(size_t op_index, int* out) {
  const Operation& op = model_.operations[op_index];
  if ((op.type != OperationType::kConv2D && op.type != OperationType::kFullyConnected) ||
      model_.operands[*out].type != ElementType::kFloat32) {
    return;
  }
  if (op.type == OperationType::kFullyConnected &&
      model_.operands[op.inputs[1]].quant.kind != Quantization::kPerTensor) {
    return;  // no per-channel int8 fully connected in XNNPACK 2022
  }
  // The operation writing *out: the conv itself or the clamp folded into it.
  size_t writer = op_index;
  for (size_t k = op_index; k < model_.operations.size(); ++k) {
    if (!model_.operations[k].outputs.empty() && model_.operations[k].outputs[0] == *out) {
      writer = k;
      break;
    }
  }
  const int k = SoleConsumer(writer, *out);
  if (k < 0 || model_.operations[k].type != OperationType::kQuantize) return;
  skipped_[k] = true;
  *out = model_.operations[k].outputs[0];
}

Status XnnpackBuilder::DefineQuantize(const Operation& op, uint32_t x, uint32_t y) {
  // XNNPACK's convert rounds to nearest even and saturates to [-128, 127]:
  // round_type 0 exactly. Round_type 1 clips to +-127 levels first (the
  // levels then differ only for values exactly halfway between two).
  const Operand& out = model_.operands[op.outputs[0]];
  if (op.Int("round_type", 1) != 0) {
    const float q = out.quant.scales[0];
    const float lo = -127.f * q, hi = 127.f * q;
    const auto dims = XnnDims(out.dims);
    uint32_t clipped = XNN_INVALID_VALUE_ID;
    RETURN_IF_ERROR(XnnCheck(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(),
                                                     dims.data(), nullptr, XNN_INVALID_VALUE_ID,
                                                     0, &clipped),
                             op, "clipped input"));
    RETURN_IF_ERROR(XnnCheck(xnn_define_clamp(subgraph_, lo, hi, x, clipped, 0), op, "clamp"));
    x = clipped;
  }
  return XnnCheck(xnn_define_convert(subgraph_, x, y, 0), op, "convert to qint8");
}

StatusOr<uint32_t> XnnpackBuilder::Dequantized(const Operation& op, uint32_t x) {
  const auto dims = XnnDims(model_.operands[op.inputs[0]].dims);
  uint32_t xf = XNN_INVALID_VALUE_ID;
  RETURN_IF_ERROR(XnnCheck(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(),
                                                   dims.data(), nullptr, XNN_INVALID_VALUE_ID, 0,
                                                   &xf),
                           op, "float input"));
  RETURN_IF_ERROR(XnnCheck(xnn_define_convert(subgraph_, x, xf, 0), op, "convert to fp32"));
  return xf;
}

// Weights [K, N] quantized along N (or per tensor): XNNPACK 2022's int8
// fully connected takes one filter scale, so only a per-tensor w with an int8
// output runs in int8; anything else as the float simulation.
Status XnnpackBuilder::DefineQuantizedFc(const Operation& op, int out, uint32_t x, uint32_t y,
                                         float lo, float hi) {
  const Operand& xo = model_.operands[op.inputs[0]];
  const Operand& w = model_.operands[op.inputs[1]];
  const int64_t K = w.dims[0], N = w.dims[1];
  const int8_t* levels = reinterpret_cast<const int8_t*>(w.data.data());
  if (model_.operands[out].type != ElementType::kInt8 ||
      w.quant.kind != Quantization::kPerTensor) {
    std::vector<float> wf(w.numel());
    for (int64_t i = 0; i < w.numel(); ++i) {
      wf[i] = levels[i] * w.quant.scales[w.quant.kind == Quantization::kPerChannel ? i % N : 0];
    }
    ASSIGN_OR_RETURN(uint32_t xf, Dequantized(op, x));
    return DefineFc(op, xf, y, lo, hi, wf.data());
  }
  // [K, N] -> [N, K] levels (XNNPACK's unflagged layout), one scale.
  std::vector<int8_t> nk(w.numel());
  TransposeBatches(levels, nk.data(), 1, K, N);
  const size_t fdims[2] = {size_t(N), size_t(K)};
  uint32_t filter = XNN_INVALID_VALUE_ID;
  RETURN_IF_ERROR(XnnCheck(xnn_define_quantized_tensor_value(subgraph_, xnn_datatype_qint8, 0,
                                                             w.quant.scales[0], 2, fdims,
                                                             Store(nk), XNN_INVALID_VALUE_ID, 0,
                                                             &filter),
                           op, "filter"));
  uint32_t bias = XNN_INVALID_VALUE_ID;
  if (op.inputs.size() > 2) {
    const float* b = model_.operands[op.inputs[2]].f32();
    const float bias_scale = xo.quant.scales[0] * w.quant.scales[0];
    std::vector<int32_t> q(N);
    for (int64_t n = 0; n < N; ++n) q[n] = static_cast<int32_t>(std::lround(b[n] / bias_scale));
    const size_t bdims[1] = {size_t(N)};
    RETURN_IF_ERROR(XnnCheck(xnn_define_quantized_tensor_value(subgraph_, xnn_datatype_qint32, 0,
                                                               bias_scale, 1, bdims, Store(q),
                                                               XNN_INVALID_VALUE_ID, 0, &bias),
                             op, "bias"));
  }
  return XnnCheck(xnn_define_fully_connected(subgraph_, lo, hi, x, filter, bias, y, 0), op,
                  "int8 fully connected");
}

Status XnnpackBuilder::DefineQuantizedConv(const Operation& op, int out, uint32_t x, uint32_t y,
                                           float lo, float hi) {
  const Operand& xo = model_.operands[op.inputs[0]];
  const Operand& f = model_.operands[op.inputs[1]];
  const int64_t O = f.dims[0], CG = f.dims[1], KH = f.dims[2], KW = f.dims[3];
  const std::vector<float> scales = ChannelScales(f);
  const int8_t* levels = reinterpret_cast<const int8_t*>(f.data.data());
  if (model_.operands[out].type != ElementType::kInt8) {
    // Float out: levels back to float32, then the float convolution.
    std::vector<float> w(f.numel());
    const int64_t per_channel = f.numel() / O;
    for (int64_t i = 0; i < f.numel(); ++i) w[i] = levels[i] * scales[i / per_channel];
    ASSIGN_OR_RETURN(uint32_t xf, Dequantized(op, x));
    return DefineConv(op, xf, y, lo, hi, w.data());
  }
  const int64_t C = xo.dims[1], groups = op.Int("groups", 1);
  const bool depthwise = groups == C && CG == 1 && groups > 1;
  const auto s = op.Ints("strides"), p = op.Ints("paddings"), dl = op.Ints("dilations");
  // Filter levels in XNNPACK's order: OHWI, or [1, KH, KW, O] for depthwise
  // (channels last, so the channel dim is 3).
  const std::vector<int8_t> nhwc =
      depthwise ? NhwcData(levels, {1, O, KH, KW}) : NhwcData(levels, f.dims);
  const std::vector<size_t> fdims = depthwise
      ? std::vector<size_t>{1, size_t(KH), size_t(KW), size_t(O)}
      : std::vector<size_t>{size_t(O), size_t(KH), size_t(KW), size_t(CG)};
  const float* scale_data = static_cast<const float*>(Store(scales));
  uint32_t filter = XNN_INVALID_VALUE_ID;
  RETURN_IF_ERROR(XnnCheck(xnn_define_channelwise_quantized_tensor_value(
                            subgraph_, xnn_datatype_qcint8, scale_data, fdims.size(),
                            depthwise ? 3 : 0, fdims.data(), Store(nhwc), XNN_INVALID_VALUE_ID,
                            0, &filter),
                        op, "filter"));
  uint32_t bias = XNN_INVALID_VALUE_ID;
  if (op.inputs.size() > 2) {
    const float* b = model_.operands[op.inputs[2]].f32();
    std::vector<float> bias_scales(O);
    std::vector<int32_t> q(O);
    for (int64_t c = 0; c < O; ++c) {
      bias_scales[c] = xo.quant.scales[0] * scales[c];
      q[c] = static_cast<int32_t>(std::lround(b[c] / bias_scales[c]));
    }
    const float* bias_scale_data = static_cast<const float*>(Store(bias_scales));
    const size_t bdims[1] = {size_t(O)};
    RETURN_IF_ERROR(XnnCheck(xnn_define_channelwise_quantized_tensor_value(
                              subgraph_, xnn_datatype_qcint32, bias_scale_data, 1, 0, bdims,
                              Store(q), XNN_INVALID_VALUE_ID, 0, &bias),
                          op, "bias"));
  }
  if (depthwise) {
    return XnnCheck(xnn_define_depthwise_convolution_2d(
                     subgraph_, U(p[0]), U(p[3]), U(p[1]), U(p[2]), U(KH), U(KW), U(s[0]), U(s[1]),
                     U(dl[0]), U(dl[1]), U(O / C), size_t(C), lo, hi, x, filter, bias, y, 0),
                 op, "int8 depthwise convolution");
  }
  return XnnCheck(xnn_define_convolution_2d(subgraph_, U(p[0]), U(p[3]), U(p[1]), U(p[2]), U(KH),
                                         U(KW), U(s[0]), U(s[1]), U(dl[0]), U(dl[1]), U(groups),
                                         size_t(CG), size_t(O / groups), lo, hi, x, filter, bias,
                                         y, 0),
               op, "int8 convolution");
}

}  // namespace npu
}  // namespace lite
