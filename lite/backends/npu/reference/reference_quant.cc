// Quantized operations of the reference driver: quantize, and conv2d /
// fully_connected on int8 levels with int32 accumulation, rescaled per
// output channel (the arithmetic nn_ir.h states). Also the rule for which
// operands the reference driver accepts.
#include <algorithm>
#include <cmath>

#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {
namespace reference {

namespace {

float RoundHalfAway(float v) { return std::round(v); }

float RoundTiesEven(float v) { return std::nearbyint(v); }  // default FE_TONEAREST

bool IsQuantized(const Operand& o) { return o.type == ElementType::kInt8; }

// The scale of output channel c of a filter quantized along `axis`.
float ChannelScale(const Quantization& q, int64_t c) {
  return q.kind == Quantization::kPerChannel ? q.scales[c] : q.scales[0];
}

Status QuantizedOperandsFit(const Model& model, const Operation& op) {
  const std::string name = OperationTypeName(op.type);
  const Operand& x = model.operands[op.inputs[0]];
  const Operand& f = model.operands[op.inputs[1]];
  const Operand& out = model.operands[op.outputs[0]];
  if (!IsQuantized(x) || !IsQuantized(f) || x.quant.kind != Quantization::kPerTensor) {
    return Unimplemented(name + ": a quantized " + name + " takes per-tensor int8 " + x.name +
                         " and int8 " + f.name);
  }
  const int32_t channel_axis = op.type == OperationType::kConv2D ? 0 : 1;
  if (f.quant.kind == Quantization::kPerChannel && f.quant.axis != channel_axis) {
    return Unimplemented(name + ": filter " + f.name + " quantized along axis " +
                         std::to_string(f.quant.axis) + ", expected " +
                         std::to_string(channel_axis));
  }
  if (op.inputs.size() > 2 && model.operands[op.inputs[2]].type != ElementType::kFloat32) {
    return Unimplemented(name + ": bias must be float32");
  }
  if (IsQuantized(out) && out.quant.kind != Quantization::kPerTensor) {
    return Unimplemented(name + ": an int8 output must be quantized per tensor");
  }
  return Status::OK();
}

// out[i] for accumulator acc[i] of output channel c: float32, or requantized
// into per-tensor int8.
class OutputWriter {
 public:
  OutputWriter(const Operand& x, const Operand& f, const Operand& out, const float* bias,
               void* data)
      : xq_(x.quant), fq_(f.quant), out_(out), bias_(bias), data_(data) {}
  void Write(int64_t i, int64_t c, int32_t acc) const {
    float v = static_cast<float>(acc) * xq_.scales[0] * ChannelScale(fq_, c);
    if (bias_) v += bias_[c];
    if (!IsQuantized(out_)) {
      static_cast<float*>(data_)[i] = v;
      return;
    }
    const float level = RoundHalfAway(v / out_.quant.scales[0]) + out_.quant.zero_point;
    static_cast<int8_t*>(data_)[i] = static_cast<int8_t>(std::min(std::max(level, -128.f), 127.f));
  }

