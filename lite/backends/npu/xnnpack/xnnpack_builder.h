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

// NCHW <-> NHWC copies of one 4-D float tensor whose NCHW dims are `d`.
void NchwToNhwc(const float* src, float* dst, const std::vector<int64_t>& d);
void NhwcToNchw(const float* src, float* dst, const std::vector<int64_t>& d);
// `src` (NCHW dims `d`) in the driver's storage order: NHWC when 4-D, else
// as is. How every constant reaches XNNPACK or the driver's own kernels.
std::vector<float> NhwcData(const float* src, const std::vector<int64_t>& d);

class XnnpackBuilder {
 public:
  // Defines operations `ops` (a segment of the model) into `subgraph`.
  // `externals` maps the operands crossing the segment's boundary to their
  // external value ids; `segment_inputs` says which of them are read (the
  // others are written). `constants` receives every transformed constant
  // buffer; they must outlive the subgraph and its runtime.
  XnnpackBuilder(const Model& model, xnn_subgraph_t subgraph,
                 std::vector<std::vector<float>>* constants,
                 const std::map<int, uint32_t>& externals, const std::set<int>& segment_inputs);
  Status Build(const std::vector<size_t>& ops);

 private:
  StatusOr<uint32_t> Value(int operand);
  uint32_t ConstantValue(std::vector<float> data, const std::vector<size_t>& dims);
  // Output bounds folded from a following relu/relu6/clip; sets *out to the
  // operand the node must write.
  void FoldClamp(size_t op_index, int* out, float* lo, float* hi);
  Status Define(size_t op_index);
  Status DefineConv(const Operation& op, uint32_t x, uint32_t y, float lo, float hi);
  Status DefineDeconv(const Operation& op, uint32_t x, uint32_t y, float lo, float hi);
  Status DefinePool(const Operation& op, uint32_t x, uint32_t y, float lo, float hi);
  // Constant operand `idx` seen in the NHWC world of a 4-D output
  // (broadcast dims expanded to rank 4 and permuted).
  uint32_t BroadcastConstant(int idx, size_t out_rank);

  const Model& model_;
  xnn_subgraph_t subgraph_;
  std::vector<std::vector<float>>* constants_;
  std::vector<uint32_t> ids_;
  std::vector<int> consumers_;
  std::vector<bool> skipped_;  // operations folded into their producer
  std::map<int, uint32_t> externals_;
  std::set<int> segment_inputs_;
  std::set<size_t> in_segment_;
  std::vector<bool> defined_;  // operands with an XNNPACK value
};

// NCHW dims -> the NHWC dims XNNPACK sees (other ranks unchanged).
std::vector<size_t> XnnDims(const std::vector<int64_t>& dims);

}  // namespace npu
}  // namespace lite
