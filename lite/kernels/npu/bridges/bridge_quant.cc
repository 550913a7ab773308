#include "lite/kernels/npu/bridges/bridge_quant.h"

#include <cmath>

namespace lite {
namespace npu {

StatusOr<Int8Form> ReadInt8Form(const OpLite& op) {
  const cpp::OpDesc& desc = op.op_desc();
  Int8Form form;
  form.enabled = desc.GetAttr<bool>("enable_int8", false);
  if (!form.enabled) return form;
  form.input_scale = desc.GetAttr<float>("Input_scale", 0.f);
  form.filter_scales = desc.GetAttr<std::vector<float>>("Filter_scales", {});
  form.round_type = desc.GetAttr<int32_t>("quant_round_type", 1);
  if (!(form.input_scale > 0.f) || !std::isfinite(form.input_scale)) {
    return InvalidArgument(op.DebugName() + ": enable_int8 needs Input_scale > 0, got " +
                           std::to_string(form.input_scale));
  }
  if (form.round_type != 0 && form.round_type != 1) {
    return InvalidArgument(op.DebugName() + ": quant_round_type must be 0 or 1, got " +
                           std::to_string(form.round_type));
  }
  return form;
}

Status MarkChannelQuantized(const OpLite& op, BridgeContext* ctx, const std::string& param,
                            int w, int axis, const std::vector<float>& filter_scales) {
  Operand& f = ctx->model()->operands[w];
  if (f.type != ElementType::kInt8 || axis >= static_cast<int>(f.dims.size()) ||
      static_cast<int64_t>(filter_scales.size()) != f.dims[axis]) {
    return InvalidArgument(op.DebugName() + ": enable_int8 needs an int8 " + param +
                           " with one Filter_scales value per output channel (dim " +
                           std::to_string(axis) + ")");
  }
  f.quant.kind = Quantization::kPerChannel;
  f.quant.axis = axis;
  f.quant.scales.clear();
  bool any_nonpositive = false;
  for (float s : filter_scales) {
    f.quant.scales.push_back(s == 0.f ? 1.f : std::fabs(s) / 127.f);
    any_nonpositive |= !(s > 0.f);
  }
  if (!any_nonpositive || f.data.empty()) return Status::OK();
  int64_t inner = 1;
  for (size_t d = axis + 1; d < f.dims.size(); ++d) inner *= f.dims[d];
  auto* levels = reinterpret_cast<int8_t*>(f.data.mutable_data());  // f's own copy
  const int64_t n = f.numel();
  for (int64_t i = 0; i < n; ++i) {
    const float s = filter_scales[(i / inner) % f.dims[axis]];
    if (s < 0.f) levels[i] = static_cast<int8_t>(-levels[i]);
    if (s == 0.f) levels[i] = 0;
  }
  return Status::OK();
}

int QuantizedInput(BridgeContext* ctx, const OpLite& op, int x, const std::string& var,
                   float input_scale, int round_type) {
  int xq = ctx->AddTemporary(var + "/int8", ctx->model()->operands[x].dims, ElementType::kInt8);
  Operand& q = ctx->model()->operands[xq];
  q.quant.kind = Quantization::kPerTensor;
  q.quant.scales = {input_scale / 127.f};
  ctx->AddOperation(op, OperationType::kQuantize, {x}, {xq},
                    {{"round_type", int64_t(round_type)}});
  return xq;
}

}  // namespace npu
}  // namespace lite
