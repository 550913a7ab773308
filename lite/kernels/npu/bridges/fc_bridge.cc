// Bridges of fc, mul, matmul and matmul_v2 with a constant 2-D Y:
// kFullyConnected on X flattened to [M, K] (a kReshape when needed), the
// bias as a [N] constant, the output reshaped back, alpha as a kScale, the
// fused activation as a separate operation. A transposed Y is transposed
// once here; a transposed or batched X is not supported.
#include <cstring>

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

// Emits out_var = act(alpha * (x2d [M,K] * w [K,N] + bias)) reshaped to
// out_var's dims.
Status EmitFc(OpLite* op, BridgeContext* ctx, int x, int64_t m, int64_t k, int w, int bias,
              float alpha, const operators::FusedActivation& act) {
  RETURN_IF_ERROR(CheckActivation(*op, act));
  const std::string out_var = OutVar(*op, "Out");
  const auto out_dims = ctx->Dims(out_var);
  const int64_t n = ctx->model()->operands[w].dims[1];
  int x2 = ctx->check_mode() ? x : Reshaped(ctx, *op, x, {m, k});
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
  const auto xd = ctx->Dims(InVar(*op, "Input"));
  operators::FusedActivation act = p.act;
  if (p.relu && !act.enabled()) act.kind = operators::FusedActivation::kRelu;
  return EmitFc(op, ctx, x, Prod(xd, 0, p.in_num_col_dims), Prod(xd, p.in_num_col_dims, xd.size()),
                w, bias, 1.f, act);
}

Status MulBridge(OpLite* op, BridgeContext* ctx) {
  auto& p = *static_cast<operators::MulParam*>(op->param());
  ASSIGN_OR_RETURN(int x, ctx->InputOf(*op, "X"));
  ASSIGN_OR_RETURN(int y, ctx->ConstantOf(*op, "Y"));
  const auto yd = ctx->model()->operands[y].dims;
  if (yd.size() != 2 || p.y_num_col_dims != 1) {
    return Unimplemented(op->DebugName() + ": Y must be 2-D with y_num_col_dims 1");
  }
  const auto xd = ctx->Dims(InVar(*op, "X"));
  return EmitFc(op, ctx, x, Prod(xd, 0, p.x_num_col_dims), Prod(xd, p.x_num_col_dims, xd.size()),
                y, -1, 1.f, p.act);
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
  if (p.trans_y) {  // transpose the constant once
    Operand t = ctx->model()->operands[y];
    t.dims = {yd[1], yd[0]};
    t.name += "/transposed";
    if (!ctx->check_mode()) {
      const float* src = ctx->model()->operands[y].f32();
      std::vector<float> dst(yd[0] * yd[1]);
      for (int64_t i = 0; i < yd[0]; ++i) {
        for (int64_t j = 0; j < yd[1]; ++j) dst[j * yd[0] + i] = src[i * yd[1] + j];
      }
      std::memcpy(t.data.data(), dst.data(), dst.size() * sizeof(float));
    }
    y = ctx->model()->AddOperand(std::move(t));
  }
  return EmitFc(op, ctx, x, Prod(xd, 0, xd.size() - 1), xd.back(), y, -1, p.alpha, p.act);
}

}  // namespace

}  // namespace npu
}  // namespace lite

REGISTER_NPU_BRIDGE(fc, lite::npu::FcBridge);
REGISTER_NPU_BRIDGE(mul, lite::npu::MulBridge);
REGISTER_NPU_BRIDGE(matmul, lite::npu::MatMulBridge);
REGISTER_NPU_BRIDGE(matmul_v2, lite::npu::MatMulBridge);
