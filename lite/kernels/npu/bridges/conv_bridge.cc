// Bridges of conv2d, depthwise_conv2d, conv2d_transpose and
// depthwise_conv2d_transpose: kConv2D / kConv2DTranspose with constant filter
// and bias, effective (SAME/VALID-resolved) paddings and dilations, and the
// fused activation as a separate operation. An int8 conv (enable_int8, set
// by quant_dequant_fuse_pass) becomes quantize + a quantized kConv2D with the
// int8 filter levels and their per-channel scales (nn_ir.h).
#include <cmath>

#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/conv_op.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace npu {

namespace {

// The int8 form (conv_op.h): Filter holds int8 levels with Filter_scales[c]
// / 127 per output channel; Input is quantized with Input_scale / 127 by a
// quantize operation. Returns the quantized input operand.
StatusOr<int> QuantizeConvInput(OpLite* op, BridgeContext* ctx, const operators::ConvParam& p,
                                int x, int filter) {
  Operand& f = ctx->model()->operands[filter];
  if (f.type != ElementType::kInt8 || f.dims.empty() ||
      static_cast<int64_t>(p.filter_scales.size()) != f.dims[0]) {
    return InvalidArgument(op->DebugName() + ": enable_int8 needs an int8 Filter with one "
                           "Filter_scales value per output channel");
  }
  // conv_bn_fuse_pass folds batch-norm scales into Filter_scales, which may
  // then be negative or zero; NN IR scales are > 0: a negative channel's
  // levels change sign (they lie in [-127, 127]), a zero channel's become 0.
  f.quant.kind = Quantization::kPerChannel;
  f.quant.axis = 0;
  const int64_t per_channel = f.dims[0] > 0 ? f.numel() / f.dims[0] : 0;
  for (int64_t c = 0; c < f.dims[0]; ++c) {
    const float s = p.filter_scales[c];
    f.quant.scales.push_back(s == 0.f ? 1.f : std::fabs(s) / 127.f);
    if (s > 0.f || f.data.empty()) continue;
    auto* levels = reinterpret_cast<int8_t*>(f.data.data()) + c * per_channel;
    for (int64_t i = 0; i < per_channel; ++i) levels[i] = s < 0.f ? -levels[i] : 0;
  }
  const std::string x_var = InVar(*op, "Input");
  int xq = ctx->AddTemporary(x_var + "/int8", ctx->model()->operands[x].dims, ElementType::kInt8);
  Operand& q = ctx->model()->operands[xq];
  q.quant.kind = Quantization::kPerTensor;
  q.quant.scales = {p.input_scale / 127.f};
  ctx->AddOperation(*op, OperationType::kQuantize, {x}, {xq},
                    {{"round_type", int64_t(p.quant_round_type)}});
  return xq;
}

Status ConvBridge(OpLite* op, BridgeContext* ctx) {
  const bool transpose = op->Type().find("transpose") != std::string::npos;
  auto& p = *static_cast<operators::ConvParam*>(op->param());
  if (p.data_format != "NCHW" && p.data_format != "AnyLayout") {
    return Unimplemented(op->DebugName() + ": data_format " + p.data_format + " is not supported");
  }
  if (p.groups < 1) return Unimplemented(op->DebugName() + ": groups must be >= 1");
  RETURN_IF_ERROR(CheckActivation(*op, p.act));
  if (transpose) {
    auto& t = *static_cast<operators::ConvTransposeParam*>(op->param());
    if (t.output_size_tensor && !ctx->IsConstant(InVar(*op, "OutputSize"))) {
      return Unimplemented(op->DebugName() + ": OutputSize given as a tensor is not supported");
    }
  }
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "Input"));
  ASSIGN_OR_RETURN(int filter, ctx->ConstantOf(*op, "Filter"));
  if (p.enable_int8) {
    if (transpose) return Unimplemented(op->DebugName() + ": an int8 conv2d_transpose is not supported");
    ASSIGN_OR_RETURN(x, QuantizeConvInput(op, ctx, p, x, filter));
  }
  std::vector<int> inputs{x, filter};
  if (op->op_desc().HasInput("Bias")) {
    ASSIGN_OR_RETURN(int bias, ctx->ConstantOf(*op, "Bias"));
    const auto dims = ctx->model()->operands[bias].dims;
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    inputs.push_back(Reshaped(ctx, *op, bias, {n}));
  }
  // Build mode: InferShape resolved the window for the current dims.
  const bool built = !ctx->check_mode();
  std::map<std::string, AttrValue> attrs{
      {"strides", ToInt64(p.strides)},
      {"paddings", ToInt64(built ? p.eff_paddings : p.paddings)},
      {"dilations", ToInt64(built ? p.eff_dilations : p.dilations)},
      {"groups", int64_t(p.groups)}};
  const std::string out_var = OutVar(*op, "Output");
  int main = MainOutput(ctx, out_var, p.act);
  ctx->AddOperation(*op, transpose ? OperationType::kConv2DTranspose : OperationType::kConv2D,
                    inputs, {main}, attrs);
  FinishActivation(ctx, *op, out_var, main, p.act);
  return Status::OK();
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(conv2d, lite::npu::ConvBridge);
REGISTER_NPU_BRIDGE(depthwise_conv2d, lite::npu::ConvBridge);
REGISTER_NPU_BRIDGE(conv2d_transpose, lite::npu::ConvBridge);
REGISTER_NPU_BRIDGE(depthwise_conv2d_transpose, lite::npu::ConvBridge);
