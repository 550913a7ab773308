#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

#include <cmath>
#include <limits>

namespace lite {
namespace npu {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

void NchwToNhwc(const float* src, float* dst, const std::vector<int64_t>& d) {
  const int64_t N = d[0], C = d[1], HW = d[2] * d[3];
  for (int64_t n = 0; n < N; ++n) {
    const float* s = src + n * C * HW;
    float* t = dst + n * C * HW;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < HW; ++i) t[i * C + c] = s[c * HW + i];
  }
}

void NhwcToNchw(const float* src, float* dst, const std::vector<int64_t>& d) {
  const int64_t N = d[0], C = d[1], HW = d[2] * d[3];
  for (int64_t n = 0; n < N; ++n) {
    const float* s = src + n * C * HW;
    float* t = dst + n * C * HW;
    for (int64_t i = 0; i < HW; ++i)
      for (int64_t c = 0; c < C; ++c) t[c * HW + i] = s[i * C + c];
  }
}

std::vector<float> NhwcData(const float* src, const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  if (d.size() != 4) return std::vector<float>(src, src + n);
  std::vector<float> dst(n);
  NchwToNhwc(src, dst.data(), d);
  return dst;
}

std::vector<size_t> XnnDims(const std::vector<int64_t>& d) {
  if (d.size() == 4) return {size_t(d[0]), size_t(d[2]), size_t(d[3]), size_t(d[1])};
  if (d.empty()) return {1};
  return std::vector<size_t>(d.begin(), d.end());
}

XnnpackBuilder::XnnpackBuilder(const Model& model, xnn_subgraph_t subgraph,
                               std::vector<std::vector<float>>* constants,
                               const std::map<int, uint32_t>& externals,
                               const std::set<int>& segment_inputs)
    : model_(model), subgraph_(subgraph), constants_(constants),
      ids_(model.operands.size(), XNN_INVALID_VALUE_ID),
      consumers_(model.operands.size(), 0), skipped_(model.operations.size(), false),
      externals_(externals), segment_inputs_(segment_inputs),
      defined_(model.operands.size(), false) {
  for (const Operation& op : model.operations) {
    for (int idx : op.inputs) ++consumers_[idx];
  }
  for (const auto& kv : externals_) ids_[kv.first] = kv.second;
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
    if (ids_[idx] == XNN_INVALID_VALUE_ID) ids_[idx] = ConstantValue(NhwcData(o.f32(), o.dims), dims);
    return ids_[idx];
  }
  const bool external = externals_.count(idx) > 0;
  uint32_t& id = ids_[idx];
  // External ids are assigned up front, so "defined" is tracked apart.
  if (defined_[idx]) return id;
  const uint32_t flags = !external                     ? 0
                         : segment_inputs_.count(idx) ? XNN_VALUE_FLAG_EXTERNAL_INPUT
                                                      : XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
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
  if (model_.operands[o].lifetime != Lifetime::kTemporary || consumers_[o] != 1 ||
      externals_.count(o)) {
    return;
  }
  for (size_t k = op_index + 1; k < model_.operations.size(); ++k) {
    const Operation& next = model_.operations[k];
    if (!in_segment_.count(k)) continue;
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

Status XnnpackBuilder::Build(const std::vector<size_t>& ops) {
  in_segment_.insert(ops.begin(), ops.end());
  for (size_t i : ops) {
    if (skipped_[i]) continue;
    RETURN_IF_ERROR(Define(i));
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite
