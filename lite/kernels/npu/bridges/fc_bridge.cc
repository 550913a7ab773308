// Bridges of fc, mul, matmul and matmul_v2 with a constant 2-D Y:
// kFullyConnected on X flattened to [M, K] (a kReshape when needed), the
// bias as a [N] constant, the output reshaped back, alpha as a kScale, the
// fused activation as a separate operation. A transposed Y is transposed
// once here; a transposed or batched X is not supported. The int8 form
// (bridge_quant.h: W / Y int8 levels with Filter_scales per output column
// N, Input_scale) becomes a quantize of the flattened X and a quantized
// kFullyConnected whose weights are quantized per channel along axis 1.
#include <cstring>

#include "lite/kernels/npu/bridges/bridge_quant.h"
#include "lite/kernels/npu/bridges/bridge_util.h"
#include "lite/operators/matmul_ops.h"

namespace lite {
namespace npu {

namespace {

int64_t Prod(const std::vector<int64_t>& d, size_t b, size_t e) {
  int64_t n = 1;
  for (size_t i = b; i < e && i < d.size(); ++i) n = d[i] < 0 || n < 0 ? -1 : n * d[i];
  return n;
}

// The weight operand of parameter `w_param`: float32, or int8 levels
// quantized along N when `int8` is enabled (and only then).
Status CheckWeight(const OpLite& op, BridgeContext* ctx, const std::string& w_param, int w,
                   const Int8Form& int8) {
  const ElementType t = ctx->model()->operands[w].type;
  const ElementType want = int8.enabled ? ElementType::kInt8 : ElementType::kFloat32;
  if (t == want) return Status::OK();
  return InvalidArgument(op.DebugName() + ": " + w_param + " holds " + ElementTypeName(t) +
                         (int8.enabled ? " but enable_int8 needs int8 levels"
                                       : " without enable_int8"));
}

// Emits out_var = act(alpha * (x2d [M,K] * w [K,N] + bias)) reshaped to
// out_var's dims; with `int8` enabled x2d is quantized and w holds levels.
Status EmitFc(OpLite* op, BridgeContext* ctx, const std::string& x_param, int x, int64_t m,
              int64_t k, const std::string& w_param, int w, int bias, float alpha,
              const operators::FusedActivation& act, const Int8Form& int8) {
  RETURN_IF_ERROR(CheckActivation(*op, act));
  RETURN_IF_ERROR(CheckWeight(*op, ctx, w_param, w, int8));
  const std::string out_var = OutVar(*op, "Out");
  const auto out_dims = ctx->Dims(out_var);
  const int64_t n = ctx->model()->operands[w].dims[1];
  int x2 = ctx->check_mode() ? x : Reshaped(ctx, *op, x, {m, k});
  if (int8.enabled) {
    RETURN_IF_ERROR(MarkChannelQuantized(*op, ctx, w_param, w, 1, int8.filter_scales));
    x2 = QuantizedInput(ctx, *op, x2, InVar(*op, x_param), int8.input_scale, int8.round_type);
  }
  std::vector<int> inputs{x2, w};
  if (bias >= 0) inputs.push_back(ctx->check_mode() ? bias : Reshaped(ctx, *op, bias, {n}));
  const bool reshape_out = out_dims != std::vector<int64_t>{m, n};
  const bool scale = alpha != 1.f;
  const bool direct = !reshape_out && !scale;
  int fc_out = direct ? MainOutput(ctx, out_var, act) : ctx->AddTemporary(out_var + "/fc", {m, n});
  ctx->AddOperation(*op, OperationType::kFullyConnected, inputs, {fc_out});
  if (direct) {
    FinishActivation(ctx, *op, out_var, fc_out, act);
    return Status::OK();
  }
  int cur = fc_out;
  if (scale) {
    int t = ctx->AddTemporary(out_var + "/alpha", {m, n});
    ctx->AddOperation(*op, OperationType::kScale, {cur}, {t}, {{"scale", alpha}, {"bias", 0.f}});
    cur = t;
  }
  int main = MainOutput(ctx, out_var, act);
  ctx->AddOperation(*op, OperationType::kReshape, {cur}, {main});
  FinishActivation(ctx, *op, out_var, main, act);
  return Status::OK();
}

Status FcBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::FcParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "Input"));
  ASSIGN_OR_RETURN(int w, ctx->ConstantOf(*op, "W"));
  int bias = -1;
  if (op->op_desc().HasInput("Bias")) {
    ASSIGN_OR_RETURN(bias, ctx->ConstantOf(*op, "Bias"));
  }
  ASSIGN_OR_RETURN(Int8Form int8, ReadInt8Form(*op));
  const auto xd = ctx->Dims(InVar(*op, "Input"));
  operators::FusedActivation act = p.act;
  if (p.relu && !act.enabled()) act.kind = operators::FusedActivation::kRelu;
  return EmitFc(op, ctx, "Input", x, Prod(xd, 0, p.in_num_col_dims),
                Prod(xd, p.in_num_col_dims, xd.size()), "W", w, bias, 1.f, act, int8);
}

