#include "lite/backends/npu/xnnpack/xnnpack_kernels.h"

#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

#include <algorithm>
#include <cstring>

namespace lite {
namespace npu {

namespace {

// Dims as stored (4-D: NHWC) and the stored position of NCHW axis `axis`.
std::vector<int64_t> Stored(const std::vector<int64_t>& d) {
  if (d.size() != 4) return d;
  return {d[0], d[2], d[3], d[1]};
}
int64_t StoredAxis(int64_t axis, size_t rank) {
  if (rank != 4) return axis;
  static const int64_t kMap[4] = {0, 3, 1, 2};
  return kMap[axis];
}

void Concat(const Model& m, const Operation& op, const std::vector<const float*>& in, float* out) {
  const auto od = Stored(m.operands[op.outputs[0]].dims);
  const int64_t axis = StoredAxis(op.Int("axis"), od.size());
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= od[i];
  for (size_t i = axis + 1; i < od.size(); ++i) inner *= od[i];
  const int64_t out_row = od[axis] * inner;
  int64_t offset = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const int64_t row = Stored(m.operands[op.inputs[k]].dims)[axis] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::memcpy(out + o * out_row + offset, in[k] + o * row, sizeof(float) * row);
    }
    offset += row;
  }
}

void ResizeNearest(const Model& m, const Operation& op, const float* x, float* y) {
  const auto& xd = m.operands[op.inputs[0]].dims;   // NCHW dims
  const auto& yd = m.operands[op.outputs[0]].dims;
  const int64_t N = xd[0], C = xd[1], H = xd[2], W = xd[3], OH = yd[2], OW = yd[3];
  const bool corners = op.Int("align_corners") != 0;
  const float rh = op.Float("ratio_h"), rw = op.Float("ratio_w");
  std::vector<int64_t> ix(OW);
  for (int64_t l = 0; l < OW; ++l) {
    int64_t v = corners ? static_cast<int64_t>(rw * l + 0.5f) : static_cast<int64_t>(rw * l);
    ix[l] = std::min(std::max<int64_t>(v, 0), W - 1);
  }
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t k = 0; k < OH; ++k) {
      int64_t iy = corners ? static_cast<int64_t>(rh * k + 0.5f) : static_cast<int64_t>(rh * k);
      iy = std::min(std::max<int64_t>(iy, 0), H - 1);
      const float* row = x + (n * H + iy) * W * C;
      float* dst = y + (n * OH + k) * OW * C;
      for (int64_t l = 0; l < OW; ++l) std::memcpy(dst + l * C, row + ix[l] * C, sizeof(float) * C);
    }
  }
}

// A reshape keeps the NCHW element order: a 4-D input is read back to NCHW
// and a 4-D output stored NHWC again.
void Reshape(const Model& m, const Operation& op, const float* x, float* y) {
  const auto& xd = m.operands[op.inputs[0]].dims;
  const auto& yd = m.operands[op.outputs[0]].dims;
  const int64_t n = m.operands[op.outputs[0]].numel();
  std::vector<float> nchw(x, x + n);
  if (xd.size() == 4) NhwcToNchw(x, nchw.data(), xd);
  if (yd.size() == 4) {
    NchwToNhwc(nchw.data(), y, yd);
  } else {
    std::memcpy(y, nchw.data(), sizeof(float) * n);
  }
}

// Whether a 4-D tensor's NHWC storage differs from its NCHW element order.
bool Reordered(const std::vector<int64_t>& d) {
  return d.size() == 4 && d[1] != 1 && d[2] * d[3] != 1;
}

}  // namespace

bool IsNhwcKernel(const Model& model, const Operation& op) {
  if (op.type == OperationType::kReshape) {
    // XNNPACK's static reshape keeps the stored (NHWC) order.
    return Reordered(model.operands[op.inputs[0]].dims) ||
           Reordered(model.operands[op.outputs[0]].dims);
  }
  return op.type == OperationType::kConcat || op.type == OperationType::kResizeNearest;
}

void RunNhwcKernel(const Model& model, const Operation& op, const std::vector<const float*>& in,
                   const std::vector<float*>& out) {
  if (op.type == OperationType::kConcat) {
    Concat(model, op, in, out[0]);
  } else if (op.type == OperationType::kReshape) {
    Reshape(model, op, in[0], out[0]);
  } else {
    ResizeNearest(model, op, in[0], out[0]);
  }
}

}  // namespace npu
}  // namespace lite
