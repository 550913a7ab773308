// The reference driver's operation loops: plain, obviously correct C++ that
// defines what every NN IR operation computes (nn_ir.h states the same in
// words). Each function reads operands through `in` and writes `out`
// (float32, row-major, dims from the model; int8 levels for the quantized
// operations); buffers are the caller's.
#pragma once

#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {
namespace reference {

struct View {
  const float* data = nullptr;
  std::vector<int64_t> dims;
};
struct MutableView {
  float* data = nullptr;
  std::vector<int64_t> dims;
};

Status RunConvolution(const Operation& op, const std::vector<View>& in, const MutableView& out);
Status RunPool(const Operation& op, const View& x, const MutableView& out);
Status RunFullyConnected(const std::vector<View>& in, const MutableView& out);
Status RunBinary(OperationType type, const View& x, const View& y, const MutableView& out);
Status RunUnary(const Operation& op, const View& x, const MutableView& out);
Status RunSoftmax(const Operation& op, const View& x, const MutableView& out);
Status RunTranspose(const Operation& op, const View& x, const MutableView& out);
Status RunConcat(const Operation& op, const std::vector<View>& in, const MutableView& out);
Status RunSplit(const Operation& op, const View& x, const std::vector<MutableView>& outs);
Status RunSlice(const Operation& op, const View& x, const MutableView& out);
Status RunPad(const Operation& op, const View& x, const MutableView& out);
Status RunResize(const Operation& op, const View& x, const MutableView& out);
Status RunBatchNorm(const Operation& op, const std::vector<View>& in, const MutableView& out);

// Quantized operations (reference_quant.cc). Which element types `op` may
// read and write here: float32 everywhere, int8 for quantize and quantized
// conv2d / fully_connected (per-tensor x, filter per channel along its
// output axis or per tensor, float32 bias, float32 or per-tensor int8 out).
Status CheckOperandTypes(const Model& model, const Operation& op);
void RunQuantize(const Operation& op, const float* x, int64_t n, const Quantization& q,
                 int8_t* out);
// `in` / `out` point at each operand's elements (int8 levels or float32).
Status RunQuantizedConvolution(const Model& model, const Operation& op,
                               const std::vector<const void*>& in, void* out);
Status RunQuantizedFullyConnected(const Model& model, const Operation& op,
                                  const std::vector<const void*>& in, void* out);
// The int32 window sums of a conv2d on int8 levels (reference_conv.cc).
Status AccumulateQuantizedConvolution(const Operation& op, const int8_t* x,
                                      const std::vector<int64_t>& xdims, int32_t zx,
                                      const int8_t* filter, const std::vector<int64_t>& fdims,
                                      const std::vector<int64_t>& odims, int32_t* acc);

}  // namespace reference
}  // namespace npu
}  // namespace lite