Status MulBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::MulParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int y, ctx->ConstantOf(*op, "Y"));
  const auto yd = ctx->model()->operands[y].dims;
  if (yd.size() != 2 || p.y_num_col_dims != 1) {
    return Unimplemented(op->DebugName() + ": Y must be 2-D with y_num_col_dims 1");
  }
  ASSIGN_OR_RETURN(Int8Form int8, ReadInt8Form(*op));
  const auto xd = ctx->Dims(InVar(*op, "X"));
  return EmitFc(op, ctx, "X", x, Prod(xd, 0, p.x_num_col_dims),
                Prod(xd, p.x_num_col_dims, xd.size()), "Y", y, -1, 1.f, p.act, int8);
}

Status MatMulBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::MatMulParam*>(op->param());
  if (p.trans_x) return Unimplemented(op->DebugName() + ": transposed X is not supported");
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int y, ctx->ConstantOf(*op, "Y"));
  std::vector<int64_t> yd = ctx->model()->operands[y].dims;
  if (yd.size() != 2) {
    return Unimplemented(op->DebugName() + ": Y must be a 2-D constant, got rank " +
                         std::to_string(yd.size()));
  }
  const auto xd = ctx->Dims(InVar(*op, "X"));
  if (xd.size() < 2) return Unimplemented(op->DebugName() + ": X must have rank >= 2");
  ASSIGN_OR_RETURN(Int8Form int8, ReadInt8Form(*op));
  if (p.trans_y) {  // transpose the constant (float32 values or int8 levels) once
    const Operand& src = ctx->model()->operands[y];
    Operand t = src;
    t.dims = {yd[1], yd[0]};
    t.name += "/transposed";
    if (!ctx->check_mode()) {
      const size_t size = ElementSize(src.type);
      uint8_t* to = t.data.mutable_data();  // t's own copy
      for (int64_t i = 0; i < yd[0]; ++i) {
        for (int64_t j = 0; j < yd[1]; ++j) {
          std::memcpy(&to[(j * yd[0] + i) * size], &src.data[(i * yd[1] + j) * size], size);
        }
      }
    }
    // The untransposed levels stay an operand of the model: they carry
    // their quantization too (along N, dim 0 here).
    if (int8.enabled) {
      RETURN_IF_ERROR(MarkChannelQuantized(*op, ctx, "Y", y, 0, int8.filter_scales));
    }
    y = ctx->model()->AddOperand(std::move(t));
  }
  return EmitFc(op, ctx, "X", x, Prod(xd, 0, xd.size() - 1), xd.back(), "Y", y, -1, p.alpha,
                p.act, int8);
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(fc, lite::npu::FcBridge);
REGISTER_NPU_BRIDGE(mul, lite::npu::MulBridge);
REGISTER_NPU_BRIDGE(matmul, lite::npu::MatMulBridge);
REGISTER_NPU_BRIDGE(matmul_v2, lite::npu::MatMulBridge);
