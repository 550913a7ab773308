// Bridges of conv2d, depthwise_conv2d, conv2d_transpose and
// depthwise_conv2d_transpose: kConv2D / kConv2DTranspose with constant filter
// and bias, effective (SAME/VALID-resolved) paddings and dilations, and the
// fused activation as a separate operation. An int8 conv (enable_int8, set
// by quant_dequant_fuse_pass) becomes quantize + a quantized kConv2D with the
// int8 filter levels and their per-channel scales (nn_ir.h).
#include "lite/kernels/npu/bridges/bridge_quant.h"
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/conv_op.h"
#include "lite/operators/conv_transpose_op.h"

namespace lite {
namespace npu {

namespace {

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
    // The int8 form (conv_op.h): Filter levels with Filter_scales per
    // output channel, Input quantized with Input_scale.
    RETURN_IF_ERROR(MarkChannelQuantized(*op, ctx, "Filter", filter, 0, p.filter_scales));
    x = QuantizedInput(ctx, *op, x, InVar(*op, "Input"), p.input_scale, p.quant_round_type);
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
