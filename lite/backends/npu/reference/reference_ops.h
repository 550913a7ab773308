// The reference driver's operation loops: plain, obviously correct C++ that
// defines what every NN IR operation computes (nn_ir.h states the same in
// words). Each function reads operands through `in` and writes `out`
// (float32, row-major, dims from the model); buffers are the caller's.
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

}  // namespace reference
}  // namespace npu
}  // namespace lite
