#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

#include <cmath>
#include <limits>

namespace lite {
namespace npu {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();

Status Check(xnn_status s, const Operation& op, const char* what) {
  if (s == xnn_status_success) return Status::OK();
  return Internal(std::string("xnnpack: ") + what + " failed (xnn_status " +
                  std::to_string(static_cast<int>(s)) + ") for " + OperationTypeName(op.type) +
                  " from " + op.origin);
}

// NCHW data -> NHWC data for 4-D; copies otherwise.
std::vector<float> ToNhwc(const Operand& o) {
  const float* src = o.f32();
  const int64_t n = o.numel();
  if (o.dims.size() != 4) return std::vector<float>(src, src + n);
  const int64_t N = o.dims[0], C = o.dims[1], H = o.dims[2], W = o.dims[3];
  std::vector<float> dst(n);
  for (int64_t a = 0; a < N; ++a)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w)
          dst[((a * H + h) * W + w) * C + c] = src[((a * C + c) * H + h) * W + w];
  return dst;
}
}  // namespace

std::vector<size_t> XnnDims(const std::vector<int64_t>& d) {
  if (d.size() == 4) return {size_t(d[0]), size_t(d[2]), size_t(d[3]), size_t(d[1])};
  if (d.empty()) return {1};
  return std::vector<size_t>(d.begin(), d.end());
}

XnnpackBuilder::XnnpackBuilder(const Model& model, xnn_subgraph_t subgraph,
                               std::vector<std::vector<float>>* constants)
    : model_(model), subgraph_(subgraph), constants_(constants),
      ids_(model.operands.size(), XNN_INVALID_VALUE_ID),
      consumers_(model.operands.size(), 0), skipped_(model.operations.size(), false),
      defined_(model.operands.size(), false) {
  for (const Operation& op : model.operations) {
    for (int idx : op.inputs) ++consumers_[idx];
  }
  for (size_t i = 0; i < model.inputs.size(); ++i) ids_[model.inputs[i]] = static_cast<uint32_t>(i);
  for (size_t i = 0; i < model.outputs.size(); ++i) {
    ids_[model.outputs[i]] = static_cast<uint32_t>(model.inputs.size() + i);
  }
}

uint32_t XnnpackBuilder::ConstantValue(std::vector<float> data, const std::vector<size_t>& dims) {
  constants_->push_back(std::move(data));
  uint32_t id = XNN_INVALID_VALUE_ID;
  xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(),
                          constants_->back().data(), XNN_INVALID_VALUE_ID, 0, &id);
  return id;
}

StatusOr<uint32_t> XnnpackBuilder::Value(int idx) {
  const Operand& o = model_.operands[idx];
  const std::vector<size_t> dims = XnnDims(o.dims);
  if (o.lifetime == Lifetime::kConstant) {
    if (ids_[idx] == XNN_INVALID_VALUE_ID) ids_[idx] = ConstantValue(ToNhwc(o), dims);
    return ids_[idx];
  }
  const bool external = o.lifetime == Lifetime::kModelInput || o.lifetime == Lifetime::kModelOutput;
  uint32_t& id = ids_[idx];
  // External ids are assigned up front, so "defined" is tracked apart.
  if (defined_[idx]) return id;
  const uint32_t flags = o.lifetime == Lifetime::kModelInput    ? XNN_VALUE_FLAG_EXTERNAL_INPUT
                         : o.lifetime == Lifetime::kModelOutput ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT
                                                                : 0;
  uint32_t out_id = XNN_INVALID_VALUE_ID;
  xnn_status s = xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(),
                                         nullptr, external ? id : XNN_INVALID_VALUE_ID, flags,
                                         &out_id);
  if (s != xnn_status_success) {
    return Internal("xnnpack: defining operand " + o.name + " failed (xnn_status " +
                    std::to_string(static_cast<int>(s)) + ")");
  }
  id = out_id;
  defined_[idx] = true;
  return id;
}

void XnnpackBuilder::FoldClamp(size_t op_index, int* out, float* lo, float* hi) {
  *lo = -kInf;
  *hi = kInf;
  const int o = model_.operations[op_index].outputs[0];
  *out = o;
  if (model_.operands[o].lifetime != Lifetime::kTemporary || consumers_[o] != 1) return;
  for (size_t k = op_index + 1; k < model_.operations.size(); ++k) {
    const Operation& next = model_.operations[k];
    if (next.inputs.empty() || next.inputs[0] != o) continue;
    if (next.type == OperationType::kRelu) {
      *lo = 0;
    } else if (next.type == OperationType::kRelu6) {
      *lo = 0;
      *hi = 6;
    } else if (next.type == OperationType::kClip) {
      *lo = next.Float("min");
      *hi = next.Float("max");
    } else {
      return;
    }
    skipped_[k] = true;
    *out = next.outputs[0];
    return;
  }
}

Status XnnpackBuilder::Build() {
  for (size_t i = 0; i < model_.operations.size(); ++i) {
    if (skipped_[i]) continue;
    RETURN_IF_ERROR(Define(i));
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