 private:
  const Quantization& xq_;
  const Quantization& fq_;
  const Operand& out_;
  const float* bias_;
  void* data_;
};

}  // namespace

Status CheckOperandTypes(const Model& model, const Operation& op) {
  const std::string name = OperationTypeName(op.type);
  if (op.type == OperationType::kQuantize) {
    const Operand& x = model.operands[op.inputs[0]];
    const Operand& out = model.operands[op.outputs[0]];
    if (x.type != ElementType::kFloat32 || !IsQuantized(out) ||
        out.quant.kind != Quantization::kPerTensor) {
      return Unimplemented(name + ": float32 " + x.name + " to per-tensor int8 " + out.name +
                           " only");
    }
    const int64_t round_type = op.Int("round_type", 1);
    if (round_type != 0 && round_type != 1) {
      return Unimplemented(name + ": round_type " + std::to_string(round_type));
    }
    return Status::OK();
  }
  const bool int8_capable =
      op.type == OperationType::kConv2D || op.type == OperationType::kFullyConnected;
  bool any_int8 = false;
  for (const auto* list : {&op.inputs, &op.outputs}) {
    for (int idx : *list) {
      const Operand& o = model.operands[idx];
      any_int8 |= IsQuantized(o);
      if (o.type != ElementType::kFloat32 && !IsQuantized(o)) {
        return Unimplemented(name + " on " + ElementTypeName(o.type) + " operand " + o.name +
                             ": only float32 (and int8 for quantized conv2d / "
                             "fully_connected) is supported");
      }
    }
  }
  if (!any_int8) return Status::OK();
  if (!int8_capable) {
    return Unimplemented(name + " on int8 operands: only quantize, conv2d and fully_connected "
                                "take them");
  }
  return QuantizedOperandsFit(model, op);
}

void RunQuantize(const Operation& op, const float* x, int64_t n, const Quantization& q,
                 int8_t* out) {
  const float inv = 1.f / q.scales[0];
  const bool ties_even = op.Int("round_type", 1) == 0;
  for (int64_t i = 0; i < n; ++i) {
    float level = ties_even ? RoundTiesEven(x[i] * inv)
                            : RoundHalfAway(std::min(std::max(x[i] * inv, -127.f), 127.f));
    if (ties_even) level = std::min(std::max(level, -128.f), 127.f);
    level = std::min(std::max(level + q.zero_point, -128.f), 127.f);
    out[i] = static_cast<int8_t>(level);
  }
}

Status RunQuantizedConvolution(const Model& model, const Operation& op,
                               const std::vector<const void*>& in, void* out) {
  const Operand& x = model.operands[op.inputs[0]];
  const Operand& f = model.operands[op.inputs[1]];
  const Operand& y = model.operands[op.outputs[0]];
  const float* bias = in.size() > 2 ? static_cast<const float*>(in[2]) : nullptr;
  std::vector<int32_t> acc(y.numel());
  RETURN_IF_ERROR(AccumulateQuantizedConvolution(
      op, static_cast<const int8_t*>(in[0]), x.dims, x.quant.zero_point,
      static_cast<const int8_t*>(in[1]), f.dims, y.dims, acc.data()));
  const OutputWriter writer(x, f, y, bias, out);
  const int64_t O = y.dims[1], plane = y.dims[2] * y.dims[3];
  for (int64_t i = 0; i < y.numel(); ++i) writer.Write(i, (i / plane) % O, acc[i]);
  return Status::OK();
}

Status RunQuantizedFullyConnected(const Model& model, const Operation& op,
                                  const std::vector<const void*>& in, void* out) {
  const Operand& x = model.operands[op.inputs[0]];
  const Operand& w = model.operands[op.inputs[1]];
  const Operand& y = model.operands[op.outputs[0]];
  const auto* xd = static_cast<const int8_t*>(in[0]);
  const auto* wd = static_cast<const int8_t*>(in[1]);
  const float* bias = in.size() > 2 ? static_cast<const float*>(in[2]) : nullptr;
  const int64_t M = x.dims[0], K = x.dims[1], N = w.dims[1];
  const int32_t zx = x.quant.zero_point;
  const OutputWriter writer(x, w, y, bias, out);
  std::vector<int32_t> row(N);
  for (int64_t m = 0; m < M; ++m) {
    std::fill(row.begin(), row.end(), 0);
    for (int64_t k = 0; k < K; ++k) {
      const int32_t xv = int32_t(xd[m * K + k]) - zx;
      for (int64_t n = 0; n < N; ++n) row[n] += xv * int32_t(wd[k * N + n]);
    }
    for (int64_t n = 0; n < N; ++n) writer.Write(m * N + n, n, row[n]);
  }
  return Status::OK();
}

}  // namespace reference
}  // namespace npu
}  // namespace lite
