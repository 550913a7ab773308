// XnnpackBuilder: defines a segment of an NN IR Model as one XNNPACK
// subgraph (values and nodes), with 4-D operands as NHWC and constants
// transformed once. Used by XnnpackDriver::Compile; owns nothing but what it
// hands to the caller.
#pragma once

#include <xnnpack.h>

#include <map>
#include <memory>
#include <set>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

// dst[b][j][i] = src[b][i][j] for `batches` row-major rows x cols matrices.
template <typename T>
void TransposeBatches(const T* src, T* dst, int64_t batches, int64_t rows, int64_t cols) {
  for (int64_t b = 0; b < batches; ++b) {
    const T* s = src + b * rows * cols;
    T* t = dst + b * rows * cols;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = s[i * cols + j];
  }
}
// NCHW <-> NHWC copies of one 4-D tensor whose NCHW dims are `d`.
template <typename T>
void NchwToNhwc(const T* src, T* dst, const std::vector<int64_t>& d) {
  TransposeBatches(src, dst, d[0], d[1], d[2] * d[3]);
}
inline void NhwcToNchw(const float* src, float* dst, const std::vector<int64_t>& d) {
  TransposeBatches(src, dst, d[0], d[2] * d[3], d[1]);
}
// `src` (NCHW dims `d`) in the driver's storage order: NHWC when 4-D, else
// as is. How every constant (float32 or int8 levels) reaches XNNPACK or the
// driver's own kernels.
template <typename T>
std::vector<T> NhwcData(const T* src, const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  if (d.size() != 4) return std::vector<T>(src, src + n);
  std::vector<T> dst(n);
  NchwToNhwc(src, dst.data(), d);
  return dst;
}

// A model input converted into the driver's storage order (NHWC when 4-D
// and the orders differ, else copied), and a stored output back.
void ToStored(const float* src, float* dst, const std::vector<int64_t>& d);
void FromStored(const float* src, float* dst, const std::vector<int64_t>& d);

// pad's NCHW "paddings" (before/after per axis) as XNNPACK's NHWC pre and
// post paddings.
void NhwcPaddings(const std::vector<int64_t>& pads, std::vector<size_t>* pre,
                  std::vector<size_t>* post);
// batch_norm (inputs x, scale, bias, mean, variance) as y = x * k + b per
// channel.
void BatchNormAffine(const Model& model, const Operation& op, std::vector<float>* k,
                     std::vector<float>* b);

// Transformed constant data handed to XNNPACK (float32, int8 levels, int32
// biases as bytes); must outlive the subgraphs and runtimes using it.
using ConstantStore = std::vector<std::vector<uint8_t>>;

class XnnpackBuilder {
 public:
  // Defines operations `ops` (a segment of the model) into `subgraph`.
  // `externals` maps the operands crossing the segment's boundary to their
  // external value ids; `segment_inputs` says which of them are read (the
  // others are written). `constants` receives every transformed constant
  // buffer; they must outlive the subgraph and its runtime.
  XnnpackBuilder(const Model& model, xnn_subgraph_t subgraph,
                 ConstantStore* constants,
                 const std::map<int, uint32_t>& externals, const std::set<int>& segment_inputs);
  Status Build(const std::vector<size_t>& ops);

 private:
  StatusOr<uint32_t> Value(int operand);
  uint32_t ConstantValue(const std::vector<float>& data, const std::vector<size_t>& dims);
  // Keeps `data` in the constant store; the stored copy's address.
  template <typename T>
  const void* Store(const std::vector<T>& data) {
    const auto* p = reinterpret_cast<const uint8_t*>(data.data());
    constants_->emplace_back(p, p + data.size() * sizeof(T));
    return constants_->back().data();
  }
  // Output bounds folded from a following relu/relu6/clip; sets *out to the
  // operand the node must write.
  void FoldClamp(size_t op_index, int* out, float* lo, float* hi);
  // The operation in this segment that alone reads temporary `operand`, or
  // -1 (also when `operand` crosses the segment).
  int SoleConsumer(size_t op_index, int operand) const;
  // A quantized conv2d / fully_connected writing `*out` that only a quantize
  // reads writes the quantize's int8 output instead (xnnpack_quant.cc).
  void FoldQuantize(size_t op_index, int* out);
  Status DefineQuantize(const Operation& op, uint32_t x, uint32_t y);
  Status DefineQuantizedConv(const Operation& op, int out, uint32_t x, uint32_t y, float lo,
                             float hi);
  Status DefineQuantizedFc(const Operation& op, int out, uint32_t x, uint32_t y, float lo,
                           float hi);
  // Int8 `x` converted to a new float32 value (the float simulation path).
  StatusOr<uint32_t> Dequantized(const Operation& op, uint32_t x);
  Status Define(size_t op_index);
  // `weights`: the filter as float32 in the model's layout (nullptr: the
  // filter operand's own data).
  Status DefineConv(const Operation& op, uint32_t x, uint32_t y, float lo, float hi,
                    const float* weights = nullptr);
  Status DefineFc(const Operation& op, uint32_t x, uint32_t y, float lo, float hi,
                  const float* weights = nullptr);
  Status DefineDeconv(const Operation& op, uint32_t x, uint32_t y, float lo, float hi);
  Status DefinePool(const Operation& op, uint32_t x, uint32_t y, float lo, float hi);
  // Constant operand `idx` seen in the NHWC world of a 4-D output
  // (broadcast dims expanded to rank 4 and permuted).
  uint32_t BroadcastConstant(int idx, size_t out_rank);

  const Model& model_;
  xnn_subgraph_t subgraph_;
  ConstantStore* constants_;
  std::vector<uint32_t> ids_;
  std::vector<int> consumers_;
  std::vector<bool> skipped_;  // operations folded into their producer
  std::map<int, uint32_t> externals_;
  std::set<int> segment_inputs_;
  std::set<size_t> in_segment_;
  std::vector<bool> defined_;  // operands with an XNNPACK value
};

// An XNNPACK define call's status as a Status naming `what` and the
// operation.
Status XnnCheck(xnn_status s, const Operation& op, const char* what);
inline uint32_t U(int64_t v) { return static_cast<uint32_t>(v); }

// NCHW dims -> the NHWC dims XNNPACK sees (other ranks unchanged).
std::vector<size_t> XnnDims(const std::vector<int64_t>& dims);

}  // namespace npu
}  // namespace lite
