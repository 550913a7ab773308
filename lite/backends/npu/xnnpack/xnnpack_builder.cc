#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace lite {
namespace npu {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

Status XnnCheck(xnn_status s, const Operation& op, const char* what) {
  if (s == xnn_status_success) return Status::OK();
  return Internal(std::string("xnnpack: ") + what + " failed (xnn_status " +
                  std::to_string(static_cast<int>(s)) + ") for " + OperationTypeName(op.type) +
                  " from " + op.origin);
}

namespace {
bool Reordered(const std::vector<int64_t>& d) {
  return d.size() == 4 && d[1] != 1 && d[2] * d[3] != 1;
}
size_t Count(const std::vector<int64_t>& d) {
  size_t n = 1;
  for (int64_t v : d) n *= static_cast<size_t>(v);
  return n;
}
}  // namespace

void ToStored(const float* src, float* dst, const std::vector<int64_t>& d) {
  if (Reordered(d)) {
    NchwToNhwc(src, dst, d);
  } else {
    std::memcpy(dst, src, sizeof(float) * Count(d));
  }
}

void FromStored(const float* src, float* dst, const std::vector<int64_t>& d) {
  if (Reordered(d)) {
    NhwcToNchw(src, dst, d);
  } else {
    std::memcpy(dst, src, sizeof(float) * Count(d));
  }
}

void NhwcPaddings(const std::vector<int64_t>& pads, std::vector<size_t>* pre,
                  std::vector<size_t>* post) {
  const size_t rank = pads.size() / 2;
  pre->assign(rank, 0);
  post->assign(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    (*pre)[i] = size_t(pads[2 * i]);
    (*post)[i] = size_t(pads[2 * i + 1]);
  }
  if (rank == 4) {  // NCHW -> NHWC order
    *pre = {(*pre)[0], (*pre)[2], (*pre)[3], (*pre)[1]};
    *post = {(*post)[0], (*post)[2], (*post)[3], (*post)[1]};
  }
}

void BatchNormAffine(const Model& model, const Operation& op, std::vector<float>* k,
                     std::vector<float>* b) {
  const int64_t C = model.operands[op.inputs[0]].dims[1];
  const float* sc = model.operands[op.inputs[1]].f32();
  const float* bi = model.operands[op.inputs[2]].f32();
  const float* mean = model.operands[op.inputs[3]].f32();
  const float* var = model.operands[op.inputs[4]].f32();
  const float eps = op.Float("epsilon", 1e-5f);
  k->resize(C);
  b->resize(C);
  for (int64_t c = 0; c < C; ++c) {
    (*k)[c] = sc[c] / std::sqrt(var[c] + eps);
    (*b)[c] = bi[c] - mean[c] * (*k)[c];
  }
}

std::vector<size_t> XnnDims(const std::vector<int64_t>& d) {
  if (d.size() == 4) return {size_t(d[0]), size_t(d[2]), size_t(d[3]), size_t(d[1])};
  if (d.empty()) return {1};
  return std::vector<size_t>(d.begin(), d.end());
}

XnnpackBuilder::XnnpackBuilder(const Model& model, xnn_subgraph_t subgraph,
                               ConstantStore* constants,
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

uint32_t XnnpackBuilder::ConstantValue(const std::vector<float>& data,
                                       const std::vector<size_t>& dims) {
  uint32_t id = XNN_INVALID_VALUE_ID;
  xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), Store(data),
                          XNN_INVALID_VALUE_ID, 0, &id);
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
  const uint32_t external_id = external ? id : XNN_INVALID_VALUE_ID;
  xnn_status s =
      o.type == ElementType::kInt8
          ? xnn_define_quantized_tensor_value(subgraph_, xnn_datatype_qint8, o.quant.zero_point,
                                              o.quant.scales[0], dims.size(), dims.data(),
                                              nullptr, external_id, flags, &out_id)
          : xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(),
                                    nullptr, external_id, flags, &out_id);
  if (s != xnn_status_success) {
    return Internal("xnnpack: defining operand " + o.name + " failed (xnn_status " +
                    std::to_string(static_cast<int>(s)) + ")");
  }
  id = out_id;
  defined_[idx] = true;
  return id;
}

int XnnpackBuilder::SoleConsumer(size_t op_index, int o) const {
  if (model_.operands[o].lifetime != Lifetime::kTemporary || consumers_[o] != 1 ||
      externals_.count(o)) {
    return -1;
  }
  for (size_t k = op_index + 1; k < model_.operations.size(); ++k) {
    const Operation& next = model_.operations[k];
    if (in_segment_.count(k) && !next.inputs.empty() && next.inputs[0] == o) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

void XnnpackBuilder::FoldClamp(size_t op_index, int* out, float* lo, float* hi) {
  *lo = -kInf;
  *hi = kInf;
  const int o = model_.operations[op_index].outputs[0];
  *out = o;
  const int k = SoleConsumer(op_index, o);
  if (k < 0) return;
  const Operation& next = model_.operations[k];
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
