// Elementwise loops: broadcasting binary ops, unary activations, softmax
// and batch norm.
#include <algorithm>
#include <cmath>

#include "lite/backends/npu/reference/reference_ops.h"

namespace lite {
namespace npu {
namespace reference {

namespace {
// Strides of `dims` right-aligned to `rank` dims, 0 where broadcast.
std::vector<int64_t> BroadcastStrides(const std::vector<int64_t>& dims, size_t rank) {
  std::vector<int64_t> strides(rank, 0);
  int64_t s = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = dims.size() - 1 - i;
    const size_t r = rank - 1 - i;
    strides[r] = dims[d] == 1 ? 0 : s;
    s *= dims[d];
  }
  return strides;
}

float Apply(OperationType t, float a, float b) {
  switch (t) {
    case OperationType::kAdd: return a + b;
    case OperationType::kSub: return a - b;
    case OperationType::kMul: return a * b;
    case OperationType::kDiv: return a / b;
    case OperationType::kMax: return std::max(a, b);
    case OperationType::kMin: return std::min(a, b);
    case OperationType::kPRelu: return a > 0 ? a : b * a;
    default: return 0.f;
  }
}
}  // namespace

Status RunBinary(OperationType type, const View& x, const View& y, const MutableView& out) {
  const size_t rank = out.dims.size();
  if (x.dims.size() > rank || y.dims.size() > rank) {
    return InvalidArgument("binary operand has a higher rank than its output");
  }
  const auto sx = BroadcastStrides(x.dims, rank), sy = BroadcastStrides(y.dims, rank);
  int64_t total = 1;
  for (int64_t d : out.dims) total *= d;
  std::vector<int64_t> index(rank, 0);
  int64_t ix = 0, iy = 0;
  for (int64_t i = 0; i < total; ++i) {
    out.data[i] = Apply(type, x.data[ix], y.data[iy]);
    for (size_t r = rank; r-- > 0;) {  // odometer increment
      ++index[r];
      ix += sx[r];
      iy += sy[r];
      if (index[r] < out.dims[r]) break;
      ix -= sx[r] * index[r];
      iy -= sy[r] * index[r];
      index[r] = 0;
    }
  }
  return Status::OK();
}

Status RunUnary(const Operation& op, const View& x, const MutableView& out) {
  int64_t n = 1;
  for (int64_t d : x.dims) n *= d;
  const float alpha = op.Float("alpha"), beta = op.Float("beta", 1.f);
  const float lo = op.Float("min"), hi = op.Float("max");
  const float threshold = op.Float("threshold", 6.f), scale = op.Float("scale", 1.f);
  const float offset = op.Float("offset"), slope = op.Float("slope", 0.2f);
  const float bias = op.Float("bias");
  for (int64_t i = 0; i < n; ++i) {
    const float v = x.data[i];
    float r = 0;
    switch (op.type) {
      case OperationType::kRelu: r = std::max(v, 0.f); break;
      case OperationType::kRelu6: r = std::min(std::max(v, 0.f), 6.f); break;
      case OperationType::kLeakyRelu: r = v > 0 ? v : alpha * v; break;
      case OperationType::kSigmoid: r = 1.f / (1.f + std::exp(-v)); break;
      case OperationType::kTanh: r = std::tanh(v); break;
      case OperationType::kSwish: r = v / (1.f + std::exp(-beta * v)); break;
      case OperationType::kHardSwish:
        r = v * std::min(std::max(v + offset, 0.f), threshold) / scale;
        break;
      case OperationType::kHardSigmoid: r = std::min(std::max(slope * v + offset, 0.f), 1.f); break;
      case OperationType::kClip: r = std::min(std::max(v, lo), hi); break;
      case OperationType::kScale: r = scale * v + bias; break;
      case OperationType::kExp: r = std::exp(v); break;
      case OperationType::kAbs: r = std::fabs(v); break;
      default: return Unimplemented(op.origin + ": not a unary operation");
    }
    out.data[i] = r;
  }
  return Status::OK();
}

Status RunSoftmax(const Operation& op, const View& x, const MutableView& out) {
  const int64_t axis = op.Int("axis", static_cast<int64_t>(x.dims.size()) - 1);
  if (axis < 0 || axis >= static_cast<int64_t>(x.dims.size())) {
    return InvalidArgument(op.origin + ": softmax axis out of range");
  }
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= x.dims[i];
  for (size_t i = axis + 1; i < x.dims.size(); ++i) inner *= x.dims[i];
  const int64_t len = x.dims[axis];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      const float* src = x.data + o * len * inner + in;
      float* dst = out.data + o * len * inner + in;
      float m = -INFINITY;
      for (int64_t k = 0; k < len; ++k) m = std::max(m, src[k * inner]);
      float sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        dst[k * inner] = std::exp(src[k * inner] - m);
        sum += dst[k * inner];
      }
      for (int64_t k = 0; k < len; ++k) dst[k * inner] /= sum;
    }
  }
  return Status::OK();
}

Status RunBatchNorm(const Operation& op, const std::vector<View>& in, const MutableView& out) {
  const View& x = in[0];
  const float eps = op.Float("epsilon", 1e-5f);
  const int64_t N = x.dims[0], C = x.dims[1];
  int64_t inner = 1;
  for (size_t i = 2; i < x.dims.size(); ++i) inner *= x.dims[i];
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t c = 0; c < C; ++c) {
      const float k = in[1].data[c] / std::sqrt(in[4].data[c] + eps);
      const float b = in[2].data[c] - in[3].data[c] * k;
      const float* src = x.data + (n * C + c) * inner;
      float* dst = out.data + (n * C + c) * inner;
      for (int64_t i = 0; i < inner; ++i) dst[i] = src[i] * k + b;
    }
  }
  return Status::OK();
}

}  // namespace reference
}  // namespace npu
}  // namespace lite
